"""`@path` imports in CLAUDE.md files, found the way Claude Code reads them.

An import is `@` at the start of a line or after whitespace, followed by a path: relative to the file
that holds it, absolute, or `~/…`. Imports inside code spans and fenced blocks do not count, and
imported files import in turn, up to five hops. Only words that look like files are taken for imports
(a path with a `/` prefix or an extension), so `@types/node` or an `@mention` in prose is not one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

MAX_DEPTH = 5
_FENCE = re.compile(r"^\s{0,3}(```|~~~).*?^\s{0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:~|\.{1,2})?/?[^\s`'\"<>()\[\]{},;]+)", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_PATH_LIKE = re.compile(r"^(?:~/|\.{1,2}/|/)|\.[A-Za-z0-9]{1,8}$")


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


def import_targets(text: str) -> list[tuple[int, str]]:
    """(line, target) of each import in a Markdown text, code left out."""
    masked = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    masked = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), masked)
    found = []
    for match in _IMPORT.finditer(masked):
        target = match.group(1).rstrip(".:!?")
        if _PATH_LIKE.search(target):
            found.append((masked.count("\n", 0, match.start()) + 1, target))
    return found


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


def resolve_target(target: str, base: Path, home: Path) -> Path:
    if target.startswith("~/"):
        return home / target[2:]
    path = Path(target)
    return path if path.is_absolute() else base / path


def is_stub(text: str) -> bool:
    """A CLAUDE.md that only imports (`@AGENTS.md`, comments and a title around it): the imported file
    is its real content."""
    bare = _COMMENT.sub("", text)
    lines = [line.strip() for line in bare.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return bool(lines) and len(lines) <= 3 and all(line.startswith("@") and " " not in line for line in lines)
