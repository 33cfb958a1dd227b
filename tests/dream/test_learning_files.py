"""A learning's topic file: its frontmatter name and description each say something of their own."""

from __future__ import annotations

import pytest

from consolidate.dream.learning import topic_file
from consolidate.models import Candidate
from memory_layout.frontmatter import parse_frontmatter


def _matter(candidate: Candidate) -> tuple[str, str]:
    text = topic_file(candidate)
    inner = text.split("---\n")[1]
    matter = parse_frontmatter(f"---\n{inner}---\n", inner)
    return str(matter.name), str(matter.description)


@pytest.mark.parametrize("kind", ["correction", "rejection", "preference", "decision", "error-fix", "marker"])
def test_the_description_of_any_learning_is_not_its_name(kind: str) -> None:
    candidate = Candidate(
        kind=kind,
        principle="Use uv add, never pip install, so uv.lock stays in sync with the declared dependencies.",
        trigger="adding a dependency",
    )
    name, description = _matter(candidate)
    assert description != name
    assert description.startswith("When adding a dependency: ")
    assert len(name) <= 60


def test_a_short_rule_without_a_trigger_still_gets_a_description_of_its_own() -> None:
    name, description = _matter(Candidate(kind="correction", principle="Use pnpm.", trigger=""))
    assert name == "Use pnpm"
    assert description != name and description.endswith("Use pnpm")
