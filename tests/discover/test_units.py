"""The blocks of a Markdown text: a line alone is read without the parser, as the parser reads it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.discover import units
from memory_layout import parse_document

_PIECES = [
    "# T", "## S", "text", "===", "---", "- a", "* b", "+ c", "1. d", "2) e", "**Why:** x", "+1 vote", "-x",
    "   - indented", "    - code", "\t- tab", "> - quoted", "> # quoted", "```", "~~~", "- [x](a.md)", " ",
    "\u00a0# nbsp", "***", "<div>", "<!-- c -->", "#hashtag", "[ref]: /url", "a\r", "\r", "\r\r", "\x0b",
    "\u2028", "\x85", "\ufeff", "    ", "long enough words here", " # h", "   # h3", "\t# t",
]  # fmt: skip


def _parsed_blocks(text: str) -> list[tuple[str, str]]:
    """`markdown_blocks` as it reads a text through the parser, whatever the text."""
    found: list[tuple[str, str]] = []
    section = ""
    for block in parse_document(text).blocks:
        if block.kind == "heading":
            section = block.title
        elif block.kind == "entry":
            found.append((section, block.text.strip()))
        elif block.kind == "other":
            found.extend((section, paragraph) for paragraph in units._paragraphs(block.text))
    return [(s, b) for s, b in found if len(b) > 8]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=5))
def test_a_line_alone_gives_the_blocks_the_parser_gives(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert units.markdown_blocks(text) == _parsed_blocks(text)


def test_a_pointer_line_is_one_block_and_a_heading_none() -> None:
    line = "- **When you sync the ledger:** wrap it in a transaction. → [detail](ledger.md)"
    assert units._one_line(line)
    assert units.markdown_blocks(line) == [("", line)]
    assert not units._one_line("## Ledger and its rules")
    assert units.markdown_blocks("## Ledger and its rules") == []
    assert not units._one_line("first line\nsecond line")
    assert not units._one_line("two paragraphs\u2028\u2028in one string")
