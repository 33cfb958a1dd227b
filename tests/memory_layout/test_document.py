from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from memory_layout import EntryKind, parse_document
from memory_layout.document import split_lines

INDEX = """\ufeff# Project Memory\r
\r
## Feedback\r
- **When running tests:** use `make test`, not pytest directly. → [detail](testing.md)\r
- [Bare label](bare.md)\r
- plain inline note   \r
\r
```\r
## not a section\r
- not an entry\r
```\r
\r
## Project\r
- Deploys go through CI only. → [detail](deploy.md)\r
- Claude-native [Title](native.md) — hook text\r
"""


def test_sections_and_entries_ignore_code_fences() -> None:
    doc = parse_document(INDEX)
    assert [s.name for s in doc.sections()] == ["Project Memory", "Feedback", "Project"]
    feedback = doc.section("feedback")
    assert feedback is not None
    assert [e.kind for e in feedback.entries] == [EntryKind.TRIGGER, EntryKind.BARE, EntryKind.NOTE]
    assert len(doc.section("Project").entries) == 2  # type: ignore[union-attr]


def test_entry_kinds_and_links() -> None:
    doc = parse_document(INDEX)
    kinds = {e.headline[:20]: e.kind for e in doc.entries()}
    assert kinds["Deploys go through C"] is EntryKind.ALWAYS_ON
    assert kinds["Claude-native [Title"] is EntryKind.ALWAYS_ON
    trigger = doc.entries()[0].pointer
    assert trigger.trigger == "When running tests"
    assert [link.file for link in trigger.links] == ["testing.md"]


def test_editing_one_entry_changes_only_its_lines() -> None:
    doc = parse_document(INDEX)
    entry = doc.find_entry("- plain inline note")
    assert entry is not None
    doc.replace_entry(entry, "- **When editing notes:** keep them short.")
    before, after = split_lines(INDEX.lstrip("\ufeff")), split_lines(doc.render().lstrip("\ufeff"))
    assert len(before) == len(after)
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed == [5]
    assert after[5] == "- **When editing notes:** keep them short.\r\n"
    assert doc.render().startswith("\ufeff")


def test_remove_and_add_keep_other_bytes() -> None:
    doc = parse_document(INDEX)
    doc.remove_entry(doc.find_entry("- [Bare label](bare.md)"))  # type: ignore[arg-type]
    doc.add_entry("Project", "New fact. → [detail](new.md)")
    doc.add_entry("Gotchas", "**When X:** do Y.")
    text = doc.render()
    assert "- [Bare label](bare.md)" not in text
    assert "- Claude-native [Title](native.md) — hook text\r\n- New fact. → [detail](new.md)\r\n" in text
    assert text.endswith("\r\n## Gotchas\r\n- **When X:** do Y.\r\n")
    assert INDEX.replace("- [Bare label](bare.md)\r\n", "") in text


def test_add_to_empty_section_and_file_without_final_newline() -> None:
    doc = parse_document("# Project Memory\n\n## Empty\n\n## Next\n- a")
    doc.add_entry("Empty", "first")
    doc.add_entry("Next", "b")
    assert doc.render() == "# Project Memory\n\n## Empty\n- first\n\n## Next\n- a\n- b\n"


def test_multiline_entry_is_one_entry() -> None:
    doc = parse_document("## S\n- first line\n  continued\n  - nested\n- second\n")
    entries = doc.entries()
    assert [e.text for e in entries] == ["- first line\n  continued\n  - nested", "- second"]


def test_frontmatter_both_styles_and_unknown_keys() -> None:
    flat = parse_document(
        "---\nname: testing\ndescription: how to test\ntype: feedback\ncustom: 1\n---\nbody\n"
    )
    nested = parse_document("---\nname: x\nmetadata:\n  type: project\n  originSessionId: abc\n---\n# T\n")
    assert flat.frontmatter is not None and flat.frontmatter.type == "feedback"
    assert flat.frontmatter.data["custom"] == 1
    assert nested.frontmatter is not None and nested.frontmatter.type == "project"
    assert nested.frontmatter.data["metadata"]["originSessionId"] == "abc"
    assert nested.sections()[0].name == "T"


def test_broken_frontmatter_is_reported_and_preserved() -> None:
    text = "---\nname: [unclosed\n---\n- entry\n"
    doc = parse_document(text)
    assert doc.render() == text
    assert doc.warnings and doc.warnings[0].startswith("broken frontmatter")
    unclosed = parse_document("---\nname: x\n- entry\n")
    assert unclosed.warnings == ["broken frontmatter: no closing '---'"]


def test_unclosed_code_fence_is_reported() -> None:
    text = "## S\n- a\n```\n- not an entry\n"
    doc = parse_document(text)
    assert doc.render() == text
    assert [e.text for e in doc.entries()] == ["- a"]
    assert any("unclosed code fence" in w for w in doc.warnings)


def test_trailing_spaces_and_lone_cr_survive() -> None:
    text = "## S  \n- a\r- still a  \n\n"
    assert parse_document(text).render() == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "## F\nRules that hold everywhere; keep this.\n",
            "## F\nRules that hold everywhere; keep this.\n\n- new rule\n",
        ),
        ("## F\n\n    make test\n", "## F\n\n    make test\n\n- new rule\n"),
        ("## F\n  Indented paragraph.\n", "## F\n  Indented paragraph.\n\n- new rule\n"),
        ("## F\nSub\n---\n", "## F\n- new rule\n\nSub\n---\n"),
    ],
)
def test_adding_to_a_section_never_swallows_what_follows(text: str, expected: str) -> None:
    doc = parse_document(text)
    doc.add_entry("F", "new rule")
    assert doc.render() == expected
    assert [e.text for e in parse_document(expected).entries()] == ["- new rule"]


