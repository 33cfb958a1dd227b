"""consolidate onboard: the newcomer brief, stale entries flagged, and seeding one's own memory."""

from __future__ import annotations

import json

from tests.helpers.memory import snapshot_bytes
from tests.team.conftest import Clone, run

INDEX = (
    "# Team Memory\n\n## Project\n"
    "- **When editing config:** settings live in `src/app/config.py`. → [detail](project_config.md)\n"
    "- **When adding a dependency:** use `uv add`, never `pip install`. → [detail](feedback_uv.md)\n"
    "- **When the tests fail with fixture 'db' not found:** run `make test`, not `pytest`. → [detail](reference_make_test.md)\n"
)


def _topic(name: str, body: str, signal: str, learned: str, kind: str = "project") -> str:
    return (
        f"---\nname: {name}\ndescription: {name}\nmetadata:\n  type: {kind}\nprovenance:\n  learned: '{learned}'\n"
        f"  signal: {signal}\n  shared_by: Alice\n  shared: '2026-11-30'\n  source: {name}.md\n---\n{body}\n"
    )


def shared(clone: Clone) -> None:
    clone.team.mkdir(parents=True)
    files = {
        "MEMORY.md": INDEX,
        "project_config.md": _topic(
            "project_config", "Settings live in `src/app/config.py`.", "decision", "2026-11-20"
        ),
        "feedback_uv.md": _topic(
            "feedback_uv",
            "Use `uv add`, never `pip install`.\n\n**Why:** uv.lock must stay in sync.",
            "correction",
            "2026-11-27",
            "feedback",
        ),
        "reference_make_test.md": _topic(
            "reference_make_test",
            "Run `make test`: it loads the DB fixture.",
            "error-fix",
            "2026-11-28",
            "reference",
        ),
    }
    for name, text in files.items():
        (clone.team / name).write_text(text, encoding="utf-8")
    claude = clone.path / "CLAUDE.md"
    claude.write_text(claude.read_text() + "\n## Team memory\n- Shared: @.claude/team-memory/MEMORY.md\n")
    clone.commit_all("Team memory")


