"""Where the capture loop keeps things, resolved with the standard library only (the hooks use it).

The path rules themselves come from `memory_layout.paths` and `consolidate.settings`, both light.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_layout.paths import claude_home, match_project_dir, project_key
from memory_layout.paths import find_git_root as git_root

from ..settings import state_dir as state_root

__all__ = [
    "claude_home",
    "git_root",
    "memory_dir",
    "project_key",
    "repo_root",
    "state_root",
    "transcripts_dir",
]


def repo_root(start: str | os.PathLike[str]) -> Path:
    """The main checkout of the repository holding `start`; a worktree resolves to it.

    A worktree's `.git` is a file naming `<main>/.git/worktrees/<name>`, whose `commondir` leads back
    to `<main>/.git`. Outside git, the real path of `start` itself.
    """
    root = git_root(start)
    if root is None:
        return Path(os.path.realpath(os.fspath(start)))
    dot_git = root / ".git"
    if dot_git.is_dir():
        return root
    common = _common_dir(dot_git)
    if common is not None and common.name == ".git":
        return common.parent
    return root


def _common_dir(dot_git_file: Path) -> Path | None:
    try:
        text = dot_git_file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir:"):
        return None
    gitdir = (dot_git_file.parent / text.removeprefix("gitdir:").strip()).resolve()
    try:
        pointer = (gitdir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return gitdir
    return (gitdir / pointer).resolve()


def memory_dir(home: Path, project: str | os.PathLike[str]) -> Path:
    """The auto-memory dir of `project`: keyed by its git root, else by the project itself."""
    base = git_root(project) or Path(os.path.realpath(os.fspath(project)))
    return match_project_dir(home / "projects", project_key(base)) / "memory"


def transcripts_dir(home: Path, cwd: str | os.PathLike[str]) -> Path:
    """Where Claude Code writes the transcripts of sessions started in `cwd`."""
    return match_project_dir(home / "projects", project_key(cwd))
