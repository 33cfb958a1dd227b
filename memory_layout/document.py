"""Parse and render memory Markdown (MEMORY.md, cluster files, topic files) losslessly.

A document is a list of blocks, each holding the exact text of its lines. markdown-it-py finds the
structure (headings and top-level list items, never a `#` inside a code fence); rendering joins the
blocks back, so an unedited document gives back its bytes and an edit changes only its own lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from markdown_it import MarkdownIt

from .files import MAX_DOCUMENT_BYTES
from .frontmatter import Frontmatter, parse_frontmatter
from .pointers import LIST_MARKER, EntryKind, Link, Pointer, classify, strip_marker

BOM = "\ufeff"
BlockKind = Literal["frontmatter", "heading", "entry", "other"]
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class DocumentError(ValueError):
    """A file that cannot be treated as a memory document (binary, not UTF-8, too large)."""


@dataclass(eq=False)  # a block is itself, not its text: two equal lines are two blocks
class Block:
    kind: BlockKind
    text: str
    start: int = -1  # first line in the original document, -1 when added by an edit
    level: int = 0
    title: str = ""

    @property
    def line_count(self) -> int:
        text = self.text
        return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


@dataclass(frozen=True)
class Entry:
    """One top-level list item: a pointer or a note in the index."""

    block: Block
    section: str
    line: int  # 1-based line of the entry in the rendered document

    @property
    def text(self) -> str:
        """The entry's lines without the final line ending."""
        return self.block.text.rstrip("\r\n")

    @property
    def headline(self) -> str:
        """The first line without the list marker."""
        return strip_marker(split_lines(self.block.text)[0].rstrip("\r\n"))

    @property
    def content(self) -> str:
        """All lines of the entry without the list marker."""
        first, *rest = split_lines(self.text) or [""]
        return "".join([strip_marker(first), *rest])

    @property
    def pointer(self) -> Pointer:
        return classify(self.content)

    @property
    def kind(self) -> EntryKind:
        return self.pointer.kind

    @property
    def links(self) -> tuple[Link, ...]:
        return self.pointer.links


@dataclass(frozen=True)
class Section:
    name: str
    level: int
    heading: Block | None
    entries: list[Entry]
    line: int


