"""Stream the complete lines of a JSONL file from a byte offset, skipping (and counting) bad ones.

A line longer than the cap is streamed through in chunks and never held in memory whole. A last line
without its newline is not consumed: it may still be being written, and a later scan reads it again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

MAX_LINE_BYTES = 16 * 1024 * 1024  # a record longer than this is skipped, not parsed
_CHUNK = 256 * 1024
_ENVELOPE = 1024  # the top-level keys of a record come first; message bodies follow


@dataclass
class LineStats:
    """What a read saw: records parsed and lines skipped, by reason."""

    lines: int = 0
    records: int = 0
    bad_json: int = 0
    oversized: int = 0
    incomplete_tail: int = 0
    bytes_read: int = 0
    offset: int = 0  # where the last complete line read ended (not summed by `add`)

    @property
    def skipped(self) -> int:
        return self.bad_json + self.oversized + self.incomplete_tail

    def add(self, other: LineStats) -> None:
        for name in ("lines", "records", "bad_json", "oversized", "incomplete_tail", "bytes_read"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, int]:
        return {
            "lines": self.lines,
            "records": self.records,
            "bad_json": self.bad_json,
            "oversized": self.oversized,
            "incomplete_tail": self.incomplete_tail,
            "bytes_read": self.bytes_read,
        }


def iter_lines(
    handle: BinaryIO, stats: LineStats, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | None]]:
    """(end offset, line without its newline) for each complete line from the handle's position;
    None instead of the line when it is longer than `max_line_bytes`. Reads in chunks, so an
    oversized line is skipped without ever being held whole."""
    reader = _ChunkedLines(handle, stats, max_line_bytes)
    try:
        yield from reader.lines()
    finally:
        stats.lines += reader.count
        stats.bytes_read += reader.offset - reader.start


class _ChunkedLines:
    def __init__(self, handle: BinaryIO, stats: LineStats, max_line_bytes: int) -> None:
        self.handle, self.stats, self.cap = handle, stats, max_line_bytes
        self.offset = self.start = stats.offset = handle.tell()
        self.count = 0

    def lines(self) -> Iterator[tuple[int, bytes | None]]:
        pending = b""  # the start of a line continued in the next chunk
        skipped = -1  # bytes of an oversized line skipped so far; -1 when not inside one
        stats, cap = self.stats, self.cap
        while True:
            chunk = self.handle.read(_CHUNK)
            if not chunk:
                if pending or skipped >= 0:
                    stats.incomplete_tail += 1
                return
            parts = chunk.split(b"\n")
            tail = parts.pop()
            for part in parts:
                if skipped >= 0:
                    length, line, skipped = skipped + len(part) + 1, None, -1
                else:
                    line = pending + part if pending else part
                    pending = b""
                    length = len(line) + 1
                    if length > cap + 1:
                        line = None
                self.offset += length
                stats.offset = self.offset
                self.count += 1
                if line is None:
                    stats.oversized += 1
                yield self.offset, line
            if skipped >= 0:
                skipped += len(tail)
            else:
                pending += tail
                if len(pending) > cap:
                    skipped, pending = len(pending), b""


_decode = json.JSONDecoder().raw_decode


def iter_json_lines(
    handle: BinaryIO,
    stats: LineStats,
    max_line_bytes: int = MAX_LINE_BYTES,
    skip_prefixes: tuple[bytes, ...] = (),
    skip_markers: tuple[bytes, ...] = (),
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(end offset, record) for each line that holds a JSON object; the others are counted and skipped.

    Lines the caller has no use for are not parsed: those starting with one of `skip_prefixes`, and
    those with one of `skip_markers` in their first few hundred bytes (where the envelope keys are).
    """
    marked = re.compile(b"|".join(re.escape(m) for m in skip_markers)).search if skip_markers else None
    common = _common_prefix(skip_prefixes)  # one cheap test before the many
    for offset, line in iter_lines(handle, stats, max_line_bytes):
        if line is None or skip_prefixes and line.startswith(common) and line.startswith(skip_prefixes):
            continue
        if marked is not None and marked(line, 0, _ENVELOPE):
            continue
        try:
            record = _decode(line.decode("utf-8"))[0]
        except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError, nesting too deep
            record = _lenient(line)
            if record is None:
                if line.strip():
                    stats.bad_json += 1
                continue
        if isinstance(record, dict):
            stats.records += 1
            yield offset, record
        else:
            stats.bad_json += 1


def _common_prefix(prefixes: tuple[bytes, ...]) -> bytes:
    if not prefixes:
        return b""
    shortest = min(prefixes, key=len)
    for length in range(len(shortest), 0, -1):
        if all(p.startswith(shortest[:length]) for p in prefixes):
            return shortest[:length]
    return b""


def _lenient(line: bytes) -> Any:
    """The standard parser's answer for a line the fast path refused (leading whitespace, a BOM)."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None
