"""The units of what is remembered, read one way for every caller: the blocks of a Markdown text.

A block is a top-level list item (its nested items with it) or a paragraph together with the fenced
code right after it ("Run the tests:" and its command are one rule), under its heading. The scan's
matcher, the dream's remembered entries (a CLAUDE.md and the files it imports), team sharing and
seeding and the second dream of `eval` all compare a learning with these blocks, so a fenced example
line is never read on its own by one and inside its block by another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memory_layout import Document

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def markdown_blocks(text: str) -> list[tuple[str, str]]:
    """(heading, block) of a Markdown text (a CLAUDE.md, a topic file, an index): each top-level
    list item, and each paragraph together with the fenced code right after it ("Run the tests:"
    and its command are one rule)."""
    if _one_line(text):  # a pointer line: one block, whatever markdown-it makes of it
        stripped = text.strip()
        return [("", stripped)] if len(stripped) > 8 else []
    from memory_layout import parse_document  # Markdown-it and YAML: loaded only when a text is read

    doc: Document = parse_document(text)
    blocks: list[tuple[str, str]] = []
    section = ""
    for block in doc.blocks:
        if block.kind == "heading":
            section = block.title
        elif block.kind == "entry":
            blocks.append((section, block.text.strip()))
        elif block.kind == "other":
            blocks.extend((section, paragraph) for paragraph in _paragraphs(block.text))
    return [(s, b) for s, b in blocks if len(b) > 8]


def _one_line(text: str) -> bool:
    """Is `text` one line that cannot be a heading? Then its one block is the whole line, an entry
    or a paragraph alike (no line break of any kind, so no blank line splits it; no byte-order mark,
    which the parser drops; nothing like `#` first): the matcher's units of a memory are mostly
    pointer lines, and parsing each alone would run markdown-it once per entry."""
    return (
        "\n" not in text
        and len(text.splitlines()) <= 1
        and not text.startswith("\ufeff")
        and not text.lstrip().startswith("#")
    )


def _paragraphs(text: str) -> list[str]:
    """Paragraphs split at blank lines, never inside a fence; a fence joins the paragraph right before
    it. Each is the exact text of its lines (blank lines inside it included), so it can be found again."""
    lines = text.splitlines()
    groups: list[list[int]] = []  # [first line, last line, open (1) or closed by a blank line (0)]
    fence: str | None = None
    for number, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence is not None:
            groups[-1][1] = number
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence, groups[-1][2] = None, 0  # what follows a fence starts anew
            continue
        if opened:
            fence = opened.group(1)
            if groups and groups[-1][1] >= number - 2 and not _FENCE.match(lines[groups[-1][0]]):
                groups[-1][1] = number  # the code belongs to the paragraph that introduced it
            else:
                groups.append([number, number, 1])
        elif not line.strip():
            if groups:
                groups[-1][2] = 0
        elif groups and groups[-1][2]:
            groups[-1][1] = number
        else:
            groups.append([number, number, 1])
    return ["\n".join(lines[first : last + 1]).strip() for first, last, _ in groups]


def text_entries(texts: Iterable[str]) -> list[tuple[str, str, str]]:
    """(text number, heading, block) of each block of each text, in the order written: what the
    matcher holds for a set of Markdown texts, as the dream holds a CLAUDE.md."""
    return [
        (str(n), heading, block) for n, text in enumerate(texts) for heading, block in markdown_blocks(text)
    ]


_FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n(?P<body>.*?)^ {0,3}\1[ \t]*$", re.MULTILINE | re.DOTALL)
FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a line that opens or closes a fence
# a line of prose: a capitalised word, no shell syntax, ending as a sentence ends ("Committed abc123.")
_PROSE = re.compile(r"^\s*[A-Z][a-z]+\b[^`$|&;<>=]*[.!?:]\s*$")


def ruled(statement: str) -> str:
    """The statement as a rule reads: the prose lines of fenced blocks (a message template, an example
    of output) taken out, since they quote text, they order nothing; the commands of a fence stay."""
    if "```" not in statement and "~~~" not in statement:
        return statement

    def commands(match: re.Match[str]) -> str:
        kept = [line for line in match["body"].splitlines() if line.strip() and not _PROSE.match(line)]
        return "\n".join(kept) + "\n" if kept else ""

    return _FENCED.sub(commands, statement)


def rule_lines(text: str) -> list[str]:
    """The lines of a Markdown text that can state a rule: every line but the prose lines of its
    fenced blocks (see `ruled`)."""
    kept: list[str] = []
    fence = ""
    for line in text.splitlines():
        opening = FENCE_LINE.match(line)
        if opening is not None and (not fence or opening[1].startswith(fence)):
            fence = "" if fence else opening[1]
        elif fence and _PROSE.match(line):
            continue
        kept.append(line)
    return kept


_TABLE_ROW = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _cells(row: str) -> list[str]:
    """The cells of a table row, a `|` inside a code span kept in its cell."""
    cells, current, code = [], "", False
    for char in row:
        if char == "`":
            code = not code
        if char == "|" and not code:
            cells.append(current.strip())
            current = ""
        else:
            current += char
    return [*cells, current.strip()]


def table_rows(block: str) -> list[tuple[str, str, list[str]]]:
    """(the row as written, the statement it makes, its cells) of each row of each Markdown table in
    the block: a row says of its first cell what each other cell says under its header ("backup,
    restore: Strategy raw `fs::copy`; Why: exact byte-for-byte preservation"). The header row and
    the rule under it state nothing alone."""
    lines = block.splitlines()
    found: list[tuple[str, str, list[str]]] = []
    header: list[str] | None = None
    for number, line in enumerate(lines):
        row = _TABLE_ROW.match(line)
        if row is None:
            header = None
        elif _TABLE_RULE.match(line):
            continue
        elif header is None:
            if number + 1 < len(lines) and _TABLE_RULE.match(lines[number + 1]):
                header = _cells(row["cells"])
        else:
            cells = _cells(row["cells"])
            said = [f"{h}: {c}" if h else c for h, c in zip(header[1:], cells[1:], strict=False) if c]
            if cells and cells[0]:
                statement = f"{cells[0]}: {'; '.join(said)}" if said else cells[0]
                found.append((line.strip(), statement, cells))
    return found
