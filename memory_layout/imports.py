"""`@path` imports of CLAUDE.md files, followed the way Claude Code follows them.

An import is `@` followed by a path, at the start of a line or after a space, outside code spans and
fenced code blocks. A relative path is relative to the importing file, `~/` is the home directory; an
imported file may import others, at most 5 hops deep. A missing or unreadable file is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .wellformed import prose_lines

MAX_DEPTH = 5
MAX_BYTES = 1024 * 1024
_IMPORT = re.compile(r"(?:^|(?<=\s))@(?P<path>(?:~/|\.{1,2}/|/)?[\w.~-][^\s`'\")\]]*)")
_CODE_SPAN = re.compile(r"(`+).*?\1")


@dataclass(frozen=True)
class ImportedFile:
    path: Path
    text: str
    imported_by: Path  # the file whose `@` line named it


def import_paths(text: str) -> list[str]:
    """The paths `text` imports, in order, code left out."""
    found: list[str] = []
    for _, line in prose_lines(text.splitlines())[0]:
        prose = _CODE_SPAN.sub(" ", line)
        found.extend(m["path"].rstrip(".,;:") for m in _IMPORT.finditer(prose))
    return found


def resolve_import(name: str, importer: Path, home: Path | None = None) -> Path:
    if name.startswith("~/"):
        return (home or Path.home()) / name[2:]
    path = Path(name)
    return path if path.is_absolute() else importer.parent / path


def follow_imports(path: Path, text: str, *, home: Path | None = None) -> list[ImportedFile]:
    """Every file `text` (the content of `path`) imports, directly or through others, each once."""
    seen = {_real(path)}
    found: list[ImportedFile] = []
    queue = [(path, text, 0)]
    while queue:
        importer, body, depth = queue.pop(0)
        if depth >= MAX_DEPTH:
            continue
        for name in import_paths(body):
            target = resolve_import(name, importer, home)
            real = _real(target)
            if real in seen:
                continue
            seen.add(real)
            content = _read(target)
            if content is None:
                continue
            found.append(ImportedFile(target, content, importer))
            queue.append((target, content, depth + 1))
    return found


def _real(path: Path) -> str:
    try:
        return str(path.resolve())
    except (OSError, RuntimeError):
        return str(path)


def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
