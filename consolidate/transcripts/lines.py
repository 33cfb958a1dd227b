"""Stream the complete lines of a JSONL file from a byte offset, skipping (and counting) bad ones.

A line longer than the cap is streamed through in chunks and never held in memory whole. A last line
without its newline is not consumed: it may still be being written, and a later scan reads it again.
"""

from __future__ import annotations

import json

from ..plain import Plain

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, BinaryIO

    Decode = Callable[[bytes], Any]

MAX_LINE_BYTES = 16 * 1024 * 1024  # a record longer than this is skipped, not parsed
_CHUNK = 256 * 1024
_ENVELOPE = 1024  # the top-level keys of a record come first; message bodies follow


class LineStats(Plain):
    """What a read saw: records parsed and lines skipped, by reason."""

    __slots__ = FIELDS = (
        "lines",
        "records",
        "bad_json",
        "oversized",
        "incomplete_tail",
        "bytes_read",
        "offset",
    )

    def __init__(
        self,
        lines: int = 0,
        records: int = 0,
        bad_json: int = 0,
        oversized: int = 0,
        incomplete_tail: int = 0,
        bytes_read: int = 0,
        offset: int = 0,  # where the last complete line read ended (not summed by `add`)
    ) -> None:
        self.lines = lines
        self.records = records
        self.bad_json = bad_json
        self.oversized = oversized
        self.incomplete_tail = incomplete_tail
        self.bytes_read = bytes_read
        self.offset = offset

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

    def blocks(self) -> Iterator[tuple[list[bytes | None], int, int]]:
        """For each chunk read: its complete lines, the length of the first one with its newline (it may
        have begun in an earlier chunk: None instead of it when it is over the cap), and the bytes they
        take in all. A line after the first is shorter than a chunk but may still be over a small cap."""
        pending = b""  # the start of a line continued in the next chunk
        skipped = -1  # bytes of an oversized line skipped so far; -1 when not inside one
        cap = self.cap
        while True:
            chunk = self.handle.read(_CHUNK)
            if not chunk:
                if pending or skipped >= 0:
                    self.stats.incomplete_tail += 1
                return
            parts: list[bytes | None] = split_lines(chunk)  # type: ignore[assignment]
            tail = parts.pop()
            assert tail is not None
            if parts:
                carried = skipped if skipped >= 0 else len(pending)
                first = parts[0]
                assert first is not None
                first_length = carried + len(first) + 1
                if skipped >= 0 or first_length > cap + 1:
                    parts[0] = None
                elif pending:
                    parts[0] = pending + first
                yield parts, first_length, carried + len(chunk) - len(tail)
                pending, skipped = b"", -1
            if skipped >= 0:
                skipped += len(tail)
            else:
                pending += tail
                if len(pending) > cap:
                    skipped, pending = len(pending), b""

    def lines(self) -> Iterator[tuple[int, bytes | None]]:
        stats, cap = self.stats, self.cap
        for parts, first_length, _ in self.blocks():
            for index, line in enumerate(parts):
                if index == 0:
                    self.offset += first_length
                else:
                    assert line is not None
                    self.offset += len(line) + 1
                    if len(line) > cap:
                        line = None
                stats.offset = self.offset
                self.count += 1
                if line is None:
                    stats.oversized += 1
                yield self.offset, line


def split_lines(chunk: bytes) -> list[bytes]:
    """`chunk.split(b"\\n")`, found line by line with `find` (memchr): `bytes.split` looks at every byte
    in turn, twice as slow over a transcript's long lines."""
    parts: list[bytes] = []
    find, append, start = chunk.find, parts.append, 0
    while True:
        end = find(b"\n", start)
        if end < 0:
            append(chunk[start:])
            return parts
        append(chunk[start:end])
        start = end + 1


_decode = json.JSONDecoder().raw_decode


