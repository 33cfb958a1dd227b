"""Where our hooks are wired: Claude Code settings files and the plugin, so neither wires them twice.

A handler is ours when its command runs `consolidate hook <Event>` (any launcher) or our shell
launcher `consolidate-hook.sh <Event>`. Standard library only: the plugin's hooks read this on every
call to step aside when `consolidate install` wired the same hooks in settings.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..fsutil import parse_json_object

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


_OURS = re.compile(
    r"(?:(?:^|[\s/\\\"'])(?:-m\s+)?consolidate[\"']?\s+hook|consolidate-hook\.sh[\"']?)\s+(\w+)"
)
PLUGIN_NAME = "consolidate"


def our_event(handler: object) -> str | None:
    """The event a handler of ours serves, or None for anyone else's handler."""
    if not isinstance(handler, dict) or not isinstance(handler.get("command"), str):
        return None
    match = _OURS.search(handler["command"])
    return match.group(1) if match else None


def settings_files(home: Path, project_dir: str | os.PathLike[str] | None) -> list[Path]:
    """The settings files a session in `project_dir` loads hooks from (user, project, local)."""
    files = [home / "settings.json"]
    if project_dir:
        claude = Path(project_dir) / ".claude"
        files += [claude / "settings.json", claude / "settings.local.json"]
    return files


def _load(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    return parse_json_object(text) if "consolidate" in text else {}  # most files: no parsing


def wired_events(settings: Mapping[str, Any]) -> set[str]:
    """The events our handlers serve in one settings object."""
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return set()
    found = set()
    for groups in hooks.values():
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                event = our_event(handler)
                if event:
                    found.add(event)
    return found


def settings_wiring(files: list[Path], event: str) -> Path | None:
    """The first settings file that wires our handler for `event`, or None."""
    for path in files:
        if event in wired_events(_load(path)):
            return path
    return None


def enabled_plugin(files: list[Path]) -> tuple[Path, str] | None:
    """(settings file, plugin id) when our plugin is enabled in one of `files`."""
    for path in files:
        plugins = _load(path).get("enabledPlugins")
        if not isinstance(plugins, dict):
            continue
        for name, enabled in plugins.items():
            if enabled is True and str(name).split("@", 1)[0] == PLUGIN_NAME:
                return path, str(name)
    return None
