"""What a CLAUDE.md file imports with `@path`, the way Claude Code reads it: a relative path from the
importing file's folder, `@~/…` from the home folder or an absolute path; never inside a code span or
a code fence; followed recursively up to five hops. Only regular files inside the repository or the
Claude config dir are followed, each once, so an import cycle ends."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

MAX_DEPTH = 5
MAX_BYTES = 4 * 1024 * 1024
_IMPORT = re.compile(r"(?<![\w`@./-])@(?P<path>(?:~/|\.{1,2}/|/)?[\w.][\w.+/-]*\w)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)[^`\n]+?\1")


@dataclass(frozen=True)
class Imported:
    path: Path
    by: Path  # the file whose `@` line imports it
    line: int
    depth: int


def import_targets(text: str) -> list[tuple[str, int]]:
    """(path as written, 1-based line) of every `@path` outside code."""
    masked = _blank(_blank(text, _FENCE), _CODE_SPAN)
    found = []
    for match in _IMPORT.finditer(masked):
        found.append((match["path"], masked.count("\n", 0, match.start()) + 1))
    return found


def resolve_imports(root_file: Path, allowed: list[Path], home: Path | None = None) -> list[Imported]:
    """Every file `root_file` imports, directly or through other imports, in reading order."""
    allowed_real = [Path(os.path.realpath(p)) for p in allowed]
    seen = {Path(os.path.realpath(root_file))}
    found: list[Imported] = []

    def visit(path: Path, depth: int) -> None:
        if depth > MAX_DEPTH:
            return
        for written, line in import_targets(_read(path)):
            target = _target(path, written, home)
            real = Path(os.path.realpath(target))
            if real in seen or not _inside_any(real, allowed_real) or not _readable(real):
                continue
            seen.add(real)
            found.append(Imported(target, path, line, depth))
            visit(real, depth + 1)

    visit(root_file, 1)
    return found


def _target(source: Path, written: str, home: Path | None) -> Path:
    if written.startswith("~/"):
        return (home or Path.home()) / written[2:]
    path = Path(written)
    return path if path.is_absolute() else source.parent / path


def _inside_any(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def _readable(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size <= MAX_BYTES
    except OSError:
        return False


def _read(path: Path) -> str:
    try:
        return path.read_bytes()[:MAX_BYTES].decode("utf-8", "replace")
    except OSError:
        return ""


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    """Blank matches but keep their line breaks, so line numbers stay true."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
