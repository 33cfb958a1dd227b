"""Incremental reading: what was already read of each transcript, so nothing is parsed twice.

Each file is remembered by its identity (device, inode, size, mtime and a hash of its first bytes) and
the byte offset up to which complete lines were read. An unchanged file is skipped; data appended to it
is read from the offset; a truncated or replaced file is read again from the start.
"""

from __future__ import annotations

import json
import os
from enum import StrEnum

from ..fsutil import atomic_write, sha1_hex
from ..plain import Frozen, Plain
from .lines import MAX_LINE_BYTES, LineStats, iter_json_lines

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any, BinaryIO

HEAD_BYTES = 4096
STATE_VERSION = 1


class Change(StrEnum):
    NEW = "new"
    UNCHANGED = "unchanged"
    APPENDED = "appended"
    REPLACED = "replaced"
    TRUNCATED = "truncated"
    MISSING = "missing"

    @property
    def from_start(self) -> bool:
        """Whether the file has to be read again from byte 0."""
        return self in (Change.NEW, Change.REPLACED, Change.TRUNCATED)


class FileIdentity(Frozen):
    __slots__ = FIELDS = ("device", "inode", "size", "mtime_ns", "head_len", "head_hash")
    device: int
    inode: int
    size: int
    mtime_ns: int
    head_len: int
    head_hash: str

    def __init__(
        self, device: int, inode: int, size: int, mtime_ns: int, head_len: int, head_hash: str
    ) -> None:
        self._set(
            device=device, inode=inode, size=size, mtime_ns=mtime_ns, head_len=head_len, head_hash=head_hash
        )

    @classmethod
    def of(cls, path: Path) -> FileIdentity | None:
        try:
            with open(path, "rb") as handle:
                return cls.from_handle(handle)
        except OSError:
            return None

    @classmethod
    def from_handle(cls, handle: BinaryIO) -> FileIdentity:
        """The identity of an open file (reads its first bytes; the position is left after them)."""
        stat = os.fstat(handle.fileno())
        handle.seek(0)
        head = handle.read(HEAD_BYTES)
        return cls(stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, len(head), _digest(head))

    def to_list(self) -> list[Any]:
        return [self.device, self.inode, self.size, self.mtime_ns, self.head_len, self.head_hash]


def _digest(data: bytes) -> str:
    return sha1_hex(data)


def _head_digest(path: Path, length: int) -> str | None:
    try:
        with open(path, "rb") as handle:
            return _digest(handle.read(length))
    except OSError:
        return None


class FileState(Plain):
    """How far a file was read, and whatever its reader derived from it (`data`)."""

    __slots__ = FIELDS = ("identity", "offset", "data")

    def __init__(self, identity: FileIdentity, offset: int, data: dict[str, Any] | None = None) -> None:
        self.identity = identity
        self.offset = offset
        self.data = {} if data is None else data


def classify_change(path: Path, previous: FileState | None) -> tuple[Change, FileIdentity | None]:
    """How the file differs from when it was last read, and its identity now."""
    try:
        stat = os.stat(path)
    except OSError:
        return Change.MISSING, None
    if previous is None:
        return Change.NEW, FileIdentity.of(path)
    old = previous.identity
    if (stat.st_dev, stat.st_ino) != (old.device, old.inode):
        return Change.REPLACED, FileIdentity.of(path)
    if stat.st_size < previous.offset:
        return Change.TRUNCATED, FileIdentity.of(path)
    if stat.st_size == old.size and stat.st_mtime_ns == old.mtime_ns:
        return Change.UNCHANGED, old
    if _head_digest(path, old.head_len) != old.head_hash or stat.st_size == old.size:
        return Change.REPLACED, FileIdentity.of(path)
    return Change.APPENDED, FileIdentity.of(path)


class ScanState(Plain):
    """Per-file read positions, saved as one JSON file (atomically)."""

    __slots__ = ("files", "data", "saved")
    FIELDS = ("files", "data")  # `saved` is neither compared nor shown

    def __init__(
        self,
        files: dict[str, FileState] | None = None,
        data: dict[str, Any] | None = None,
        saved: dict[int, FileState] | None = None,
    ) -> None:
        self.files = {} if files is None else files
        self.data = {} if data is None else data
        # the entries as loaded (kept alive, so an id is never reused): redacted when they were saved
        self.saved = {} if saved is None else saved

    @classmethod
    def load(cls, path: Path) -> ScanState:
        """The saved state, or an empty one when absent, unreadable or from another format version."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return cls()
        if not isinstance(raw, dict) or raw.get("version") != STATE_VERSION:
            return cls()
        files: dict[str, FileState] = {}
        for name, entry in (raw.get("files") or {}).items():
            try:
                files[name] = FileState(
                    FileIdentity(*entry["identity"]), int(entry["offset"]), entry.get("data") or {}
                )
            except (KeyError, TypeError, ValueError):
                continue
        data = raw.get("data")
        return cls(
            files, data if isinstance(data, dict) else {}, {id(entry): entry for entry in files.values()}
        )

    def save(self, path: Path) -> None:
        """Write the state atomically. What readers derived from transcripts (`data`) is redacted
        here, whoever put it there; a lone surrogate from a broken record is written escaped."""
        from ..secrets import redact_data

        files = {
            # an entry as loaded was redacted when it was saved; only what this run read is redacted now
            name: {
                "identity": s.identity.to_list(),
                "offset": s.offset,
                "data": s.data if self.saved.get(id(s)) is s else redact_data(s.data),
            }
            for name, s in self.files.items()
        }
        document = {"version": STATE_VERSION, "files": files, "data": redact_data(self.data)}
        atomic_write(path, encode_json(document))

    def forget_missing(self) -> list[str]:
        """Drop the entries of files that no longer exist; their names."""
        gone = [name for name in self.files if not os.path.exists(name)]
        for name in gone:
            del self.files[name]
        return gone


def encode_json(document: Any) -> bytes:
    """Compact UTF-8 JSON; text with lone surrogates (which UTF-8 cannot hold) is written as \\u escapes."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(document, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def state_key(path: Path) -> str:
    return os.path.abspath(path)


def iter_new_records(
    path: Path,
    state: ScanState,
    stats: LineStats | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
    skip_prefixes: tuple[bytes, ...] = (),
    skip_markers: tuple[bytes, ...] = (),
) -> Iterator[dict[str, Any]]:
    """The JSON records of `path` not yet read according to `state`, which advances as they are yielded.

    Only complete lines are read; a file that was truncated or replaced is read again from the start
    (and its `data` is reset). Lines a reader has no use for can be passed over unparsed, as in
    `iter_json_lines` (the offset still advances past them).
    """
    key = state_key(path)
    previous = state.files.get(key)
    change, identity = classify_change(path, previous)
    if identity is None or change is Change.UNCHANGED:
        return
    if change.from_start or previous is None:
        entry = FileState(identity, 0)
    else:
        entry = FileState(identity, previous.offset, previous.data)
    state.files[key] = entry
    stats = stats if stats is not None else LineStats()
    try:
        with open(path, "rb") as handle:
            handle.seek(entry.offset)
            for offset, record in iter_json_lines(handle, stats, max_line_bytes, skip_prefixes, skip_markers):
                entry.offset = offset
                yield record
            entry.offset = max(entry.offset, stats.offset)  # past trailing bad lines too
    except OSError:
        return
