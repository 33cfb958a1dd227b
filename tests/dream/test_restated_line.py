"""An UPDATE that says all of a CLAUDE.md line, with what is new, replaces it — its examples aside:
an example in code illustrates the rule, so a rule that gives its own example still restates it. The
line's bold label stays its label."""

from __future__ import annotations

import pytest

from tests.dream.fidelity_project import Project, build_project, candidate

CONVENTIONS = """# CLAUDE.md

## Conventions

- **Edition:** 2021
- **Changelog:** One entry per merged change, in the present tense, under the next version — e.g. `Add retry to the uploader`. Never edit a released section.
- **Naming:** modules are snake_case
"""
OLD = CONVENTIONS.splitlines()[5]


@pytest.fixture
def acme(tmp_path) -> Project:  # type: ignore[no-untyped-def]
    project = build_project(tmp_path)
    project.claude_md.write_text(CONVENTIONS)
    return project


def _apply(acme: Project, capsys, principle: str) -> str:  # type: ignore[no-untyped-def]
    update = candidate(
        principle, category="UPDATE", layers=["L1"], trigger="writing the changelog", related=OLD
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    return acme.claude_md.read_text()


def test_an_update_with_an_example_of_its_own_replaces_the_line_it_restates(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    text = _apply(
        acme,
        capsys,
        "Changelog: One entry per merged change, in the present tense, under the next version, and link "
        "the pull request (e.g. `Add the export button (#412)`). Never edit a released section.",
    )
    assert OLD not in text
    assert (
        "- **Changelog:** One entry per merged change, in the present tense, under the next version, and "
        "link the pull request (e.g. `Add the export button (#412)`). Never edit a released section."
    ) in text.splitlines()
    assert "**When writing the changelog:**" not in text  # the label says when; no trigger before it
    assert text.count("Never edit a released section") == 1
    assert "- **Edition:** 2021" in text and "- **Naming:** modules are snake_case" in text


def test_an_update_that_leaves_out_part_of_the_rule_is_added_beside_it(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    text = _apply(
        acme,
        capsys,
        "Changelog: link the pull request of each entry (e.g. `Add the export button (#412)`).",
    )
    assert OLD in text  # "never edit a released section" is not said again: the line stays
    assert "link the pull request of each entry" in text
