"""Checking only some lines of a file finds exactly the problems a whole check finds on those lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.dream.checks import broken_lines
from memory_layout.wellformed import text_problems, unmatched

_LINES = st.sampled_from(
    [
        "---", "name: a…", "type: project", "# T", "- **When x:** do (it. → [d](d.md)", "- fine entry.",
        "```", "~~~", "unclosed `code", "text [link](a b.md)", "plain words", "", "- ends with the",
        "works :)", "a \\(escaped", "```python",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=14), st.sets(st.integers(1, 15)), st.booleans())
def test_only_the_given_lines_are_checked(lines: list[str], only: set[int], entries: bool) -> None:
    text = "\n".join(lines) + "\n"
    whole = text_problems(text, entries=entries)
    assert text_problems(text, entries=entries, only=only) == [p for p in whole if p[0] in only]


def test_a_proposal_is_judged_on_the_lines_it_adds() -> None:
    before = "# T\n- broken (entry\n"
    after = before + "- a new entry [also broken\n"
    assert broken_lines([("MEMORY.md", before, after)]) == [
        ("MEMORY.md", "- a new entry [also broken", "unbalanced brackets")
    ]
    assert broken_lines([("MEMORY.md", before, before + "- whole.\n")]) == []


def test_unmatched_positions() -> None:
    assert unmatched("no brackets here", "(", ")") == []
    assert unmatched("a (b) c) (d", "(", ")") == [7, 9]
    assert unmatched("\\(x", "(", ")") == []
