"""A numbered procedure in a CLAUDE.md is one unit: a learning it states step by step is already
recorded, and an EDIT never replaces one of its steps with a line of another shape — the list keeps
its numbering, whatever the learning."""

from __future__ import annotations

import re

import pytest

from tests.dream.fidelity_project import Project, build_project, candidate

PROCEDURE = """# CLAUDE.md

## Workflow

**On completion:**
1. Update `notes/chores-N.md` with the result
2. Move the items from In Progress to Done in `notes/todo.md`
3. Remove `-dev` from the version in `Cargo.toml`
4. Commit as a release chore (include `Cargo.lock` if changed)
5. The user merges the branch to main

## Conventions

* Keep the changelog entries short and in the present tense.
"""
STEPS = [
    "1. Update `notes/chores-N.md` with the result",
    "2. Move the items from In Progress to Done in `notes/todo.md`",
    "3. Remove `-dev` from the version in `Cargo.toml`",
    "4. Commit as a release chore (include `Cargo.lock` if changed)",
    "5. The user merges the branch to main",
]


@pytest.fixture
def acme(tmp_path) -> Project:  # type: ignore[no-untyped-def]
    project = build_project(tmp_path)
    project.claude_md.write_text(PROCEDURE)
    return project


def _numbering_kept(text: str) -> None:
    """The five steps are still there, in order, each on its own numbered line, and nothing else sits
    between them at the list's own level."""
    lines = text.splitlines()
    first = lines.index(STEPS[0])
    numbered = [line for line in lines[first:] if line and not line.startswith(" ")][: len(STEPS)]
    assert numbered == STEPS, text


def _edits_of_steps(plan: dict) -> list[dict]:  # type: ignore[type-arg]
    """The changes of the plan's proposals (set-aside ones excepted) that rewrite a step."""
    return [
        change
        for p in plan["proposals"]
        if "skipped" not in p
        for change in p["changes"]
        if change["op"] == "replace_text"
        and re.search(r"^\d+\. ", change["old"], re.MULTILINE)
        and any(step not in change["new"] for step in STEPS if step in change["old"])
    ]


def _step_learning(principle: str, category: str = "UPDATE") -> dict:  # type: ignore[type-arg]
    """A learning about step 3, as the scan hands it to the dream."""
    return candidate(
        principle, category=category, layers=["L1"], trigger="writing a commit", related=STEPS[2]
    )


def _plan_then_apply(acme: Project, capsys, learning: dict) -> tuple[dict, str, str]:  # type: ignore[no-untyped-def, type-arg]
    """The dry-run plan for the learning, then the dream applied with --yes: (plan, output, CLAUDE.md)."""
    engine = acme.report(learning)
    plan = acme.plan(capsys, engine)
    code, out, err = acme.dream(capsys, engine, "--yes")
    assert code == 0, err
    return plan, out, acme.claude_md.read_text()


