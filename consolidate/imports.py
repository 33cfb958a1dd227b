"""The files a CLAUDE.md pulls in with `@path` imports, as Claude Code loads them.

`@AGENTS.md`, `@docs/conventions.md`, `@~/.claude/my-rules.md`: `@` at the start of a line or after
whitespace, then a path relative to the importing file's folder (or to the home directory, or
absolute); never inside code spans or fenced blocks; followed up to five levels deep, each file once.
Only words that look like files are imports (a path with a `/` prefix or an extension), so
`@types/node`, `dev@example.com` or an `@mention` in prose is not one. What imported files say is
remembered as much as the CLAUDE.md itself, and audited with it. The parsing here is shared by the
auditor, the discoverer's dedup, orient and the doctor.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memory_layout.files import read_regular

MAX_DEPTH = 5
MAX_BYTES = 1 << 20
_FENCE = re.compile(r"^\s{0,3}(```|~~~).*?^\s{0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:~|\.{1,2})?/?[^\s`'\"<>()\[\]{},;]+)", re.MULTILINE)
_PATH_LIKE = re.compile(r"^(?:~/|\.{1,2}/|/)|\.[A-Za-z0-9]{1,8}$")


@dataclass(frozen=True)
class Imported:
    path: Path
    by: Path  # the file whose `@` line imports it
    line: int
    depth: int


def import_targets(text: str) -> list[tuple[int, str]]:
    """(line, target as written) of each import in a Markdown text, code left out."""
    masked = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    masked = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), masked)
    found = []
    for match in _IMPORT.finditer(masked):
        target = match.group(1).rstrip(".:!?")
        if _PATH_LIKE.search(target):
            found.append((masked.count("\n", 0, match.start()) + 1, target))
    return found


def resolve_target(target: str, base: Path, home: Path | None = None) -> Path:
    """Where an import points: `~/…` from `home`, a relative path from `base` (the importing folder)."""
    if target.startswith("~/"):
        return (home or Path.home()) / target[2:]
    path = Path(target)
    return path if path.is_absolute() else base / path


def import_paths(text: str, base: Path) -> list[Path]:
    """The files `text` imports, resolved against `base` (the importing file's folder)."""
    return [resolve_target(target, base) for _, target in import_targets(text)]


def imported_texts(path: Path, depth: int = MAX_DEPTH) -> list[tuple[Path, str]]:
    """(file, text) of everything `path` imports, directly or through its imports, in reading order."""
    return [(item.path, text) for item, text in _follow(path, depth)]


def resolve_imports(
    root_file: Path, allowed: list[Path], home: Path | None = None, skip: Iterable[Path] = ()
) -> list[Imported]:
    """Every file `root_file` imports that lies inside one of the `allowed` folders (the repository,
    the Claude config dir) and under no `skip` folder (the team memory is a layer of its own)."""
    allowed_real = [Path(os.path.realpath(p)) for p in allowed]
    skipped = [Path(os.path.realpath(p)) for p in skip]

    def wanted(real: Path) -> bool:
        return _inside_any(real, allowed_real) and not _inside_any(real, skipped)

    return [item for item, _ in _follow(root_file, MAX_DEPTH, home, wanted)]


def _follow(
    root: Path, depth: int, home: Path | None = None, wanted: Callable[[Path], bool] | None = None
) -> list[tuple[Imported, str]]:
    """Each file reached from `root` (and its text), depth first in reading order, each once."""
    found: list[tuple[Imported, str]] = []
    seen = {_key(root)}

    def visit(current: Path, text: str, level: int) -> None:
        if level > depth:
            return
        for line, written in import_targets(text):
            target = resolve_target(written, current.parent, home)
            key = _key(target)
            if key in seen or (wanted is not None and not wanted(Path(key))):
                continue
            content = _read(target)
            if content is None:
                continue
            seen.add(key)
            found.append((Imported(target, current, line, level), content))
            visit(target, content, level + 1)

    text = _read(root)
    if text is not None:
        visit(root, text, 1)
    return found


def _inside_any(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _key(path: Path) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return str(path)


def _read(path: Path) -> str | None:
    """The text of a regular file within the size limit (a FIFO, a directory or a huge file is skipped)."""
    try:
        data = read_regular(path, MAX_BYTES)
    except (OSError, ValueError):
        return None
    return None if len(data) > MAX_BYTES else data.decode("utf-8", errors="replace")