def onboard(clone: Clone, capsys, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    return run(capsys, "onboard", str(clone.path), "--claude-home", str(clone.home), *args)


def test_the_brief_groups_by_topic_with_age_source_and_why(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    shared(alice)
    code, brief, err = onboard(alice, capsys)
    assert code == 0, err
    assert brief.startswith("# Onboarding brief: app\n")
    sections = [line for line in brief.splitlines() if line.startswith("## ")]
    assert sections == ["## Build and test", "## Gotchas", "## Decisions and their why", "## Commands"]
    gotchas = brief.split("## Gotchas")[1].split("## ")[0]
    assert "use `uv add`, never `pip install`" in gotchas and "**Why:** uv.lock must stay in sync." in gotchas
    assert "learned 2026-11-27" in gotchas and "from a correction, shared by Alice" in gotchas
    assert "`.claude/team-memory/feedback_uv.md`" in gotchas
    assert "run `make test`, not `pytest`" in brief.split("## Commands")[1]
    build = brief.split("## Build and test")[1].split("## ")[0]
    assert "**Build** — Run `make test` before pushing; it loads the DB fixture." in build
    assert "`CLAUDE.md` line 3" in build and "last changed" in build
    assert "Team memory" not in brief.split("## Commands")[1]  # its own import line is not a rule


def test_a_stale_entry_is_flagged_not_silently_passed_on(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    shared(alice)
    alice.git("mv", "src/app/config.py", "src/app/settings.py")
    alice.git("commit", "-qm", "Rename config to settings")
    code, brief, _ = onboard(alice, capsys)
    assert code == 0
    assert "⚠ marks 1 item(s) the auditor finds stale" in brief
    flagged = [line for line in brief.splitlines() if "⚠" in line]
    assert any("settings live in `src/app/config.py`" in line for line in flagged)
    assert any("stale: STALE" in line and "src/app/settings.py" in line for line in flagged)
    data = json.loads(onboard(alice, capsys, "--json")[1])
    assert data["stale"] == 1 and data["team_entries"] == 3


def test_out_writes_a_file_and_never_overwrites_something_else(alice: Clone, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    shared(alice)
    target = tmp_path / "BRIEF.md"
    code, out, err = onboard(alice, capsys, "--out", str(target))
    assert code == 0 and out == "" and "brief written to" in err
    assert target.read_text().startswith("# Onboarding brief: app")
    assert onboard(alice, capsys, "--out", str(target))[0] == 0  # an earlier brief may be replaced
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    code, _, err = onboard(alice, capsys, "--out", str(notes))
    assert code == 2 and "not a brief" in err and notes.read_text() == "my notes\n"
    code, _, err = onboard(alice, capsys, "--out", str(alice.team / "BRIEF.md"))
    assert code == 2 and "not memory" in err


def test_seed_fills_the_newcomers_memory_once_and_undo_takes_it_back(alice: Clone, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    shared(alice)
    alice.git("mv", "src/app/config.py", "src/app/settings.py")
    alice.git("commit", "-qm", "Rename config to settings")
    before = snapshot_bytes(tmp_path)
    code, out, err = onboard(alice, capsys, "--seed", "--yes")
    assert code == 0, err
    assert "not seeded (the auditor finds it stale)" in out
    index = (alice.memory / "MEMORY.md").read_text()
    assert "use `uv add`" in index and "make test" in index and "config.py" not in index
    assert (alice.memory / "feedback_uv.md").read_text() == (alice.team / "feedback_uv.md").read_text()
    code, out, _ = onboard(alice, capsys, "--seed", "--yes")
    assert "nothing to seed" in out and out.count("already in your memory") == 2
    plan = json.loads(run(capsys, "share", str(alice.path), "--claude-home", str(alice.home), "--json")[1])
    assert plan["proposals"] == []  # seeded entries came from the team: nothing to share back

    assert run(capsys, "undo", str(alice.path), "--claude-home", str(alice.home))[0] == 0
    after = snapshot_bytes(tmp_path)
    restored = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    assert not [k for k in restored if ".consolidate-state/" not in k], sorted(restored)


def test_seed_flags_need_seed(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = onboard(alice, capsys, "--yes")
    assert code == 2 and "go with --seed" in err


def test_claude_md_sections_and_their_imports_give_lead_rules_commands_and_lists(
    alice: Clone, capsys
) -> None:  # type: ignore[no-untyped-def]
    (alice.path / "CLAUDE.md").write_text(
        "<!-- the rules live in AGENTS.md -->\n@AGENTS.md\n\n"
        "## Team memory\n- Shared: @.claude/team-memory/MEMORY.md\n"
    )
    (alice.path / "AGENTS.md").write_text(
        "# Agents\n\nThis file guides agents.\n\n"
        "## Testing\n\n**Before committing, run:**\n\n```sh\n# the whole suite\nmake test\nmake lint\n```\n\n"
        "## Code style\n\n- Type every function.\n- No bare `except`.\n\n"
        "## Architecture\n\nThe service has three layers:\n- api\n- core\n- store\n\n"
        "```python\nclass Core: ...\n```\n\n"
        "## Release notes\n\nKeep them short.\n"
    )
    alice.commit_all("Instructions")
    code, brief, _ = onboard(alice, capsys)
    assert code == 0
    assert "`CLAUDE.md` (with `AGENTS.md`)" in brief
    build = brief.split("## Build and test")[1].split("\n## ")[0]
    assert "**Testing** — **Before committing, run:**\n  `make test`\n  `make lint`" in build
    assert "# the whole suite" not in build
    conventions = brief.split("## Conventions")[1].split("\n## ")[0]
    assert "**Code style** — Type every function.\n  No bare `except`." in conventions
    decisions = brief.split("## Decisions and their why")[1].split("\n## ")[0]
    assert (
        "The service has three layers:\n  api\n  core\n  store" in decisions and "class Core" not in decisions
    )
    also = brief.split("## Also in the project instructions")[1]
    assert "- Release notes (AGENTS.md:" in also and "Agents" not in also and "Team memory" not in also


def test_a_stale_claude_md_rule_is_flagged_too(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    claude = alice.path / "CLAUDE.md"
    claude.write_text(claude.read_text() + "\n## Conventions\n- Settings live in `src/app/config.py`.\n")
    alice.commit_all("Where settings live")
    alice.git("mv", "src/app/config.py", "src/app/settings.py")
    alice.git("commit", "-qm", "Rename config to settings")
    code, brief, _ = onboard(alice, capsys)
    assert code == 0
    conventions = brief.split("## Conventions")[1]
    assert "- ⚠ **Conventions** — Settings live in `src/app/config.py`." in conventions
    assert "src/app/settings.py" in conventions.split("\n## ")[0]


def test_seed_leaves_out_a_rule_the_memory_states_in_other_words_not_one_sharing_a_command(
    alice: Clone, capsys
) -> None:  # type: ignore[no-untyped-def]
    makefile = alice.path / "Makefile"
    makefile.write_text(makefile.read_text() + "deploy:\n\t./deploy.sh\n")
    alice.team.mkdir(parents=True)
    (alice.team / "MEMORY.md").write_text(
        "# Team Memory\n\n## Project\n"
        "- **After the tests pass, deploy the build right away** with `make deploy` so staging runs it. → [detail](deploy.md)\n"
        "- **When `make deploy` times out:** rerun it with `TIMEOUT=600`. → [detail](timeout.md)\n"
    )
    (alice.team / "deploy.md").write_text(
        _topic(
            "deploy",
            "Deploy the build with `make deploy` right after the tests pass.",
            "correction",
            "2026-11-27",
        )
    )
    (alice.team / "timeout.md").write_text(
        _topic(
            "timeout", "When `make deploy` times out, rerun it with `TIMEOUT=600`.", "error-fix", "2026-11-28"
        )
    )
    alice.write_memory(
        {
            "MEMORY.md": "# Project Memory\n\n## Project\n"
            "- **When the tests pass:** deploy it ASAP with `make deploy` so we try it on staging. → [detail](project_deploy.md)\n",
            "project_deploy.md": "---\nname: deploy\ndescription: deploy\nmetadata:\n  type: project\n---\n"
            "Once all the tests pass, deploy it ASAP with `make deploy` so we try it on staging.\n",
        }
    )
    code, out, err = onboard(alice, capsys, "--seed", "--yes")
    assert code == 0, err
    assert "already in your memory (in other words): After the tests pass, deploy the build right away" in out
    index = (alice.memory / "MEMORY.md").read_text()
    assert "TIMEOUT=600" in index and "right away" not in index
