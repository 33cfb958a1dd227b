"""render(parse(text)) == text for every Markdown file of the corpus and for generated documents."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_layout import parse_document

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
CORPUS_FILES = sorted(CORPUS.rglob("*.md")) if CORPUS.is_dir() else []


NO_CORPUS = f"the shared corpus is not at {CORPUS} (a fresh clone)"


@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
def test_corpus_is_complete() -> None:
    assert len(CORPUS_FILES) >= 90, f"expected at least 90 Markdown files in {CORPUS}"


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, id=str(p.relative_to(CORPUS))) for p in CORPUS_FILES]
    or [pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=NO_CORPUS))],
)
def test_corpus_file_round_trips(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    assert parse_document(text).render() == text


LINE_PIECES = st.sampled_from(
    [
        "# Project Memory",
        "## Feedback",
        "### odd heading ###",
        "Setext heading",
        "===",
        "- **When running tests:** use `make test`. → [detail](testing.md)",
        "- [Bare](bare.md)",
        "* star item",
        "1. numbered",
        "   continuation line",
        "  - nested item",
        "```python",
        "```",
        "~~~",
        "# not a heading inside a fence?",
        "---",
        "name: x",
        "> quote",
        "| a | b |",
        "",
        "   ",
        "trailing spaces   ",
        "\ttab",
        "plain paragraph text with [link](x.md)",
        "<!-- comment -->",
        "\u00e9\u4e2d\u0436 unicode",
    ]
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = draw(st.lists(LINE_PIECES | st.text(max_size=30), max_size=40))
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(lines), max_size=len(lines)))
    text = "".join(
        line.replace("\n", "").replace("\r", "") + end for line, end in zip(lines, endings, strict=True)
    )
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


@settings(max_examples=300, deadline=None)
@given(documents())
def test_generated_documents_round_trip(text: str) -> None:
    assert parse_document(text).render() == text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_round_trips(text: str) -> None:
    assert parse_document(text).render() == text
