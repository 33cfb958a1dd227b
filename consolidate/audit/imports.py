"""What a CLAUDE.md file imports with `@path`, the way Claude Code reads it: `@` at the start of a line
or after whitespace, then a path relative to the importing file's folder, `~/…` from the home folder,
or absolute; never inside a code span or a code fence; followed recursively up to five hops. Only words
that look like files are imports (a path with a `/` prefix or an extension), so `@types/node` or an
`@mention` in prose is not one. The audit follows only regular files inside the repository or the
Claude config dir, each once, so an import cycle ends."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MAX_DEPTH = 5
MAX_BYTES = 4 * 1024 * 1024
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


def resolve_target(target: str, base: Path, home: Path) -> Path:
    """Where an import points: `~/…` from `home`, a relative path from `base` (the importing folder)."""
    if target.startswith("~/"):
        return home / target[2:]
    path = Path(target)
    return path if path.is_absolute() else base / path


def resolve_imports(
    root_file: Path, allowed: list[Path], home: Path | None = None, skip: Iterable[Path] = ()
) -> list[Imported]:
    """Every file `root_file` imports, directly or through other imports, in reading order; files
    under a `skip` folder are not followed (the team memory folder is a layer of its own)."""
    allowed_real = [Path(os.path.realpath(p)) for p in allowed]
    skipped = [Path(os.path.realpath(p)) for p in skip]
    seen = {Path(os.path.realpath(root_file))}
    found: list[Imported] = []

    def visit(path: Path, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        for line, written in import_targets(_read(path)):
            target = resolve_target(written, path.parent, home or Path.home())
            real = Path(os.path.realpath(target))
            if real in seen or not _inside_any(real, allowed_real) or _inside_any(real, skipped):
                continue
            if not _readable(real):
                continue
            seen.add(real)
            found.append(Imported(target, path, line, depth))
            visit(real, depth + 1)

    visit(root_file, 1)
    return found


def _inside_any(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _readable(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size <= MAX_BYTES
    except OSError:
        return False


def _read(path: Path) -> str:
    """A regular file's text; anything else (a FIFO, a device, a folder) is never opened."""
    if not _readable(path):
        return ""
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
