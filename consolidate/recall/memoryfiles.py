"""Memory files cut into the pieces recall returns: one index entry, or one passage of a topic file.

A heading travels with the block under it; a topic file's `name`/`description` frontmatter leads its
first passage; small neighbouring paragraphs of a topic file are merged (up to `PASSAGE_CHARS`).
Standard library only, so the indexer runs wherever the hooks run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_FILE_BYTES = 4 * 1024 * 1024
PASSAGE_CHARS = 800
_LIST_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")
_FRONT_KEYS = re.compile(r"^(?:name|description)\s*:\s*(.+)$")
_LINK_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+\s*$")  # `[12]: notes.md#anchor`: navigation only


@dataclass(frozen=True)
class Piece:
    line: int  # 1-based line where the piece starts
    text: str


def memory_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(memory-relative path, path) of every Markdown file, hidden folders and symlinks skipped."""
    if not root.is_dir():
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            path = Path(dirpath, name)
            if name.lower().endswith(".md") and not path.is_symlink():
                yield path.relative_to(root).as_posix(), path


def read_text(path: Path) -> str | None:
    """The file's text, or None when it is too big, not UTF-8 or unreadable."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        return path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def pieces(relative: str, text: str) -> list[Piece]:
    """The searchable pieces of one memory file, in file order."""
    lines = text.splitlines()
    start, said = _frontmatter(lines)
    index_like = relative == "MEMORY.md" or relative.startswith("clusters/")
    blocks = _blocks(lines, start, split_items=index_like)
    found = blocks if index_like else _merged(blocks)
    if said:  # a topic file's description leads its first passage
        first = found[0] if found else Piece(start + 1, "")
        found[:1] = [Piece(first.line, (said + "\n\n" + first.text).strip())]
    return [p for p in found if p.text.strip()]


def _frontmatter(lines: list[str]) -> tuple[int, str]:
    """The index of the first body line, and what `name`/`description` say."""
    if not lines or lines[0].strip() != "---":
        return 0, ""
    for end in range(1, len(lines)):
        if lines[end].strip() in ("---", "..."):
            said = [m.group(1).strip().strip("\"'") for m in map(_FRONT_KEYS.match, lines[1:end]) if m]
            return end + 1, " — ".join(said)
    return 0, ""  # never closed: read it as body


def _blocks(lines: list[str], start: int, *, split_items: bool) -> list[Piece]:
    blocks: list[Piece] = []
    current: list[str] = []
    first = start  # the first line of text (not heading) of the current block
    fenced = False

    def close() -> None:
        if current:
            blocks.append(Piece(first + 1, "\n".join(current).strip()))
            current.clear()

    for number in range(start, len(lines)):
        line = lines[number]
        has_text = any(not _HEADING.match(c) for c in current)
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _LINK_DEFINITION.match(line):
            continue
        elif not fenced:
            if not line.strip():
                if has_text:
                    close()
                continue
            if has_text and (_HEADING.match(line) or split_items and _LIST_ITEM.match(line)):
                close()
                has_text = False
            elif _HEADING.match(line):
                current.clear()  # only the nearest heading travels with the text under it
        if not has_text:
            first = number
        current.append(line)
    close()
    return blocks


def _merged(blocks: list[Piece]) -> list[Piece]:
    """Neighbouring paragraphs joined up to PASSAGE_CHARS; a heading always starts a new passage."""
    merged: list[Piece] = []
    for block in blocks:
        last = merged[-1] if merged else None
        if (
            last is not None
            and not _HEADING.match(block.text)
            and len(last.text) + len(block.text) < PASSAGE_CHARS
        ):
            merged[-1] = Piece(last.line, last.text + "\n\n" + block.text)
        else:
            merged.append(block)
    return merged
