"""A rule as the dream writes it: the numbered files it names spelt as the project spells them, and
no "we" or "you" of the conversation it was said in."""

from __future__ import annotations

import pytest

from consolidate.dream.paths import real_names
from consolidate.dream.wording import gerund, impersonal


def test_a_numbered_name_is_spelt_as_the_project_files_spell_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "docs").mkdir()
    for number in (1, 2):
        (tmp_path / "docs" / f"journals-{number}.md").write_text("# journal\n")
    rule = "Write the plan into a dated section of docs/journal-N"
    # the files decide, whatever the sessions wrote
    assert real_names(rule, [], ["see docs/journal-3"], root=tmp_path) == (
        "Write the plan into a dated section of docs/journals-N"
    )


def test_without_files_the_memory_then_the_evidence_spell_it() -> None:
    rule = "Write the plan into a dated section of docs/journal-N"
    memory = ["1. Add a dated entry to `docs/journals-N.md` with the plan"]
    assert (
        real_names(rule, memory, ["docs/journal-2"])
        == "Write the plan into a dated section of docs/journals-N"
    )
    assert real_names(rule, [], ["write it to docs/journals-4 like docs/journals-3"]).endswith(
        "docs/journals-N"
    )
    # a bare name is matched by its file name
    assert (
        real_names("Update `journal-N` when done", ["see docs/journals-N.md"], [])
        == "Update `journals-N` when done"
    )


def test_when_the_spellings_disagree_the_rule_names_the_folder_or_keeps_its_own() -> None:
    evidence = ["write the plan to docs/journals-2", "add it to docs/journal-3"]
    rule = "Write the plan into a dated section of docs/journal-N"
    assert real_names(rule, [], evidence) == "Write the plan into a dated section of docs/"
    assert (
        real_names("Update `journal-N` when done", [], ["journal-2", "journals-3"])
        == "Update `journal-N` when done"
    )
    # nothing of its shape: unchanged; one numbered file named is that file
    assert real_names(rule, [], ["nothing numbered here"]) == rule
    assert real_names("Fix docs/journal-2 first", [], ["docs/journals-2"]) == "Fix docs/journal-2 first"


@pytest.mark.parametrize(
    ("said", "alone"),
    [
        (
            "Tag the release and push the tag before we actually announce it",
            "Tag the release and push the tag before announcing it",
        ),
        (
            "Squash the fixups; when you merge, keep the title",
            "Squash the fixups; when merging, keep the title",
        ),
        ("We should rebase the branch after we stop the build", "Rebase the branch after stopping the build"),
        ("You need to run the linter before you commit", "Run the linter before committing"),
    ],
)
def test_a_rule_speaks_of_the_moment_not_of_who_was_talking(said: str, alone: str) -> None:
    assert impersonal(said) == alone


def test_a_clause_with_no_plain_action_is_left_as_said() -> None:
    for said in ("Push the branch when we are done", "Ask first if you can't reach the server"):
        assert impersonal(said) == said


def test_gerunds() -> None:
    assert [
        gerund(w) for w in ("start", "merge", "stop", "open", "edit", "plan", "commit", "fix", "tie")
    ] == [
        "starting",
        "merging",
        "stopping",
        "opening",
        "editing",
        "planning",
        "committing",
        "fixing",
        "tying",
    ]


def test_a_bare_numbered_name_is_spelt_as_a_file_one_folder_down(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "journals-3.md").write_text("# journal\n")
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "journal-9.md").write_text("hidden\n")
    assert real_names("Update `journal-N` when done", [], ["journal-2"], root=tmp_path) == (
        "Update `journals-N` when done"
    )


def test_the_evidence_does_not_respell_a_name_the_learning_spells_again() -> None:
    rule = "Plans go in the current `docs/journals-N.md`, or a new `journals-(N+1).md` when asked"
    evidence = ["add the plan to a new docs/journal-3.md file"]  # the user's typo
    assert real_names(rule, [], evidence) == rule
    # spelt again only in the learning's note: kept too
    single = "Plans go in the current `docs/journals-N.md`"
    note = ["The user typed `journal-3.md`; the file made matches the existing `journals-2.md`."]
    assert real_names(single, [], evidence, own=note) == single
    # spelt nowhere else: the evidence spells it, and the files still decide over both
    assert real_names(single, [], evidence) == "Plans go in the current `docs/journal-N.md`"
    assert real_names(rule, ["see `docs/journal-N.md`"], evidence).startswith(
        "Plans go in the current `docs/journal-N.md`"
    )


def test_a_learning_quoting_a_link_of_another_file_applies_with_the_link_as_code(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from tests.dream.fidelity_project import build_project, candidate

    project = build_project(tmp_path)
    (project.claude_md.parent / "notes").mkdir()
    (project.claude_md.parent / "notes" / "done.md").write_text("# Done\n")
    rule = (
        "When a task is done, move its item under `## Done` in notes/todo.md, below the "
        '"See older [done.md](done.md)" line, next to [the archive](notes/done.md).'
    )
    engine = project.report(candidate(rule, category="FILL_GAP", layers=["L1"], trigger="finishing a task"))
    code, out, err = project.dream(capsys, engine, "--yes")
    assert code == 0, err
    written = project.claude_md.read_text()
    assert '"See older `[done.md](done.md)`" line' in written  # a quote: done.md is not beside CLAUDE.md
    assert "[the archive](notes/done.md)" in written  # a link that leads somewhere stays a link
