"""Read-only tools for the anthropic engine, sandboxed to the project and its memory dir.

`read_file`, `glob`, `grep` and `git_log` — nothing here writes. Every path is resolved (following
symlinks) and must stay under one of the allowed roots; huge and binary files are refused; every
answer is capped, so a tool result cannot flood the conversation, and redacted, so a secret in a
project file does not leave the machine.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..secrets import redact

MAX_FILE_BYTES = 512 * 1024
MAX_OUTPUT_CHARS = 24_000
MAX_WALK_FILES = 20_000
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache"})

TOOL_SCHEMAS: list[dict[str, Any]] = [
    {
        "name": "read_file",
        "description": "Read a text file of the project or the memory dir, with line numbers.",
        "input_schema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "relative to the project root, or absolute"},
                "offset": {"type": "integer", "description": "first line (1-based)"},
                "limit": {"type": "integer", "description": "number of lines (at most 1000)"},
            },
            "required": ["path"],
        },
    },
    {
        "name": "glob",
        "description": "List files matching a glob pattern such as `src/**/*.py`.",
        "input_schema": {
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string", "description": "directory to search (default: project root)"},
            },
            "required": ["pattern"],
        },
    },
    {
        "name": "grep",
        "description": "Search text files for a regular expression; prints path:line: text.",
        "input_schema": {
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "Python regular expression"},
                "path": {"type": "string", "description": "file or directory (default: project root)"},
                "glob": {"type": "string", "description": "only files whose name matches, e.g. *.py"},
            },
            "required": ["pattern"],
        },
    },
    {
        "name": "git_log",
        "description": "Recent commits, or the history of one path (renames followed, with its renames "
        "and deletions).",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
        },
    },
]


class ToolError(Exception):
    """A refused or failed tool call: its message goes back to the model as an error result."""


class ProjectTools:
    def __init__(self, root: Path, extra_roots: tuple[Path, ...] = ()) -> None:
        self.root = Path(os.path.realpath(root))
        self.roots = (self.root, *(Path(os.path.realpath(r)) for r in extra_roots))

    def call(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Run one tool call: (text, is_error). Unknown tools and bad arguments are errors, not raises."""
        tools: dict[str, Callable[..., str]] = {
            "read_file": self.read_file,
            "glob": self.glob,
            "grep": self.grep,
            "git_log": self.git_log,
        }
        if name not in tools:
            return f"no such tool: {name} (available: {', '.join(tools)}; all are read-only)", True
        try:
            return _cap(redact(tools[name](**arguments))), False
        except ToolError as exc:
            return str(exc), True
        except TypeError as exc:
            return f"bad arguments for {name}: {exc}", True

    def resolve(self, path: str) -> Path:
        """The real path of `path`, which must lie under an allowed root."""
        candidate = Path(path).expanduser()
        if not candidate.is_absolute():
            candidate = self.root / candidate
        real = Path(os.path.realpath(candidate))
        if not any(real == root or root in real.parents for root in self.roots):
            raise ToolError(f"refused: {path} is outside the project and the memory dir")
        return real

    def read_file(self, path: str, offset: int = 1, limit: int = 400) -> str:
        text = _read_text(self.resolve(path))
        lines = text.splitlines()
        start, count = max(int(offset), 1), min(max(int(limit), 1), 1000)
        chunk = lines[start - 1 : start - 1 + count]
        body = "".join(f"{n:>5}| {line}\n" for n, line in enumerate(chunk, start))
        more = len(lines) - (start - 1 + len(chunk))
        return body + (f"… {more} more lines (use offset={start + len(chunk)})\n" if more > 0 else "")

    def glob(self, pattern: str, path: str = ".") -> str:
        base = self.resolve(path)
        matches = []
        for file in self._walk(base):
            relative = file.relative_to(base).as_posix()
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(relative, pattern.removeprefix("**/")):
                matches.append(self._display(file))
                if len(matches) >= 500:
                    break
        return "\n".join(matches) + "\n" if matches else f"no files match {pattern}\n"

    def grep(self, pattern: str, path: str = ".", glob: str = "") -> str:
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            raise ToolError(f"bad regular expression: {exc}") from None
        base = self.resolve(path)
        files = [base] if base.is_file() else self._walk(base)
        hits: list[str] = []
        for file in files:
            if glob and not fnmatch.fnmatch(file.name, glob):
                continue
            hits.extend(self._grep_file(file, regex))
            if len(hits) >= 200:
                break
        return "\n".join(hits[:200]) + "\n" if hits else f"no matches for {pattern}\n"

    def git_log(self, path: str = "", limit: int = 20) -> str:
        from ..gitrepo import GitRepo

        repo = GitRepo.find(self.root)
        if repo is None:
            return "not a git repository\n"
        count = min(max(int(limit), 1), 100)
        if not path:
            return "\n".join(repo.recent(count)) + "\n"
        real, root = self._lexical(path), Path(os.path.realpath(repo.root))
        if not (root == real or root in real.parents):
            raise ToolError(f"refused: {path} is not in the git repository")
        relative = real.relative_to(root).as_posix() or "."
        lines = [c.describe() for c in repo.log_path(relative, count)]
        for event in repo.path_events:
            if relative in (event.old, event.new):
                what = f"renamed to {event.new}" if event.kind == "R" else "deleted"
                lines.append(f"{event.old} {what} in {event.commit.describe()}")
        return "\n".join(lines) + "\n" if lines else f"no history for {path}\n"

    def _lexical(self, path: str) -> Path:
        """Like `resolve`, but a path that no longer exists (deleted, renamed) is fine: history has it."""
        candidate = Path(path) if Path(path).is_absolute() else self.root / path
        parent = self.resolve(str(candidate.parent))
        return parent / candidate.name

    def _walk(self, base: Path) -> Iterator[Path]:
        seen = 0
        for folder, dirs, files in os.walk(base):
            dirs[:] = sorted(
                d for d in dirs if d not in SKIP_DIRS and not os.path.islink(os.path.join(folder, d))
            )
            for name in sorted(files):
                seen += 1
                if seen > MAX_WALK_FILES:
                    return
                yield Path(folder) / name

    def _grep_file(self, file: Path, regex: re.Pattern[str]) -> list[str]:
        try:
            text = _read_text(self.resolve(str(file)))
        except ToolError:
            return []
        shown = self._display(file)
        return [
            f"{shown}:{n}: {line[:300]}" for n, line in enumerate(text.splitlines(), 1) if regex.search(line)
        ]

    def _display(self, file: Path) -> str:
        return file.relative_to(self.root).as_posix() if self.root in file.parents else str(file)


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise ToolError(f"not a file: {path}")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ToolError(f"refused: {path} is {size} bytes (limit {MAX_FILE_BYTES})")
        data = path.read_bytes()
    except OSError as exc:
        raise ToolError(f"cannot read {path}: {exc.strerror}") from None
    if b"\0" in data[:8192]:
        raise ToolError(f"refused: {path} is binary")
    return data.decode("utf-8", errors="replace")


def _cap(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    return text[:MAX_OUTPUT_CHARS] + f"\n… output cut at {MAX_OUTPUT_CHARS} characters; narrow the query\n"
