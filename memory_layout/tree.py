"""The files of one memory dir, read once: the index, cluster files and topic files."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from .document import Document, DocumentError, decode_document, parse_document
from .files import exists, read_regular

INDEX = "MEMORY.md"
CLUSTER_DIR = "clusters"


@dataclass
class MemoryFile:
    """One Markdown file of the memory dir; `document` is None when it could not be parsed."""

    path: str  # relative to the memory dir, with forward slashes
    data: bytes
    document: Document | None = None
    error: str | None = None

    @property
    def digest(self) -> str:
        return "sha256:" + hashlib.sha256(self.data).hexdigest()

    @property
    def is_index(self) -> bool:
        return self.path == INDEX

    @property
    def is_cluster(self) -> bool:
        return self.path.startswith(f"{CLUSTER_DIR}/")

    @property
    def is_topic(self) -> bool:
        return not (self.is_index or self.is_cluster)


@dataclass
class MemoryTree:
    root: Path
    files: dict[str, MemoryFile] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # path -> reason, for non-readable entries

    @property
    def index(self) -> MemoryFile | None:
        return self.files.get(INDEX)

    def documents(self) -> dict[str, Document]:
        return {p: f.document for p, f in self.files.items() if f.document is not None}

    def topic_files(self) -> list[str]:
        return sorted(p for p, f in self.files.items() if f.is_topic)

    def cluster_files(self) -> list[str]:
        return sorted(p for p, f in self.files.items() if f.is_cluster)

    def resolve_link(self, source: str, target: str) -> str | None:
        """The memory-relative path a link in `source` points at, if that file exists."""
        for candidate in link_candidates(source, target):
            if candidate in self.files or exists(self.root / candidate):
                return candidate
        return None


@lru_cache(maxsize=8192)  # the audit, the previews and the apply resolve the same links many times
def link_candidates(source: str, target: str) -> tuple[str, ...]:
    """Relative to the linking file first, then to the memory dir root."""
    target = unquote(target.strip("<>").split("#", 1)[0])  # [d](my%20notes.md) is my notes.md
    parent = PurePosixPath(source).parent
    candidates = [_normalize(parent / target), _normalize(PurePosixPath(target))]
    return tuple(c for i, c in enumerate(candidates) if c and c not in candidates[:i])


def _normalize(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return ""
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


def read_memory_file(root: Path, relative: str) -> MemoryFile:
    """Read and parse one file; problems are recorded on the result, never raised."""
    try:
        data = read_regular(root / relative)  # whole: an oversized index is still measured
    except OSError as exc:
        return MemoryFile(relative, b"", None, f"cannot read {relative}: {exc.strerror or exc}")
    try:
        text = decode_document(data, relative)
    except DocumentError as exc:
        return MemoryFile(relative, data, None, str(exc))
    return MemoryFile(relative, data, parse_document(text))


def load_memory_tree(root: Path) -> MemoryTree:
    """Every `*.md` under `root` (hidden directories skipped), parsed."""
    tree = MemoryTree(root)
    if not root.is_dir():
        return tree
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: _record(tree, root, e)):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.lower().endswith(".md"):
                continue
            relative = Path(dirpath, name).relative_to(root).as_posix()
            if Path(dirpath, name).is_symlink():
                tree.skipped[relative] = "symlink: not followed"
                continue
            tree.files[relative] = read_memory_file(root, relative)
    return tree


def _record(tree: MemoryTree, root: Path, error: OSError) -> None:
    where = Path(error.filename).relative_to(root).as_posix() if error.filename else "?"
    tree.skipped[where] = f"cannot list: {error.strerror or error}"