def iter_json_lines(
    handle: BinaryIO,
    stats: LineStats,
    max_line_bytes: int = MAX_LINE_BYTES,
    skip_prefixes: tuple[bytes, ...] = (),
    skip_markers: tuple[bytes, ...] = (),
    decode: Decode | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(end offset, record) for each line that holds a JSON object; the others are counted and skipped.

    Lines the caller has no use for are not parsed: those starting with one of `skip_prefixes`, and
    those with one of `skip_markers` in their first few hundred bytes (where the envelope keys are).
    `decode` is tried first when given (a faster or narrower parser); a line it refuses with ValueError
    or RecursionError goes through the standard parser.
    """
    unwanted = _unwanted(skip_prefixes, skip_markers)
    for offset, line in iter_lines(handle, stats, max_line_bytes):
        if line is None or unwanted is not None and unwanted(line):
            continue
        record = _parse(line, stats, decode)
        if record is not None:
            yield offset, record


def iter_json_blocks(
    handle: BinaryIO,
    stats: LineStats,
    max_line_bytes: int = MAX_LINE_BYTES,
    skip_prefixes: tuple[bytes, ...] = (),
    skip_markers: tuple[bytes, ...] = (),
    decode: Decode | None = None,
    decode_lines: Callable[[bytes], list[dict[str, Any]]] | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """The records `iter_json_lines` gives, a chunk's worth at a time, for a reader that needs only where
    the last one ended (`stats.offset`). The kept lines of a chunk are decoded in one `decode_lines`
    call when given (it must return one value per JSON value, as `decode` does: a typed decoder gives
    only objects); a chunk it refuses, or whose lines it does not decode one to one, is parsed line by
    line."""
    reader = _ChunkedLines(handle, stats, max_line_bytes)
    wanted = _wanted(skip_prefixes, skip_markers)
    try:
        for parts, _, consumed in reader.blocks():
            reader.offset += consumed
            stats.offset = reader.offset
            reader.count += len(parts)
            lines = [line for line in parts if line is not None and len(line) <= max_line_bytes]
            stats.oversized += len(parts) - len(lines)
            yield _parse_block(wanted(lines), stats, decode, decode_lines)
    finally:
        stats.lines += reader.count
        stats.bytes_read += reader.offset - reader.start


def _parse_block(
    lines: list[bytes],
    stats: LineStats,
    decode: Decode | None,
    decode_lines: Callable[[bytes], list[dict[str, Any]]] | None,
) -> list[dict[str, Any]]:
    if lines and decode_lines is not None:
        try:
            records = decode_lines(b"\n".join(lines))
        except (ValueError, RecursionError):
            records = []
        if len(records) == len(lines):  # one value per line: else some line holds two, read them singly
            stats.records += len(records)
            return records
    parsed = (_parse(line, stats, decode) for line in lines)
    return [record for record in parsed if record is not None]


def _parse(line: bytes, stats: LineStats, decode: Decode | None) -> dict[str, Any] | None:
    """The line's JSON object (counted), or None (counted as bad unless the line is blank)."""
    record = None
    if decode is not None:
        try:
            record = decode(line)
        except (ValueError, RecursionError):
            record = None
        else:  # a typed decoder gives only what it was made for (an object's fields)
            stats.records += 1
            return record
    if record is None:
        try:
            record = _decode(line.decode("utf-8"))[0]
        except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError, nesting too deep
            record = _lenient(line)
            if record is None:
                if line.strip():
                    stats.bad_json += 1
                return None
    if isinstance(record, dict):
        stats.records += 1
        return record
    stats.bad_json += 1
    return None


def _unwanted(prefixes: tuple[bytes, ...], markers: tuple[bytes, ...]) -> Callable[[bytes], bool] | None:
    """The test of a line the caller has no use for (None when every line is wanted): it starts with
    one of `prefixes` (their common prefix tried first, one cheap test before the many) or has one of
    `markers` in its envelope."""
    if not prefixes and not markers:
        return None
    common = _common_prefix(prefixes)

    def unwanted(line: bytes) -> bool:
        if prefixes and line.startswith(common) and line.startswith(prefixes):
            return True
        return bool(markers) and _marked(line, markers)

    return unwanted


def _wanted(prefixes: tuple[bytes, ...], markers: tuple[bytes, ...]) -> Callable[[list[bytes]], list[bytes]]:
    """The lines of a chunk that are neither blank nor unwanted (as `_unwanted` tells), tested in one
    comprehension: no call per line. A line without the markers' common ending in its envelope holds
    none of them, so most lines cost one search however many markers there are."""
    common, ending, envelope = _common_prefix(prefixes), _common_suffix(markers), _ENVELOPE

    def marked(line: bytes) -> bool:
        return _marked(line, markers)

    if not prefixes and not markers:
        return lambda lines: [line for line in lines if line and not line.isspace()]
    if not markers:
        return lambda lines: [
            line
            for line in lines
            if line and not (line.startswith(common) and line.startswith(prefixes)) and not line.isspace()
        ]
    return lambda lines: [
        line
        for line in lines
        if line
        and not (prefixes and line.startswith(common) and line.startswith(prefixes))
        and (line.find(ending, 0, envelope) < 0 or not marked(line))
        and not line.isspace()
    ]


def _marked(line: bytes, markers: tuple[bytes, ...]) -> bool:
    """Whether one of the markers occurs in the line's envelope (a substring search, no regex)."""
    find = line.find
    for marker in markers:  # noqa: SIM110 - a plain loop is faster than any() over a generator here
        if find(marker, 0, _ENVELOPE) >= 0:
            return True
    return False


def _common_suffix(markers: tuple[bytes, ...]) -> bytes:
    """The longest ending every marker shares (each contains it, so a line without it has none)."""
    reversed_prefix = _common_prefix(tuple(marker[::-1] for marker in markers))
    return reversed_prefix[::-1]


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
