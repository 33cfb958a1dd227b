"""The units an audit looks at: every entry of MEMORY.md and the cluster files, the entries and
paragraphs of topic files, and (as references for redundancy) those of the two CLAUDE.md files."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Literal

from memory_layout import Document, MemoryTree, decode_document, parse_document
from memory_layout.document import MAX_DOCUMENT_BYTES, DocumentError, split_lines
from memory_layout.files import read_regular
from memory_layout.pointers import Link

from .claims import Claim, extract_claims

Source = Literal["index", "cluster", "topic", "project-claude", "user-claude"]
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ORDERED = re.compile(r"^\s*\d{1,3}[.)]\s")


@dataclass
class Unit:
    """One entry (a list item, quoted with its marker) or one paragraph of a topic or CLAUDE.md file."""

    file: str  # relative to the memory dir; absolute for CLAUDE.md files
    text: str  # exactly as in the file, without the final line ending
    content: str  # without the list marker
    line: int
    source: Source
    order: int  # position across the whole memory, for "newer" when nothing else tells
    is_entry: bool = True
    section: str = ""
    links: tuple[Link, ...] = ()
    date: datetime | None = None  # when the unit was last written (git blame, else file mtime)
    date_source: str = ""  # "git" | "mtime" | ""
    extras: dict[str, object] = field(default_factory=dict)
    lead: str = ""  # the heading and the line introducing the list it is in ("… cannot perform:")
    links_base: str | None = None  # for project files: the folder their relative links start from

    @property
    def is_memory(self) -> bool:
        return self.source in ("index", "cluster", "topic")

    @cached_property
    def claims(self) -> list[Claim]:
        return extract_claims(self.content, lead=self.lead, links_base=self.links_base)


def memory_units(tree: MemoryTree) -> list[Unit]:
    """Units of every readable memory file: index first, then clusters, then topic files."""
    units: list[Unit] = []
    ordered = (
        [p for p in [tree.index.path if tree.index else None] if p]
        + tree.cluster_files()
        + tree.topic_files()
    )
    for path in ordered:
        doc = tree.files[path].document
        if doc is None:
            continue
        source: Source = (
            "index" if tree.files[path].is_index else "cluster" if tree.files[path].is_cluster else "topic"
        )
        units.extend(document_units(doc, path, source, start=len(units)))
    return units


def document_units(doc: Document, file: str, source: Source, *, start: int = 0) -> list[Unit]:
    """Entries of a document, plus its prose paragraphs for topic and CLAUDE.md files."""
    units: list[Unit] = []
    leads, lists = _leads(doc), _lists(doc, file)
    for entry in doc.entries():
        units.append(
            Unit(
                file,
                entry.text,
                entry.content,
                entry.line,
                source,
                start + len(units),
                True,
                entry.section,
                entry.links,
                lead=leads.get(entry.line, entry.section),
                extras={"list": lists.get(entry.line, ""), "ordered": bool(_ORDERED.match(entry.text))},
            )
        )
    if source != "index" and source != "cluster":
        units.extend(_paragraphs(doc, file, source, start + len(units)))
    units.sort(key=lambda u: u.line)
    for offset, unit in enumerate(units):
        unit.order = start + offset
    return units


def _lists(doc: Document, file: str) -> dict[int, str]:
    """For each entry's line, which list it belongs to: entries with only blank lines between them."""
    lists: dict[int, str] = {}
    line, number, open_list = 1, 0, False
    for block in doc.blocks:
        if block.kind == "entry":
            if not open_list:
                number, open_list = number + 1, True
            lists[line] = f"{file}#{number}"
        elif block.text.strip():
            open_list = False
        line += block.line_count
    return lists


def _leads(doc: Document) -> dict[int, str]:
    """For each entry's line: its heading, and the prose line that introduces its list when that line
    ends with a colon ("Claude cannot perform these git operations:")."""
    leads: dict[int, str] = {}
    line, heading, intro = 1, "", ""
    for block in doc.blocks:
        if block.kind == "heading":
            heading, intro = block.title, ""
        elif block.kind == "entry":
            leads[line] = f"{heading}\n{intro}".strip()
        elif block.text.strip():
            last = block.text.strip().splitlines()[-1].strip()
            intro = last if last.endswith(":") else ""
        line += block.line_count
    return leads


def _paragraphs(doc: Document, file: str, source: Source, start: int) -> list[Unit]:
    """Blank-line separated paragraphs of the non-entry, non-heading text, code fences included whole."""
    units: list[Unit] = []
    line, heading = 1, ""
    for block in doc.blocks:
        if block.kind == "other":
            for first, text in _split_paragraphs(block.text):
                unit = Unit(file, text, text, line + first, source, start + len(units), False)
                unit.section, unit.lead = heading, heading
                units.append(unit)
        elif block.kind == "heading":
            heading = block.title
        line += block.line_count
    return units


def _split_paragraphs(text: str) -> list[tuple[int, str]]:
    result: list[tuple[int, str]] = []
    current: list[str] = []
    first, fence = 0, False
    for index, line in enumerate(split_lines(text)):
        if _FENCE.match(line):
            fence = not fence
        if not line.strip() and not fence:
            if current:
                result.append((first, "".join(current).rstrip("\r\n")))
            current = []
            continue
        if not current:
            first = index
        current.append(line)
    if current:
        result.append((first, "".join(current).rstrip("\r\n")))
    return [(n, t) for n, t in result if t.strip()]


def claude_md_units(path: Path, source: Source) -> tuple[list[Unit], str | None]:
    """Units of a CLAUDE.md file; a missing file gives none, an unreadable one a note."""
    try:
        data = read_regular(path, MAX_DOCUMENT_BYTES)
    except FileNotFoundError:
        return [], None
    except OSError as exc:
        return [], f"cannot read {path}: {exc.strerror or exc}"
    try:
        text = decode_document(data, str(path))
    except DocumentError as exc:
        return [], str(exc)
    return document_units(parse_document(text), str(path), source), None