@dataclass
class Document:
    blocks: list[Block]
    bom: bool = False
    newline: str = "\n"
    frontmatter: Frontmatter | None = None
    warnings: list[str] = field(default_factory=list)
    # Lookups kept up to date by the edits, so that N edits cost N lookups, not N walks: the entry
    # blocks by comparable text, and per section (first heading of that name) its heading and last entry.
    _by_text: dict[str, list[Block]] | None = field(default=None, repr=False, compare=False)
    _sections: dict[str, list[Block | None]] | None = field(default=None, repr=False, compare=False)
    # Each block's line and section, built by one walk at the third lookup after an edit (the first two
    # walk up to their block: edits between lookups would drop the map again) and dropped by every
    # edit; kept with the block list it describes, so a list replaced from outside is walked again.
    _places: dict[Block, tuple[int, str]] | None = field(default=None, repr=False, compare=False)
    _places_of: tuple[int, int] = field(default=(0, 0), repr=False, compare=False)
    _walks: int = field(default=0, repr=False, compare=False)

    def render(self) -> str:
        return (BOM if self.bom else "") + "".join(block.text for block in self.blocks)

    def copy(self) -> Document:
        """An independent copy: edits to it leave this document as it is."""
        blocks = [Block(b.kind, b.text, b.start, b.level, b.title) for b in self.blocks]
        return Document(blocks, self.bom, self.newline, self.frontmatter, list(self.warnings))

    # -- lookups -----------------------------------------------------------------------------

    def forget_lookups(self) -> None:
        """Drop the lookups (after the block list was replaced from outside)."""
        self._by_text = self._sections = None
        self._changed()

    def _changed(self) -> None:
        self._places, self._walks = None, 0

    def _text_index(self) -> dict[str, list[Block]]:
        if self._by_text is None:
            self._by_text = {}
            for block in self.blocks:
                if block.kind == "entry":
                    self._by_text.setdefault(_comparable(block.text), []).append(block)
        return self._by_text

    def _section_index(self) -> dict[str, list[Block | None]]:
        """normalized title → [heading, last entry] of the first section of that name ('' = before
        the first heading)."""
        if self._sections is None:
            found: dict[str, list[Block | None]] = {"": [None, None]}
            current: list[Block | None] | None = found[""]
            for block in self.blocks:
                if block.kind == "heading":
                    key = normalize_title(block.title)
                    current = None if key in found else found.setdefault(key, [block, None])
                elif block.kind == "entry" and current is not None:
                    current[1] = block
            self._sections = found
        return self._sections

    def _indexed(self, block: Block) -> None:
        if self._by_text is not None:
            self._by_text.setdefault(_comparable(block.text), []).append(block)

    def _unindexed(self, block: Block) -> None:
        if self._by_text is not None:
            same = self._by_text.get(_comparable(block.text), [])
            if block in same:
                same.remove(block)

    def _entry_at(self, block: Block) -> Entry:
        """The entry of a block, with its section and line."""
        fingerprint = (id(self.blocks), len(self.blocks))
        if self._places_of != fingerprint:
            self._changed()
            self._places_of = fingerprint
        if self._places is None and self._walks < 2:
            self._walks += 1
            for candidate, line, section in self._walk():
                if candidate is block:
                    return Entry(block, section, line)
            raise ValueError("block is not part of this document")
        if self._places is None:
            self._places = {b: (n, s) for b, n, s in self._walk()}
        place = self._places.get(block)
        if place is None:
            raise ValueError("block is not part of this document")
        return Entry(block, place[1], place[0])

    # -- reading ---------------------------------------------------------------------------

    def _walk(self) -> Iterator[tuple[Block, int, str]]:
        """Each block with its 1-based line in the rendered document and its section name."""
        line, section = 1, ""
        for block in self.blocks:
            if block.kind == "heading":
                section = block.title
            yield block, line, section
            line += block.line_count

    def entries(self) -> list[Entry]:
        return [Entry(b, s, n) for b, n, s in self._walk() if b.kind == "entry"]

    def sections(self) -> list[Section]:
        """Sections in order; entries before the first heading form a section named ''."""
        result: list[Section] = []
        current = Section("", 0, None, [], 1)
        for block, line, name in self._walk():
            if block.kind == "heading":
                if current.heading is not None or current.entries:
                    result.append(current)
                current = Section(name, block.level, block, [], line)
            elif block.kind == "entry":
                current.entries.append(Entry(block, name, line))
        if current.heading is not None or current.entries:
            result.append(current)
        return result

    def section(self, name: str) -> Section | None:
        wanted = normalize_title(name)
        return next((s for s in self.sections() if normalize_title(s.name) == wanted), None)

    def find_entry(self, text: str) -> Entry | None:
        """The entry whose text equals `text` (ignoring trailing whitespace and line endings); the
        first one in the document when several do."""
        same = self._text_index().get(_comparable(text))
        if not same:
            return None
        if len(same) == 1:
            return self._entry_at(same[0])
        first = min(same, key=self._index_of)
        return self._entry_at(first)

    def section_span(self, heading: str, occurrence: int = 1) -> tuple[int, int] | None:
        """Block indices [start, end) of a section: its heading block (the `occurrence`-th whose line
        is `heading`) up to the next heading of the same or a higher level. For heading "" the blocks
        before the first heading (frontmatter excluded)."""
        if not heading:
            start = 1 if self.blocks and self.blocks[0].kind == "frontmatter" else 0
            end = next((i for i, b in enumerate(self.blocks) if b.kind == "heading"), len(self.blocks))
            return (start, end) if end > start else None
        seen = 0
        for index, block in enumerate(self.blocks):
            if block.kind != "heading" or block.text.strip() != heading.strip():
                continue
            seen += 1
            if seen == occurrence:
                end = index + 1
                while end < len(self.blocks) and not (
                    self.blocks[end].kind == "heading" and self.blocks[end].level <= block.level
                ):
                    end += 1
                return index, end
        return None

    def replace_blocks(self, start: int, end: int, texts: list[str]) -> None:
        """Put new blocks (entries for list items, else prose) where blocks [start, end) were."""
        new = [
            Block("entry" if LIST_MARKER.match(t) else "other", self._lines(t) if t.strip() else t)
            for t in texts
        ]
        self.blocks[start:end] = new
        self.forget_lookups()

    # -- editing ---------------------------------------------------------------------------

    def replace_entry(self, entry: Entry, new_text: str) -> None:
        """Replace one entry's lines (keeping its list marker when the new text has none)."""
        if not LIST_MARKER.match(new_text):
            marker = LIST_MARKER.match(entry.block.text)
            prefix = f"{marker['indent']}{marker['marker']}{marker['space'] or ' '}" if marker else "- "
            new_text = prefix + new_text.lstrip()
        old = entry.block
        self._swap(old, Block(old.kind, self._lines(new_text), old.start, old.level, old.title))

    def remove_entry(self, entry: Entry) -> None:
        self._changed()
        index = self._index_of(entry.block)
        self._unindexed(entry.block)
        if self._sections is not None and any(entry.block is last for _, last in self._sections.values()):
            self._sections = None  # a section lost its last entry: find it again when needed
        del self.blocks[index]

    def remove_entry_and_empty_heading(self, entry: Entry) -> None:
        """Remove an entry; when it was the last thing under its heading (level 2 or deeper, no
        subsection), the heading goes too, so removals never leave a skeleton of empty headings."""
        index = self._index_of(entry.block)
        self.remove_entry(entry)
        if index < len(self.blocks) and index > 0 and self._blank(index) and self._ends_blank(index - 1):
            self._changed()
            del self.blocks[index]  # the blank line that separated the entry from what follows
        while index >= 0:
            index = self._drop_empty_heading_before(index)

    def _drop_empty_heading_before(self, index: int) -> int:
        """Drop the heading above `index` when nothing but blank lines is left under it; where it
        was, or -1 when it stays."""
        heading = next((i for i in range(index - 1, -1, -1) if self.blocks[i].kind == "heading"), None)
        if heading is None or self.blocks[heading].level < 2:
            return -1
        end = heading + 1
        while end < len(self.blocks) and self.blocks[end].kind != "heading":
            if self.blocks[end].text.strip():
                return -1
            end += 1
        if end < len(self.blocks) and self.blocks[end].level > self.blocks[heading].level:
            return -1  # a subsection follows: the heading still holds something
        del self.blocks[heading:end]
        self._sections = None
        self._changed()  # a heading went: find sections again when needed
        return heading

    def _blank(self, index: int) -> bool:
        return self.blocks[index].kind == "other" and not self.blocks[index].text.strip()

    def _ends_blank(self, index: int) -> bool:
        text = self.blocks[index].text
        return self._blank(index) or text.endswith(("\n\n", "\r\n\r\n"))

    def add_entry(self, section: str, text: str, *, level: int = 2) -> None:
        """Append an entry to `section` (created at the end when missing; '' = after the last entry)."""
        self._changed()
        block = Block("entry", self._lines(as_list_item(text)))
        sections = self._section_index()
        target = sections.get(normalize_title(section)) if section else None
        self._indexed(block)
        if target is None and section:
            self._ensure_trailing_newline(len(self.blocks))
            if self.blocks and any(b.text.strip() for b in self.blocks):
                self.blocks.append(Block("other", self.newline))
            hashes = "#" * max(1, level)
            heading = Block("heading", f"{hashes} {section}{self.newline}", level=level, title=section)
            self.blocks += [heading, block]
            sections[normalize_title(section)] = [heading, block]
            return
        if target is not None and target[1] is not None:
            anchor = self._index_of(target[1]) + 1
        elif target is not None and target[0] is not None:
            anchor = self._after_content(self._index_of(target[0]))
        else:
            anchor = self._end_of_entries()
            self._sections = None  # the entry joins whichever section that is
        if target is not None:
            target[1] = block
        self._ensure_trailing_newline(anchor)
        self.blocks.insert(anchor, block)
        following = self.blocks[anchor + 1] if anchor + 1 < len(self.blocks) else None
        # Prose (or a setext heading's text) right after a list item would continue it; a blank line
        # keeps it what it was. Entries and `#` headings cannot be swallowed.
        first = split_lines(following.text)[0].strip() if following is not None else ""
        if following is not None and following.kind != "entry" and first and not first.startswith("#"):
            self.blocks.insert(anchor + 1, Block("other", self.newline))
        elif (
            following is not None
            and following.kind == "heading"
            and anchor > 0
            and self._ends_blank(anchor - 1)
        ):
            # after the section's prose and the blank line that closed it: the blank stays before the heading
            self.blocks.insert(anchor + 1, Block("other", self.newline))

    def replace_section_entries(self, section: str, texts: list[str]) -> None:
        """Put `texts` where the section's entries were (used when a section moves to a cluster)."""
        target = self.section(section)
        if target is None:
            raise KeyError(section)
        self.forget_lookups()  # many blocks change: look them up afresh
        for entry in target.entries[1:]:
            self.remove_entry(entry)
        if target.entries:
            first = target.entries[0].block
            index = self._index_of(first)
            self.blocks[index : index + 1] = [Block("entry", self._lines(as_list_item(t))) for t in texts]
            self.forget_lookups()
        else:
            for text in texts:
                self.add_entry(section, text)

    def _lines(self, text: str) -> str:
        body = text.rstrip("\r\n")
        return self.newline.join(line.rstrip("\r") for line in body.split("\n")) + self.newline

    def _index_of(self, block: Block) -> int:
        try:
            return self.blocks.index(block)  # identity (blocks compare by identity): a C-speed scan
        except ValueError:
            raise ValueError("block is not part of this document") from None

    def _after_content(self, heading: int) -> int:
        """Where an entry goes in a section with none: right under the heading when the section is
        empty, else after its content (prose, code) — inserting above would make it part of the entry."""
        end = heading + 1
        while end < len(self.blocks) and self.blocks[end].kind != "heading":
            end += 1
        if not "".join(b.text for b in self.blocks[heading + 1 : end]).strip():
            return heading + 1
        if not self.blocks[end - 1].text.endswith(("\n\n", "\r\n\r\n")):
            self._ensure_trailing_newline(end)
            self.blocks.insert(end, Block("other", self.newline))
            end += 1
        return end

    def _end_of_entries(self) -> int:
        """Just after the last entry, or at the end when there is none (entries without a section)."""
        for index in range(len(self.blocks) - 1, -1, -1):
            if self.blocks[index].kind == "entry":
                return index + 1
        return len(self.blocks)

    def _ensure_trailing_newline(self, anchor: int) -> None:
        if anchor > 0 and not self.blocks[anchor - 1].text.endswith("\n"):
            old = self.blocks[anchor - 1]
            self._swap(old, Block(old.kind, old.text + self.newline, old.start, old.level, old.title))

    def _swap(self, old: Block, new: Block) -> None:
        """Put `new` where `old` is. Edits replace blocks, never change one, so that a copy of the
        block list (`list(doc.blocks)`) is a snapshot of the document."""
        self._changed()
        self.blocks[self._index_of(old)] = new
        if old.kind == "entry":
            self._unindexed(old)
            self._indexed(new)
        if self._sections is not None:
            for pair in self._sections.values():
                pair[:] = [new if b is old else b for b in pair]


