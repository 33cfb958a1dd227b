"""consolidate share --check: the pre-commit / CI gate over the team folder."""

from __future__ import annotations

import json
from pathlib import Path

from tests.team.conftest import Clone, run

GOOD_INDEX = (
    "# Team Memory\n\n## Project\n"
    "- **When migrating data:** wait for Monday; staging is read-only on Fridays. → [detail](staging.md)\n"
)
GOOD_TOPIC = "---\nname: staging\n---\nStaging is read-only on Fridays.\n"


def team(clone: Clone, files: dict[str, str]) -> Path:
    clone.team.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (clone.team / name).write_text(text, encoding="utf-8")
    return clone.team


def check(clone: Clone, capsys, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    return run(capsys, "share", "--check", str(clone.path), *args)


def test_a_clean_folder_passes_and_an_absent_one_has_nothing_to_check(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = check(alice, capsys)
    assert code == 0 and "no team memory" in out
    team(alice, {"MEMORY.md": GOOD_INDEX, "staging.md": GOOD_TOPIC})
    code, out, _ = check(alice, capsys)
    assert code == 0 and "team memory OK: 1 entries, 1 topic files" in out
    assert "warning: not-imported" in out  # CLAUDE.md has no @ line yet: said, not failed


def test_a_dangling_pointer_fails(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    team(
        alice,
        {
            "MEMORY.md": GOOD_INDEX + "- **When deploying:** run the smoke tests. → [detail](deploy.md)\n",
            "staging.md": GOOD_TOPIC,
        },
    )
    code, out, _ = check(alice, capsys)
    assert code == 1
    assert ".claude/team-memory/MEMORY.md:5: dangling-pointer: deploy.md does not exist" in out


def test_an_over_budget_index_fails(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    lines = "".join(
        f"- **When touching module {n}:** read its README first. → [detail](staging.md)\n" for n in range(220)
    )
    team(alice, {"MEMORY.md": "# Team Memory\n\n" + lines, "staging.md": GOOD_TOPIC})
    code, out, _ = check(alice, capsys)
    assert code == 1 and "MEMORY.md:0: over-budget: 222 lines" in out


def test_secrets_home_paths_transcripts_and_other_files_fail(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    secret = "AKIA" + "ABCDEFGHIJKLMNOP"
    home = str(Path.home())
    team(
        alice,
        {
            "MEMORY.md": GOOD_INDEX,
            "staging.md": GOOD_TOPIC + f"Keys: {secret}\nNotes in {home}/notes/staging.md\n",
            "session.jsonl": '{"type": "user", "sessionId": "x", "parentUuid": null}\n',
        },
    )
    code, out, _ = check(alice, capsys)
    assert code == 1
    assert ".claude/team-memory/staging.md:5: secret: a aws-access-key" in out and secret not in out
    assert ".claude/team-memory/staging.md:6: home-path" in out
    assert ".claude/team-memory/session.jsonl:0: not-markdown" in out
    code, out, _ = check(alice, capsys, "--json")
    kinds = {p["kind"] for p in json.loads(out)["problems"]}
    assert kinds == {"secret", "home-path", "not-markdown"}


def test_check_takes_no_share_options(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = check(alice, capsys, "--yes")
    assert code == 2 and "--check only reads the team folder" in err
