"""`@path` imports of CLAUDE.md files for the doctor: every import, a missing file included. They are
parsed as the auditor parses them (`consolidate.imports`: `@` at a line start or after
whitespace, outside code, a word that looks like a file, five hops at most).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..imports import MAX_DEPTH, import_targets, resolve_target

__all__ = ["Import", "find_imports", "import_targets", "is_stub", "resolve_target", "MAX_DEPTH"]

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


@dataclass(frozen=True)
class Import:
    source: Path  # the file holding the import
    line: int
    target: str  # as written
    path: Path  # resolved
    depth: int  # 1 for an import of a CLAUDE.md file itself

    @property
    def exists(self) -> bool:
        return self.path.is_file()


def find_imports(root: Path, *, home: Path, depth: int = 1, seen: set[Path] | None = None) -> list[Import]:
    """The imports of `root` and, recursively, of the files it imports (absent files end a branch)."""
    seen = seen if seen is not None else set()
    try:
        real = root.resolve()
        text = (
            root.read_text(encoding="utf-8-sig") if root.is_file() and root.stat().st_size < 4 << 20 else None
        )
    except (OSError, UnicodeDecodeError):
        return []
    if text is None or real in seen or depth > MAX_DEPTH:
        return []
    seen.add(real)
    found: list[Import] = []
    for line, target in import_targets(text):
        path = resolve_target(target, root.parent, home)
        found.append(Import(root, line, target, path, depth))
        found += find_imports(path, home=home, depth=depth + 1, seen=seen)
    return found


def is_stub(text: str) -> bool:
    """A CLAUDE.md that only imports (`@AGENTS.md`, comments and a title around it): the imported file
    is its real content."""
    bare = _COMMENT.sub("", text)
    lines = [line.strip() for line in bare.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return bool(lines) and len(lines) <= 3 and all(line.startswith("@") and " " not in line for line in lines)
