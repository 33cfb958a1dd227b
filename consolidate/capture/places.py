"""Where the capture loop keeps things, resolved with the standard library only (the hooks use it).

The path rules themselves come from `memory_layout.paths` and `consolidate.settings`, both light.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_layout.paths import claude_home, main_checkout, match_project_dir, project_key
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
    """The main checkout of the repository holding `start` (a worktree resolves to it); outside git,
    the real path of `start` itself."""
    return main_checkout(start) or Path(os.path.realpath(os.fspath(start)))


def memory_dir(home: Path, project: str | os.PathLike[str]) -> Path:
    """The auto-memory dir of `project`: keyed by its main checkout, else by the project itself."""
    base = repo_root(project)
    return match_project_dir(home / "projects", project_key(base)) / "memory"


def transcripts_dir(home: Path, cwd: str | os.PathLike[str]) -> Path:
    """Where Claude Code writes the transcripts of sessions started in `cwd`."""
    return match_project_dir(home / "projects", project_key(cwd))
