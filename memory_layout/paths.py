"""Where Claude Code keeps a project's memory and transcripts.

Claude Code names a project's directory under `<config>/projects/` after a *key*: the real,
NFC-normalised path with every character outside `[A-Za-z0-9]` replaced by `-`. Memory lives under
the git root's key, transcripts under the working directory's key. Keys longer than 200 characters
are cut and given a hash suffix; the CLI and the SDK hash differently, so long keys match by prefix.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_KEY_LENGTH = 200
TEAM_DIR = ".claude/team-memory"  # the team memory folder, relative to the repository root
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")


def project_key(path: str | os.PathLike[str]) -> str:
    """The directory name Claude Code uses for `path` (hash suffix omitted for long paths)."""
    real = os.path.realpath(os.fspath(path))
    key = _NON_ALNUM.sub("-", unicodedata.normalize("NFC", real))
    return key[:MAX_KEY_LENGTH]


def claude_home(explicit: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The Claude config dir: an explicit value, else `$CLAUDE_CONFIG_DIR`, else `~/.claude`."""
    if explicit:
        return Path(explicit).expanduser()
    values: Mapping[str, str] = os.environ if env is None else env
    configured = values.get("CLAUDE_CONFIG_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(values.get("HOME") or Path.home()) / ".claude"


def find_git_root(start: str | os.PathLike[str]) -> Path | None:
    """The nearest ancestor of `start` holding `.git` (a dir, or a file for worktrees)."""
    current = Path(os.path.realpath(os.fspath(start)))
    for candidate in (current, *current.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def main_checkout(start: str | os.PathLike[str]) -> Path | None:
    """The main checkout of the repository holding `start`: a linked worktree resolves to it, so
    memory keyed by it is the same from every worktree. None outside git.

    A worktree's `.git` is a file naming `<main>/.git/worktrees/<name>`, whose `commondir` leads back
    to `<main>/.git`.
    """
    root = find_git_root(start)
    if root is None or (root / ".git").is_dir():
        return root
    common = _common_dir(root / ".git")
    return common.parent if common is not None and common.name == ".git" else root


def _common_dir(dot_git_file: Path) -> Path | None:
    try:
        text = dot_git_file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir:"):
        return None
    gitdir = Path(os.path.realpath(dot_git_file.parent / text.removeprefix("gitdir:").strip()))
    try:
        pointer = (gitdir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return gitdir
    return Path(os.path.realpath(gitdir / pointer))


def match_project_dir(projects: Path, key: str) -> Path:
    """The directory for `key` under `projects`, matching truncated long keys by prefix."""
    exact = projects / key
    if len(key) < MAX_KEY_LENGTH or exact.is_dir():
        return exact
    if projects.is_dir():
        for child in sorted(projects.iterdir()):
            if child.name.startswith(key) and child.is_dir():
                return child
    return exact


class ProjectLayout:
    """Every path the tool reads or writes for one project (a frozen value; not a dataclass, whose
    import the hooks would pay on every call)."""

    __slots__ = ("project", "git_root", "claude_home", "memory_dir", "transcripts_dir")
    project: Path
    git_root: Path | None
    claude_home: Path
    memory_dir: Path
    transcripts_dir: Path

    def __init__(
        self, project: Path, git_root: Path | None, claude_home: Path, memory_dir: Path, transcripts_dir: Path
    ) -> None:
        for name, value in zip(
            self.__slots__, (project, git_root, claude_home, memory_dir, transcripts_dir), strict=True
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ProjectLayout is frozen: cannot set {name}")

    def _values(self) -> tuple[Path | None, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if isinstance(other, ProjectLayout) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "ProjectLayout(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"

    @property
    def index(self) -> Path:
        return self.memory_dir / "MEMORY.md"

    @property
    def user_claude_md(self) -> Path:
        return self.claude_home / "CLAUDE.md"

    @property
    def project_claude_md(self) -> Path:
        return (self.git_root or self.project) / "CLAUDE.md"

    @property
    def last_consolidation(self) -> Path:
        return self.memory_dir / ".last-consolidation"

    @property
    def team_dir(self) -> Path | None:
        """The team memory folder, found through git: this checkout's root, whatever its path."""
        return self.git_root / TEAM_DIR if self.git_root is not None else None


def resolve_layout(
    project: str | os.PathLike[str],
    *,
    memory_dir: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> ProjectLayout:
    """Resolve the memory dir and the transcripts dir of `project`; an explicit memory dir wins.
    Memory is keyed by the main checkout, so a linked worktree shares it; transcripts by the cwd."""
    project_path = Path(os.path.realpath(os.fspath(project)))
    root = find_git_root(project_path)
    config = claude_home(home, env)
    projects = config / "projects"
    if memory_dir is not None:
        memory = Path(memory_dir).expanduser().absolute()
    else:
        keyed = (main_checkout(root) if root else None) or project_path
        memory = match_project_dir(projects, project_key(keyed)) / "memory"
    transcripts = match_project_dir(projects, project_key(project_path))
    return ProjectLayout(project_path, root, config, memory, transcripts)
