"""An in-memory copy of the files a plan touches, so every change is computed before any is written."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from memory_layout import Document, DocumentError, decode_document, parse_document
from memory_layout.document import Block
from memory_layout.tree import link_candidates

from .errors import ConsolidateError
from .fsutil import is_regular, read_regular

NEW_INDEX = "# Project Memory\n"


class ChangeFailed(ConsolidateError):
    """One change of a proposal could not be made (the entry is gone, the file exists, ...)."""


def _read_regular(path: Path, name: str) -> bytes | None:
    """The bytes of a regular file, None when there is nothing there; anything else fails the change."""
    try:
        if not path.exists() and not path.is_symlink():
            return None
        if not path.is_file():
            raise ChangeFailed(f"{name} is not a regular file")
        return read_regular(path)
    except OSError as exc:
        raise ChangeFailed(f"cannot read {name}: {exc.strerror or exc}") from None


class DiskReads:
    """What the disk held, read once for many workspaces: the previews of a plan each start from the
    same files, and nothing is written while they are computed."""

    def __init__(self) -> None:
        self._read: dict[Path, bytes | None | ChangeFailed] = {}
        self.index_files: list[Path] | None = None  # MEMORY.md and the cluster files (see apply)

    def seed(self, path: Path, data: bytes) -> None:
        """What the disk holds at `path`, as read already (the snapshot's files)."""
        self._read[path] = data

    def read(self, path: Path, name: str) -> bytes | None:
        if path not in self._read:
            try:
                self._read[path] = _read_regular(path, name)
            except ChangeFailed as exc:
                self._read[path] = exc
        found = self._read[path]
        if isinstance(found, ChangeFailed):
            raise ChangeFailed(str(found))
        return found


@lru_cache(maxsize=128)
def _parsed(data: bytes, name: str) -> Document:
    """Parse each distinct content once: previews and apply look at the same files many times."""
    return parse_document(decode_document(data, name))


_UNRENDERED = b"\x00unrendered"  # a marker: the file's current state is its saved, unrendered document


@dataclass
class Checkpoint:
    current: dict[Path, bytes | None]
    docs: dict[Path, Document]
    blocks: dict[Path, list[Block]]


class Workspace:
    """Files by absolute path: bytes, or None once trashed. Reads the disk on first use only.

    A saved document is kept as it is and rendered only when its bytes are needed, and the next change
    to that file edits it again: N changes to one file cost N edits, not N parses and renders. Since an
    edit replaces blocks and never changes one, a copy of each document's block list is a checkpoint."""

    def __init__(self, memory_dir: Path, disk: DiskReads | None = None) -> None:
        self.memory_dir = memory_dir
        self.disk = disk
        # a path inside the memory dir starts with this (see `_inside`)
        self._prefix = str(memory_dir).rstrip("/") + "/" if memory_dir.is_absolute() else None
        self._original: dict[Path, bytes | None] = {}
        self._current: dict[Path, bytes | None] = {}
        self._docs: dict[Path, Document] = {}  # a document that is the file's current content

    def _load(self, path: Path) -> None:
        if path not in self._current:
            name = self.name(path)
            data = self.disk.read(path, name) if self.disk is not None else _read_regular(path, name)
            self._original[path] = data
            self._current[path] = data

    def read(self, path: Path) -> bytes | None:
        self._load(path)
        data = self._current[path]
        if data is _UNRENDERED:
            data = self._current[path] = self._docs[path].render().encode("utf-8")
        return data

    def exists(self, path: Path) -> bool:
        self._load(path)
        return self._current[path] is not None

    def write(self, path: Path, data: bytes) -> None:
        self._load(path)
        self._current[path] = data
        self._docs.pop(path, None)

    def trash(self, path: Path) -> None:
        if not self.exists(path):
            raise ChangeFailed(f"{self.name(path)} does not exist")
        self._current[path] = None
        self._docs.pop(path, None)

    def document(self, path: Path, *, create: bool) -> Document:
        """The file's document, to edit and then `save`. It may be the very object saved last (no
        copy, no re-parse): a change that fails after editing it is undone by `rollback`."""
        self._load(path)
        if path in self._docs:
            return self._docs[path]
        data = self.read(path)
        if data is None:
            if not create:
                raise ChangeFailed(f"{self.name(path)} does not exist")
            return parse_document(NEW_INDEX if path.name == "MEMORY.md" else "")
        if path.name == "MEMORY.md" and not data.strip():  # an empty stub gets the heading a new index has
            return parse_document(NEW_INDEX)
        try:
            return _parsed(data, self.name(path)).copy()
        except DocumentError as exc:
            raise ChangeFailed(str(exc)) from None

    def text(self, path: Path) -> str:
        """The file as text; binary, non-UTF-8 and oversized files fail the change, never get mangled."""
        data = self.read(path)
        if data is None:
            raise ChangeFailed(f"{self.name(path)} does not exist")
        try:
            return decode_document(data, self.name(path))
        except DocumentError as exc:
            raise ChangeFailed(str(exc)) from None

    def save(self, path: Path, document: Document) -> None:
        self._load(path)
        self._current[path] = _UNRENDERED
        self._docs[path] = document

    def contents(self) -> dict[Path, bytes | None]:
        """Every file read so far with its current bytes (saved documents rendered)."""
        return {path: self.read(path) for path in list(self._current)}

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(
            dict(self._current), dict(self._docs), {p: list(d.blocks) for p, d in self._docs.items()}
        )

    def rollback(self, checkpoint: Checkpoint) -> None:
        self._current = dict(checkpoint.current)
        self._docs = dict(checkpoint.docs)
        for path, document in self._docs.items():
            blocks = checkpoint.blocks[path]
            if document.blocks != blocks:  # blocks compare by identity: a fast check
                document.blocks = list(blocks)
                document.forget_lookups()
        for path in list(self._original):
            if path not in self._current:
                del self._original[path]

    def changes(self) -> dict[Path, bytes | None]:
        """Files whose final state differs from the disk: new bytes, or None to trash."""
        return {p: d for p in list(self._current) if (d := self.read(p)) != self._original.get(p)}

    def link_resolves(self, source: Path, target: str) -> bool:
        """Whether a link written in `source` leads to a file: memory files relative to themselves or
        the memory dir; any other file (a CLAUDE.md, the team folder) relative to its own folder, as
        this run leaves it."""
        if not self._inside(source):
            file = unquote(target.strip("<>").split("#", 1)[0])
            if not file:
                return False
            linked = source.parent / file
            return self._current[linked] is not None if linked in self._current else is_regular(linked)
        for candidate in link_candidates(self.name(source), target):
            if self.exists(self.memory_dir / candidate):
                return True
        return False

    def name(self, path: Path) -> str:
        if self._prefix is not None and path.is_absolute():
            text = str(path)
            if text.startswith(self._prefix):
                return text[len(self._prefix) :]
            return "." if path == self.memory_dir else text
        return path.relative_to(self.memory_dir).as_posix() if self._inside(path) else str(path)

    def _inside(self, path: Path) -> bool:
        if self._prefix is not None and path.is_absolute():  # a string test, not a walk up the parents
            return str(path).startswith(self._prefix) or path == self.memory_dir
        return path == self.memory_dir or self.memory_dir in path.parents
