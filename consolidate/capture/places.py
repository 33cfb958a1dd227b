"""Where the capture loop keeps things, resolved with the standard library only.

The hook path must stay light, so this module repeats the few path rules it needs (Claude's config
dir, our state dir, project keys) instead of importing `memory_layout`, whose package pulls in the
Markdown and YAML parsers. `tests/capture/test_places.py` checks both agree.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path

MAX_KEY_LENGTH = 200
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")


def claude_home(explicit: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Path:
    """An explicit value, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    if explicit:
        return Path(explicit).expanduser()
    values: Mapping[str, str] = os.environ if env is None else env
    configured = values.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(values.get("HOME") or Path.home()) / ".claude"


def state_root(home: Path, env: Mapping[str, str] | None = None) -> Path:
    """`$CONSOLIDATE_STATE_DIR`, else `<claude-home>/consolidate` (same rule as `settings.state_dir`)."""
    values: Mapping[str, str] = os.environ if env is None else env
    configured = values.get("CONSOLIDATE_STATE_DIR")
    return Path(configured).expanduser() if configured else home / "consolidate"


def project_key(path: str | os.PathLike[str]) -> str:
    """Claude Code's directory name for `path` (hash suffix of long keys omitted)."""
    real = os.path.realpath(os.fspath(path))
    return _NON_ALNUM.sub("-", unicodedata.normalize("NFC", real))[:MAX_KEY_LENGTH]


def git_root(start: str | os.PathLike[str]) -> Path | None:
    """The nearest ancestor of `start` holding `.git` (a dir, or a file in a worktree)."""
    current = Path(os.path.realpath(os.fspath(start)))
    for candidate in (current, *current.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


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


def match_project_dir(projects: Path, key: str) -> Path:
    """The directory for `key` under `projects`; truncated long keys match by prefix."""
    exact = projects / key
    if len(key) < MAX_KEY_LENGTH or exact.is_dir() or not projects.is_dir():
        return exact
    for child in sorted(projects.iterdir()):
        if child.name.startswith(key) and child.is_dir():
            return child
    return exact


def memory_dir(home: Path, project: str | os.PathLike[str]) -> Path:
    """The auto-memory dir of `project`: keyed by its git root, else by the project itself."""
    base = git_root(project) or Path(os.path.realpath(os.fspath(project)))
    return match_project_dir(home / "projects", project_key(base)) / "memory"


def transcripts_dir(home: Path, cwd: str | os.PathLike[str]) -> Path:
    """Where Claude Code writes the transcripts of sessions started in `cwd`."""
    return match_project_dir(home / "projects", project_key(cwd))
