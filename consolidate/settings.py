"""Where things are for one invocation: the project, Claude's config dir, our own state dir."""

from __future__ import annotations

import os
from pathlib import Path

from memory_layout.paths import ProjectLayout, claude_home, resolve_layout

from .plain import Frozen

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Mapping


class Settings(Frozen):
    __slots__ = FIELDS = ("layout", "state_dir")
    layout: ProjectLayout
    state_dir: Path

    def __init__(self, layout: ProjectLayout, state_dir: Path) -> None:
        self._set(layout=layout, state_dir=state_dir)

    @property
    def memory_dir(self) -> Path:
        return self.layout.memory_dir

    def run_dir(self, kind: str) -> Path:
        """A per-memory-dir folder of our own state (journal, scan offsets), keyed by the real path so
        every spelling of the memory dir (a symlinked ~/.claude, /var vs /private/var) finds the same one."""
        return self.state_dir / kind / memory_key(self.memory_dir)


def memory_key(memory_dir: str | os.PathLike[str]) -> str:
    """The name of a memory dir's folders in our state dir (the hooks compute it too)."""
    from .fsutil import sha256_hex

    return sha256_hex(os.path.realpath(memory_dir).encode())[:16]


def state_dir(home: Path, env: Mapping[str, str] | None = None) -> Path:
    """`$CONSOLIDATE_STATE_DIR`, else `<claude-home>/consolidate`."""
    values: Mapping[str, str] = os.environ if env is None else env
    configured = values.get("CONSOLIDATE_STATE_DIR")
    return Path(configured).expanduser() if configured else home / "consolidate"


def load_settings(
    project: str | os.PathLike[str] | None = None,
    *,
    memory_dir: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
) -> Settings:
    config = claude_home(home)
    layout = resolve_layout(project or os.getcwd(), memory_dir=memory_dir, home=config)
    return Settings(layout, state_dir(config))
