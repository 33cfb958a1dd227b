"""The files a CLAUDE.md pulls in with `@path` imports, as Claude Code loads them.

`@AGENTS.md`, `@docs/conventions.md`, `@~/.claude/my-rules.md`: a path relative to the importing file
(or to the home directory), followed up to five levels deep, never inside code spans or fenced blocks,
each file once. What they say is remembered as much as the CLAUDE.md itself.
"""

from __future__ import annotations

import re
from pathlib import Path

from memory_layout.files import read_regular

MAX_DEPTH = 5
MAX_BYTES = 1 << 20
_IMPORT = re.compile(r"(?<![\w@`/])@(?P<path>~?[\w./-]*[\w-](?:\.\w+)?)")
_FENCE = re.compile(r"^\s*(```|~~~).*?^\s*\1", re.DOTALL | re.MULTILINE)
_SPAN = re.compile(r"`[^`\n]*`")


def import_paths(text: str, base: Path) -> list[Path]:
    """The files `text` imports, resolved against `base` (the importing file's folder)."""
    prose = _SPAN.sub(" ", _FENCE.sub(" ", text))
    found = []
    for match in _IMPORT.finditer(prose):
        raw = match["path"]
        if "@" in raw or raw.endswith("."):
            continue
        path = Path(raw).expanduser() if raw.startswith("~") else base / raw
        found.append(path)
    return found


def imported_texts(path: Path, depth: int = MAX_DEPTH) -> list[tuple[Path, str]]:
    """(file, text) of everything `path` imports, directly or through its imports, in reading order."""
    results: list[tuple[Path, str]] = []
    seen = {_key(path)}

    def visit(current: Path, text: str, level: int) -> None:
        if level >= depth:
            return
        for target in import_paths(text, current.parent):
            key = _key(target)
            if key in seen:
                continue
            seen.add(key)
            content = _read(target)
            if content is None:
                continue
            results.append((target, content))
            visit(target, content, level + 1)

    text = _read(path)
    if text is not None:
        visit(path, text, 0)
    return results


def _key(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path)


def _read(path: Path) -> str | None:
    """The text of a regular file within the size limit (a FIFO, a directory or a huge file is skipped)."""
    try:
        data = read_regular(path, MAX_BYTES)
    except OSError:
        return None
    return None if len(data) > MAX_BYTES else data.decode("utf-8", errors="replace")
