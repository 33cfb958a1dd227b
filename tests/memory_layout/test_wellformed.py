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


def _ours(line: str) -> list[str]:
    from memory_layout.pointers import code_spans

    contents = []
    for start, end in code_spans(line)[0]:
        size = len(line[start:]) - len(line[start:].lstrip("`"))
        inner = line[start + size : end - size]
        if inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
            inner = inner[1:-1]  # CommonMark strips one space each side of a span's content
        contents.append(inner)
    return contents


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["`", "``", " ", "a", "b "]), min_size=1, max_size=12).map("".join))
def test_code_spans_are_the_ones_commonmark_reads(line: str) -> None:
    """A run no run of its length closes is literal, and the spans after it still stand; a backtick
    inside a longer span (`` ` ``) is its content."""
    line = "x " + line + " y"
    from markdown_it import MarkdownIt

    inline = next(t for t in MarkdownIt("commonmark").parse(line) if t.type == "inline")
    expected = [c.content for c in inline.children or [] if c.type == "code_inline"]
    assert _ours(line) == expected


def test_a_backtick_inside_a_double_backtick_span_is_never_escaped() -> None:
    from consolidate.dream.titles import mend

    line = "punctuation such as `[`, `]`, `` ` `` and `,` is dropped"
    assert mend(line) == line
    # an unclosed run is shown as itself, and the span after it stays code
    assert mend("a `` run, then `code` after it") == "a \\`\\` run, then `code` after it"
