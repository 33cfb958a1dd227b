"""A new CLAUDE.md rule goes beside the block it is about — a completion step under the completion
procedure, a git rule beside the git rules — and only falls back to the section the learning names
when no block is close; summary lines keep the backticks of a code span that needs them."""

from __future__ import annotations

import pytest

from consolidate.dream.drafts import plain
from consolidate.dream.placement import beside
from tests.dream.fidelity_project import Project, build_project, candidate

CLAUDE_MD = """# CLAUDE.md

## Conventions

- **Edition:** 2024
- **Naming:** a widget is a unit of the dashboard

## Release

**On completion:**
1. Write the changelog entry for the release
2. Tag the release commit with the version

## Git

- Never rebase a branch someone else pushed to.
- Squash-merge feature branches into `main`.

## Testing

Run the whole suite with `make check` before asking for review.
"""


@pytest.fixture
def acme(tmp_path) -> Project:  # type: ignore[no-untyped-def]
    project = build_project(tmp_path)
    project.claude_md.write_text(CLAUDE_MD)
    return project


def _applied(acme: Project, capsys, *learnings: dict) -> str:  # type: ignore[no-untyped-def, type-arg]
    code, _, err = acme.dream(capsys, acme.report(*learnings), "--yes")
    assert code == 0, err
    return acme.claude_md.read_text()


def test_a_completion_step_is_the_procedures_next_step(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    text = _applied(
        acme,
        capsys,
        candidate(
            "Push the release tag to the remote once the release commit is tagged",
            layers=["L1"],
            section="Conventions",
            trigger="releasing",
        ),
    )
    assert (
        "2. Tag the release commit with the version\n"
        "3. Push the release tag to the remote once the release commit is tagged.\n"
    ) in text  # a step of the procedure: its lead-in says when, so no trigger of its own
    assert "- **Naming:** a widget is a unit of the dashboard\n\n## Release" in text  # not in Conventions


@pytest.mark.parametrize(
    ("rule", "written"),
    [
        (  # a git rule beside the git rules
            "Never force-push a branch that was already merged",
            "- Squash-merge feature branches into `main`.\n- Never force-push a branch that was already merged.\n",
        ),
        (  # about nothing in the file: the section it names
            "Answer in British English spelling in every reply",
            "- **Naming:** a widget is a unit of the dashboard\n- Answer in British English spelling in every reply.",
        ),
    ],
)
def test_a_rule_sits_beside_its_block_else_in_the_section_it_names(
    acme, capsys, rule: str, written: str
) -> None:  # type: ignore[no-untyped-def]
    text = _applied(acme, capsys, candidate(rule, layers=["L1"], section="Conventions"))
    assert written in text


def test_no_neighbour_for_a_table_a_shared_name_or_a_copied_block() -> None:
    assert (
        beside("# T\n\n## S\n\n| a | b |\n|---|---|\n| deploy | staging |\n", "x", "Deploy to staging first")
        is None
    )
    text = "# T\n\n## S\n\n- Run `make check` before pushing.\n\n## U\n\n- Run `make check` before pushing.\n"
    assert beside(text, "- x", "Run `make check` before pushing to the release branch") is None  # not unique
    place = beside(CLAUDE_MD, "Rebase before you push", "Rebase your branch before pushing")
    assert place is not None and place.section == "Git"


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        ("Append `, vX.Y.Z` to the subject line", "Append `, vX.Y.Z` to the subject line"),
        ("For `qx-7 push`, omit `-R .`", "For qx-7 push, omit `-R .`"),
        ("Always pass `--path .` to `tspec install`", "Always pass `--path .` to tspec install"),
        ("Amend the `.claude/` files", "Amend the .claude/ files"),
        ("A stray ` tick", "A stray  tick"),
    ],
)
def test_a_summary_keeps_the_backticks_a_code_span_needs(text: str, summary: str) -> None:
    assert plain(text) == summary


def test_a_set_aside_learning_keeps_quoting_the_entry_that_states_it(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    stating = "- After each commit, remind the user to amend the session files."
    acme.claude_md.write_text(f"# CLAUDE.md\n\n## Workflow\n\n{stating}\n")
    engine = acme.report(
        candidate("Remind the user to amend the session files after each commit", layers=["L1"])
    )
    code, out, err = acme.dream(capsys, engine, "--yes")
    assert code == 0, err
    assert "already recorded as “- After each commit, remind the user" in out
    later = "- Remind the user to amend the session files after each commit, and wait for the tests."
    acme.claude_md.write_text(f"# CLAUDE.md\n\n## Conventions\n\n{later}\n\n## Workflow\n\n{stating}\n")
    code, out, err = acme.dream(capsys, engine, "--dry-run")
    assert code == 0, err
    assert "already recorded as “- After each commit, remind the user" in out, out  # not the line added since
