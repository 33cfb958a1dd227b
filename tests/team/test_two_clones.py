"""The team workflow end to end with real git: Alice dreams, shares and commits; Bob (another Claude
config dir, another user name) pulls, is onboarded from what she shared, and his dream does not
propose it again."""

from __future__ import annotations

import json

from tests.team.conftest import Clone, run, write_sessions


def _share_and_push(alice: Clone, capsys) -> str:  # type: ignore[no-untyped-def]
    write_sessions(alice)
    code, out, err = run(capsys, "dream", str(alice.path), "--claude-home", str(alice.home), "--yes")
    assert code == 0, err
    code, out, err = run(capsys, "share", str(alice.path), "--claude-home", str(alice.home), "--yes")
    assert code == 0, err
    assert "nothing was committed" in out
    assert alice.git("log", "--oneline").count("\n") == 1  # share never commits
    alice.commit_all("Share what we learned")
    alice.git("push", "-q", "origin", "HEAD:main")
    return out


def _dream_plan(clone: Clone, capsys) -> str:  # type: ignore[no-untyped-def]
    """What a dream would write, as text (it applies nothing)."""
    code, out, err = run(
        capsys, "dream", str(clone.path), "--claude-home", str(clone.home), "--json", "--since", "2000-01-01"
    )
    assert code == 0, err
    return json.dumps([p["changes"] for p in json.loads(out)["proposals"]])


def test_a_teammate_pulls_is_onboarded_and_is_not_proposed_the_same_again(
    alice: Clone, bob: Clone, capsys
) -> None:  # type: ignore[no-untyped-def]
    write_sessions(bob)  # Bob's own sessions teach him what Alice's taught her
    before = _dream_plan(bob, capsys)
    assert "uv add" in before and "read-only on Fridays" in before  # without the team folder: proposed

    _share_and_push(alice, capsys)
    shared = sorted(p.name for p in alice.team.glob("*.md"))
    assert "MEMORY.md" in shared and len(shared) >= 3
    assert "@.claude/team-memory/MEMORY.md" in (alice.path / "CLAUDE.md").read_text()
    uv_topic = next(p for p in alice.team.glob("*.md") if "uv add" in p.read_text() and p.name != "MEMORY.md")
    text = uv_topic.read_text()
    assert "shared_by: Alice" in text and "learned: '2026-11-27'" in text
    assert "signal:" in text and "originSessionId" not in text

    bob.git("pull", "-q", "origin", "main")
    fresh = bob.home.parent / "fresh-claude"  # an empty Claude config dir
    code, brief, err = run(capsys, "onboard", str(bob.path), "--claude-home", str(fresh))
    assert code == 0, err
    assert "uv add" in brief and "staging database" in brief.lower()
    assert "shared by Alice" in brief and f"`.claude/team-memory/{uv_topic.name}`" in brief
    assert "## Build and test" in brief and "make test" in brief  # from CLAUDE.md
    assert not fresh.exists()  # the brief reads the repository only

    after = _dream_plan(bob, capsys)
    assert "uv add" not in after and "read-only on Fridays" not in after


def test_share_again_right_after_proposes_nothing(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    _share_and_push(alice, capsys)
    code, out, err = run(capsys, "share", str(alice.path), "--claude-home", str(alice.home), "--json")
    assert code == 0, err
    assert json.loads(out)["proposals"] == []
    code, out, _ = run(capsys, "share", "--check", str(alice.path))
    assert code == 0 and "team memory OK" in out