def test_a_learning_the_procedure_states_step_by_step_is_already_recorded(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    plan, out, text = _plan_then_apply(
        acme,
        capsys,
        _step_learning(
            "Update todo and `chore-N`, remove `-dev` from Version in Cargo.toml; when you commit, include "
            "Cargo.lock if it's changed"
        ),
    )
    [proposal] = plan["proposals"]
    assert proposal["skipped"]["reason"] == "already recorded"
    assert "On completion" in proposal["skipped"]["matched"]["entry"]
    assert "skipped P1: already recorded" in out
    assert text == PROCEDURE


def test_a_restated_step_is_never_replaced_by_a_rule_of_another_shape(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    plan, _, text = _plan_then_apply(
        acme,
        capsys,
        _step_learning(
            "Remove `-dev` from the version in `Cargo.toml`, then run `cargo update --workspace` so the lock "
            "file follows"
        ),
    )
    assert plan["proposals"] and not _edits_of_steps(plan)
    _numbering_kept(text)
    assert "`cargo update --workspace`" in text  # added beside the step, in the list's own shape
    assert "\n3. Remove `-dev` from the version in `Cargo.toml`\n   - " in text


def test_an_update_about_another_action_becomes_an_add_and_the_list_stays_whole(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    plan, _, text = _plan_then_apply(
        acme, capsys, _step_learning("Sign the release tag with `git tag -s` after the version is final")
    )
    assert [p["action"] for p in plan["proposals"]] == ["ADD"] and not _edits_of_steps(plan)
    _numbering_kept(text)
    assert text.count("`git tag -s`") == 1


def test_a_contradicted_step_is_replaced_by_a_step(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    contradict = _step_learning(
        "Never remove `-dev` from the version in `Cargo.toml`: the user does it when merging", "CONTRADICT"
    )
    plan = acme.plan(capsys, acme.report(contradict))
    [proposal] = plan["proposals"]
    assert proposal["action"] == "EDIT", proposal
    [change] = proposal["changes"]
    assert change["old"] == STEPS[2]
    assert (
        change["new"]
        == "3. Never remove `-dev` from the version in `Cargo.toml`: the user does it when merging."
    )


def test_a_restated_bullet_keeps_its_own_marker(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    update = candidate(
        "Keep the changelog entries short and in the present tense, one line for each change",
        category="UPDATE",
        layers=["L1"],
        related="Keep the changelog entries short and in the present tense.",
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert "\n* Keep the changelog entries short and in the present tense, one line for each change." in text
    assert "\n- Keep the changelog" not in text
    _numbering_kept(text)


SESSION_FILES = """# CLAUDE.md

## Workflow

**After committing code, remind about .claude/ files and wait:**
```
Committed abc123.

Remember to commit .claude/ session files.
```

## Git Operations Claude Cannot Perform

Due to circular references with `.claude/` session files, Claude cannot perform these git operations:

- `git checkout` - switching branches affects session files
- `git merge` - merging affects session files
- Amending commits with `.claude/` files

Claude can only make commits (excluding `.claude/` files) and remind the user to handle the rest.
"""


def test_a_learning_found_recorded_is_never_labeled_a_contradiction(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(SESSION_FILES)
    learning = candidate(
        "Do not commit .claude/ session files",
        category="CONTRADICT",  # the scan read the fenced reminder line as its opposite
        layers=["L1"],
        trigger="writing a commit",
        related="Remember to commit .claude/ session files.",
    )
    plan, out, text = _plan_then_apply(acme, capsys, learning)
    [proposal] = plan["proposals"]
    assert proposal["skipped"]["reason"] == "already recorded"
    assert proposal["category"] != "CONTRADICT"
    assert "warning" not in proposal or not proposal["warning"]
    assert "skipped P1: already recorded" in out and text == SESSION_FILES


def test_a_special_case_of_another_learning_merges_into_it(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    general = candidate(
        "Use `tspec` instead of `cargo` when possible", trigger="running `cargo` commands", layers=["L2"]
    )
    special = candidate(
        "Use `tspec clippy` instead of `cargo clippy`", trigger="running `cargo clippy`", layers=["L2"]
    )
    other = candidate("Use `tspec fmt --check` before every push to CI", trigger="pushing", layers=["L2"])
    plan = acme.plan(capsys, acme.report(special, general, other))
    adds = [p for p in plan["proposals"] if p["action"] == "ADD" and "skipped" not in p]
    assert sorted(p["summary"] for p in adds) == [
        "Use tspec fmt --check before every push to CI",
        "Use tspec instead of cargo when possible",
    ]
    topic = next(
        c["content"]
        for p in adds
        if p["summary"].startswith("Use tspec instead")
        for c in p["changes"]
        if c["op"] == "write_file"
    )
    assert "Also: Use `tspec clippy` instead of `cargo clippy`" in topic


def test_a_merged_wording_that_negates_is_kept() -> None:
    from consolidate.dream.additions import merge_alike
    from consolidate.models import Candidate

    said = Candidate(kind="correction", principle="deploy on Fridays after the smoke run", layers=["L2"])
    negated = Candidate(
        kind="correction", principle="never deploy on Fridays after the smoke run", layers=["L2"]
    )
    [(merged, _)] = merge_alike([said, negated])
    assert "never" in f"{merged.principle} {merged.detail}"


LOCKED_COMMANDS = """# CLAUDE.md

## Releases

Because of the shared lock files, the assistant cannot run these commands:

- `npm publish` - publishing needs the release key
- `npm dedupe` - deduping rewrites the lock
"""


def test_a_set_aside_learning_quotes_the_item_that_states_it_not_the_lead_in(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(LOCKED_COMMANDS)
    learning = candidate("Do not dedupe because of the shared lock files", layers=["L1"], trigger="releasing")
    plan, out, text = _plan_then_apply(acme, capsys, learning)
    [proposal] = plan["proposals"]
    assert proposal["skipped"]["reason"] == "already recorded"
    assert "already recorded as “- `npm dedupe` - deduping rewrites the lock”" in out, out
    assert text == LOCKED_COMMANDS


def test_an_order_never_joins_a_list_of_what_the_assistant_must_not_do() -> None:
    from consolidate.dream.edits import joins
    from consolidate.dream.remembered import Remembered
    from consolidate.models import Candidate

    def update(principle: str) -> Candidate:
        return Candidate.model_validate(candidate(principle, category="UPDATE"))

    banned = Remembered(
        "L1", "/p/CLAUDE.md", "Operations Claude Cannot Perform", "- Amending commits with logs"
    )
    order = update("Stop after every commit so the user can amend the logs")
    assert not joins(order, banned)
    assert joins(update("Never amend commits that hold the logs"), banned)
    listed = Remembered("L1", "/p/CLAUDE.md", "Workflow", "- Amend commits with the logs")
    assert joins(order, listed)
