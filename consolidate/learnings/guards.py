"""Guard markers: which lesson stores hold an active guard, readable without Python.

When no interpreter can run the hooks, the shell launcher (`hooks/consolidate-hook.sh`) still has to
know whether a guard lesson would have denied the call. Each store keeps a `guard` file beside its
episodes while it holds one: one line, the project root the store belongs to (`*` for the global
store). The launcher blocks every tool call under such a root; the Python hook uses the same files
when a fault of its own stops it from matching the call.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..fsutil import write_if_changed
from .episodes import Episode

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterable


MARKER = "guard"
GLOBAL_ROOT = "*"


def is_active_guard(episode: Episode) -> bool:
    """A lesson that denies the calls it matches — a guard the user confirmed (`Episode.guards`), live
    and with a trigger that works: the one rule the hooks and the marker share."""
    trigger = episode.trigger
    return (
        episode.status != "archived"
        and episode.guards
        and trigger is not None
        and not trigger.is_empty
        and trigger.problem() is None
    )


def sync_marker(store_dir: Path, root: str, episodes: Iterable[Episode]) -> None:
    """Write the store's marker while it holds an active guard, remove it when it holds none."""
    marker = store_dir / MARKER
    if any(is_active_guard(e) for e in episodes):
        write_if_changed(marker, (root + "\n").encode("utf-8"))
    else:
        marker.unlink(missing_ok=True)


def guarded_roots(state_dir: Path) -> list[str]:
    """The roots of every store with an active guard (`*` for the global store)."""
    roots = []
    for marker in sorted((state_dir / "learnings").glob(f"*/{MARKER}")):
        try:
            line = marker.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
        if line:
            roots.append(line)
    return roots


def guard_applies(state_dir: Path, project: str | os.PathLike[str]) -> bool:
    """Whether a guard lesson may apply to calls made in `project` (its real path or main checkout)."""
    from ..capture.places import repo_root

    roots = guarded_roots(state_dir)
    if GLOBAL_ROOT in roots:
        return True
    if not roots:
        return False
    places = {os.path.realpath(os.fspath(project)), str(repo_root(project))}
    return any(
        place == root or place.startswith(root.rstrip("/") + "/") for place in places for root in roots
    )
