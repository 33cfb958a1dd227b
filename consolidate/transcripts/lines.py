"""Stream the complete lines of a JSONL file from a byte offset, skipping (and counting) bad ones.

A line longer than the cap is streamed through in chunks and never held in memory whole. A last line
without its newline is not consumed: it may still be being written, and a later scan reads it again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

MAX_LINE_BYTES = 16 * 1024 * 1024  # a record longer than this is skipped, not parsed
_CHUNK = 1024 * 1024


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
    """(end offset, line) for each complete line from the handle's position; None for an oversized line."""
    offset = stats.offset = handle.tell()
    while True:
        line = handle.readline(max_line_bytes + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            offset = stats.offset = offset + len(line)
            stats.lines += 1
            stats.bytes_read += len(line)
            yield offset, line
            continue
        if len(line) <= max_line_bytes:
            stats.incomplete_tail += 1
            return
        skipped, complete = _skip_to_newline(handle)
        if not complete:
            stats.incomplete_tail += 1
            return
        offset = stats.offset = offset + len(line) + skipped
        stats.lines += 1
        stats.oversized += 1
        stats.bytes_read += len(line) + skipped
        yield offset, None


def _skip_to_newline(handle: BinaryIO) -> tuple[int, bool]:
    """Read through the rest of an oversized line; (bytes skipped, whether a newline ended it)."""
    skipped = 0
    while True:
        chunk = handle.readline(_CHUNK)
        if not chunk:
            return skipped, False
        skipped += len(chunk)
        if chunk.endswith(b"\n"):
            return skipped, True


def iter_json_lines(
    handle: BinaryIO, stats: LineStats, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(end offset, record) for each line that holds a JSON object; the others are counted and skipped."""
    for offset, line in iter_lines(handle, stats, max_line_bytes):
        if line is None:
            continue
        try:
            record = json.loads(line)
        except ValueError:  # JSONDecodeError and UnicodeDecodeError
            if line.strip():
                stats.bad_json += 1
            continue
        if isinstance(record, dict):
            stats.records += 1
            yield offset, record
        else:
            stats.bad_json += 1