def test_replacing_an_entry_without_a_marker_keeps_the_marker() -> None:
    doc = parse_document("## S\n- alpha rule\n  * beta rule\n- gamma rule\n")
    doc.replace_entry(doc.entries()[1], "gamma, reworded")
    assert doc.render() == "## S\n- alpha rule\n  * beta rule\n- gamma, reworded\n"
    assert [e.text for e in parse_document(doc.render()).entries()][-1] == "- gamma, reworded"


def test_replacing_an_empty_item_keeps_it_a_list_item() -> None:
    doc = parse_document("## S\n-\n- b\n")
    doc.replace_entry(doc.entries()[0], "replaced")
    assert [e.text for e in parse_document(doc.render()).entries()] == ["- replaced", "- b"]


_FRAGMENTS = [
    "# T", "## S", "text", "Title", "===", "---", "- a", "* b", "+ c", "1. d", "2) e", "**Why:** x", "*em*",
    "+1 vote", "-x", "   - indented", "    - code", "\t- tab", "> - quoted", "> # quoted", "```", "- [x](a.md)",
    "", " ", "\u00a0# nbsp", "***", "<div>", "#hashtag", "12 monkeys", "a\r", "\r",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=10))
def test_the_quick_check_finds_the_structure_markdown_finds(lines: list[str]) -> None:
    from memory_layout import document

    text = "\n".join(lines) + "\n"
    quick = document._structure(document.split_lines(text), 0)
    always = document._MAY_OPEN
    try:
        document._MAY_OPEN = re.compile("")  # every document goes through markdown-it
        assert document._structure(document.split_lines(text), 0) == quick
    finally:
        document._MAY_OPEN = always


def test_find_entry_places_match_a_walk_after_every_kind_of_edit() -> None:
    doc = parse_document("# T\n\n## A\n- one\n- two\n\n## B\n- three\n- one\n")

    def walked(text: str) -> tuple[str, int]:
        entry = next(e for e in doc.entries() if e.text.rstrip("\n") == text)
        return entry.section, entry.line

    def found(text: str) -> tuple[str, int]:
        entry = doc.find_entry(text)
        assert entry is not None
        return entry.section, entry.line

    assert found("- one") == walked("- one") == ("A", 4)  # the first of two equal entries
    assert found("- three") == ("B", 8)
    doc.add_entry("A", "zero")  # lines below move down
    assert found("- three") == walked("- three") == ("B", 9)
    doc.replace_entry(doc.find_entry("- two"), "two\nand a second line")  # type: ignore[arg-type]
    assert found("- three") == walked("- three") == ("B", 10)
    doc.remove_entry_and_empty_heading(doc.find_entry("- one"))  # type: ignore[arg-type]
    assert found("- one") == walked("- one") == ("B", 10)
    before = list(doc.blocks)
    doc.add_entry("C", "four")
    assert found("- four") == walked("- four")
    doc.blocks = before  # the block list replaced from outside, as a rollback does
    doc.forget_lookups()
    assert doc.find_entry("- four") is None
    assert found("- three") == walked("- three") == ("B", 9)
    for _ in range(3):  # the first lookups walk, the later ones read the map one walk built
        for entry in doc.entries():
            assert doc.find_entry(entry.text) == next(e for e in doc.entries() if e.text == entry.text)
    assert doc._places is not None


def test_an_entry_after_a_sections_prose_keeps_the_blank_line_before_the_next_heading() -> None:
    doc = parse_document("# T\n\n## Build\n\nAlways build with make.\n\n## Next\n\n- b\n")
    doc.add_entry("Build", "**When formatting:** run `make fmt`.")
    assert doc.render() == (
        "# T\n\n## Build\n\nAlways build with make.\n\n- **When formatting:** run `make fmt`.\n\n## Next\n\n- b\n"
    )


def test_an_entry_after_the_last_item_of_a_list_joins_it() -> None:
    doc = parse_document("# T\n\n## A\n- a\n\n## B\n- b\n")
    doc.add_entry("A", "c")
    assert doc.render() == "# T\n\n## A\n- a\n- c\n\n## B\n- b\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=8), st.booleans())
def test_a_text_parsed_again_gives_the_same_blocks_after_any_frontmatter(lines: list[str], matter: bool) -> None:
    """The structure markdown-it finds is kept by the text: the same text under a frontmatter (its
    lines counted after it) and alone give the same blocks, at their own lines."""
    body = "\n".join(lines) + "\n"
    head = "---\nname: x\n---\n" if matter else ""
    first, again = parse_document(head + body), parse_document(head + body)
    alone = parse_document(body)
    assume(not any(b.kind == "frontmatter" for b in alone.blocks))  # a body that is a frontmatter itself
    assert [(b.kind, b.text, b.start) for b in first.blocks] == [(b.kind, b.text, b.start) for b in again.blocks]
    skip = 3 if matter else 0
    assert [(b.kind, b.text, b.start + skip) for b in alone.blocks] == [
        (b.kind, b.text, b.start) for b in first.blocks if b.kind != "frontmatter"
    ]
    assert first.render() == head + body
