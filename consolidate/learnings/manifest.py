"""The lesson manifest: a store's working triggers, precompiled for the PreToolUse hook.

`<store>/lessons.json` holds the (tool, command, path, project), the id and whether it is a guard of
every lesson of the store that can match a tool call (not archived, a trigger that works), stamped with the size, mtime and inode its
`episodes.jsonl` had before it was read. It is rebuilt whenever the store changes under its lock and
whenever the hook finds it missing, stale or unreadable; a hook that finds it so never trusts it and
takes the full path (which blocks a guarded call when it cannot decide). Reading it needs only `os`
and `json`.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False  # not `typing`: the hook reading this module imports no more than it needs

if TYPE_CHECKING:
    from pathlib import Path

MANIFEST_FILE = "lessons.json"
EPISODES_FILE = "episodes.jsonl"
VERSION = 2  # 1 had no lesson ids: a version-1 manifest is stale

Fields = tuple[str, str, str, str]


def _stamp(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


def load(store_dir: str) -> list[tuple[Fields, str, bool]] | None:
    """The store's working triggers, as (fields, lesson id, guard); [] when it has no episodes; None
    when the manifest is missing, stale or unreadable (the caller then reads the episodes themselves)."""
    try:
        stat = os.stat(os.path.join(store_dir, EPISODES_FILE))
    except FileNotFoundError:
        return []
    except OSError:
        return None
    try:
        with open(os.path.join(store_dir, MANIFEST_FILE), "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION or data.get("stamp") != _stamp(stat):
        return None
    triggers = data.get("triggers")
    if not isinstance(triggers, list):
        return None
    found: list[tuple[Fields, str, bool]] = []
    for entry in triggers:
        if not (
            isinstance(entry, list)
            and len(entry) == 6
            and all(isinstance(v, str) for v in entry[:5])
            and isinstance(entry[5], bool)
        ):
            return None
        found.append(((entry[0], entry[1], entry[2], entry[3]), entry[4], entry[5]))
    return found


def rebuild(episodes_path: Path) -> None:
    """Write the manifest of the store holding `episodes_path` (removed with the episodes)."""
    from ..fsutil import atomic_write
    from .store import EpisodeStore

    target = episodes_path.parent / MANIFEST_FILE
    try:
        stat = os.stat(episodes_path)  # before reading: a later change leaves the stamp stale
    except FileNotFoundError:
        target.unlink(missing_ok=True)
        return
    working = [
        [*e.trigger.fields, e.id, e.trigger.guard]
        for e in EpisodeStore(episodes_path).episodes().values()
        if e.status != "archived"
        and e.trigger is not None
        and not e.trigger.is_empty
        and e.trigger.problem() is None
    ]
    data = {"version": VERSION, "stamp": _stamp(stat), "triggers": working}
    atomic_write(target, json.dumps(data, ensure_ascii=False).encode("utf-8"))


def refresh(episodes_path: Path) -> None:
    """Rebuild the manifest when it is missing or stale; an unwritable state dir only costs speed."""
    if load(str(episodes_path.parent)) is None:
        from contextlib import suppress

        with suppress(OSError):
            rebuild(episodes_path)