def as_list_item(text: str) -> str:
    """`text` as a list item: a `- ` marker is added unless it already has one."""
    return text if LIST_MARKER.match(text) else f"- {text.lstrip()}"


def split_lines(text: str) -> list[str]:
    """Lines with their endings; only `\\n` ends a line (a lone `\\r` is ordinary text)."""
    return _LINE.findall(text)


def normalize_title(title: str) -> str:
    return " ".join(title.strip().strip("#").split()).casefold()


def _comparable(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").rstrip("\n").split("\n"))


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark").disable("inline")  # block structure is all we read


def _split_frontmatter(lines: list[str]) -> tuple[int, Frontmatter | None, str | None]:
    """How many lines the frontmatter takes, the parsed frontmatter, and a warning if broken."""
    if not lines or lines[0].rstrip("\r\n").rstrip() != "---":
        return 0, None, None
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n").rstrip() in ("---", "..."):
            raw = "".join(lines[: index + 1])
            inner = "".join(line.replace("\r\n", "\n") for line in lines[1:index])
            matter = parse_frontmatter(raw, inner)
            return index + 1, matter, matter.error
    return 0, None, "broken frontmatter: no closing '---'"


def parse_document(text: str) -> Document:
    """Parse Markdown text into blocks; never raises for any string."""
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    lines = split_lines(text)
    crlf = text.count("\r\n")
    newline = "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"
    skip, matter, warning = _split_frontmatter(lines)
    owners = _structure(lines[skip:], offset=skip)
    blocks: list[Block] = []
    if skip:
        blocks.append(Block("frontmatter", "".join(lines[:skip]), start=0))
    index = skip
    while index < len(lines):
        kind, end, level, title = owners.get(index, ("other", index + 1, 0, ""))
        if kind == "other":
            end = index + 1
            while end < len(lines) and end not in owners:
                end += 1
        blocks.append(Block(kind, "".join(lines[index:end]), start=index, level=level, title=title))
        index = end
    warnings = [warning] if warning else []
    if _has_unclosed_fence(lines[skip:]):
        warnings.append("unclosed code fence: the rest of the file is read as code")
    return Document(blocks, bom, newline, matter, warnings)


# A line that could open a heading (`#`, a setext underline of `=` or `-`) or a list item (`-`, `*` or `+`
# and a space, or a number): a document with none has no structure to find (most topic files).
_MAY_OPEN = re.compile(r"\s*(?:[#=\-\d]|[*+](?:\s|$))")


def _structure(lines: list[str], offset: int) -> dict[int, tuple[BlockKind, int, int, str]]:
    """Map the first line of each heading and top-level list item to (kind, end, level, title)."""
    if not any(_MAY_OPEN.match(line) for line in lines):
        return {}
    return {
        start + offset: (kind, end + offset, level, title)
        for start, (kind, end, level, title) in _owners("".join(lines))
    }


@lru_cache(maxsize=512)
def _owners(text: str) -> tuple[tuple[int, tuple[BlockKind, int, int, str]], ...]:
    """(first line, (kind, end, level, title)) of each heading and top-level list item of `text`,
    lines counted from 0: markdown-it runs once per distinct text, however many readers parse the
    same file (orient, the discoverer's blocks, the review's workspace)."""
    lines = split_lines(text)
    # markdown-it turns a lone \r into a line break; blank it so line numbers stay aligned.
    source = "".join(line.replace("\r\n", "\n").replace("\r", " ") for line in lines)
    tokens = _markdown().parse(source)
    owners: dict[int, tuple[BlockKind, int, int, str]] = {}
    for position, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = token.map[0], token.map[1]
        if token.type == "heading_open" and token.level == 0:
            title = tokens[position + 1].content if position + 1 < len(tokens) else ""
            owners[start] = ("heading", end, int(token.tag[1:]), title)
        elif token.type == "list_item_open" and token.level == 1:
            owners[start] = ("entry", _trim_trailing_blank(lines, start, end), 0, "")
    return tuple(owners.items())


def _trim_trailing_blank(lines: list[str], start: int, end: int) -> int:
    while end - 1 > start and not lines[end - 1].strip():
        end -= 1
    return end


def _has_unclosed_fence(lines: list[str]) -> bool:
    fence: str | None = None
    for line in lines:
        match = _FENCE_OPEN.match(line)
        if fence is None and match:
            fence = match.group(1)
        elif fence is not None and len(line.strip()) >= len(fence) and set(line.strip()) == {fence[0]}:
            fence = None
    return fence is not None


def decode_document(data: bytes, name: str = "file") -> str:
    """Bytes to text for parsing; binary, non-UTF-8 and oversized files raise DocumentError."""
    if len(data) > MAX_DOCUMENT_BYTES:
        size = len(data) / 1_000_000
        raise DocumentError(
            f"{name} is {size:.1f} MB, over the {MAX_DOCUMENT_BYTES // 2**20} MiB limit for a memory file"
        )
    if b"\x00" in data[:8192]:
        raise DocumentError(f"{name} looks binary (contains NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{name} is not valid UTF-8 (byte {exc.start})") from None
