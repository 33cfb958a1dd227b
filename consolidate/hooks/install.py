"""Wire the hooks into Claude Code settings, and take them out again, leaving every other hook alone.

Each hook runs our shell launcher (`consolidate-hook.sh`, copied to `<state>/bin/` so it outlives the
environment consolidate was installed in) with the interpreter and package directory found at install
time; the launcher falls back to other interpreters and never fails open for a guard. Our handlers are
recognised by their command, so installing twice changes nothing, and uninstalling removes only ours.
The file is backed up (a timestamped copy beside it) before any change, and written atomically.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import ConsolidateError
from ..fsutil import atomic_write, write_if_changed
from .wiring import our_event

# event → (matcher or None, timeout in seconds)
HOOKS: dict[str, tuple[str | None, int]] = {
    "SessionStart": (None, 10),
    "UserPromptSubmit": (None, 10),
    "PreToolUse": ("*", 5),
    "Stop": (None, 10),
    "SessionEnd": (None, 5),  # it only starts the background run; Claude Code allows ~1.5 s anyway
}
LAUNCHER = "consolidate-hook.sh"
BIN_DIR = "bin"


def launcher_source() -> Path:
    return Path(__file__).with_name(LAUNCHER)


def package_dir() -> Path:
    """The directory holding the `consolidate` package (a checkout, or site-packages)."""
    return Path(__file__).resolve().parents[2]


def launcher_path(state_dir: Path) -> Path:
    return state_dir / BIN_DIR / LAUNCHER


def hook_commands(launcher: Path, python: str, path: Path) -> dict[str, str]:
    """The command of each of our hooks: the launcher, the event, what install found."""
    tail = f"--python {shlex.quote(python)} --path {shlex.quote(str(path))}"
    return {event: f"/bin/sh {shlex.quote(str(launcher))} {event} {tail}" for event in HOOKS}


def write_launcher(state_dir: Path) -> Path:
    """Copy the launcher where it outlives the virtual environment (unchanged when up to date)."""
    target = launcher_path(state_dir)
    write_if_changed(target, launcher_source().read_bytes())
    target.chmod(0o755)
    return target


def default_python() -> str:
    return sys.executable


def settings_path(claude_home: Path, project: Path | None) -> Path:
    return project / ".claude" / "settings.json" if project is not None else claude_home / "settings.json"


def install_hooks(settings: dict[str, Any], commands: dict[str, str]) -> tuple[dict[str, Any], int]:
    """Settings with our four hooks present (updated in place when the launcher moved); (settings, changes)."""
    result = json.loads(json.dumps(settings))
    hooks = _hooks_table(result)
    changes = 0
    for event, (matcher, timeout) in HOOKS.items():
        wanted = {"type": "command", "command": commands[event], "timeout": timeout}
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ConsolidateError(f'settings: "hooks.{event}" is not a list; fix it by hand first')
        existing = [
            h for g in groups if isinstance(g, dict) for h in g.get("hooks") or [] if our_event(h) == event
        ]
        if existing:
            for handler in existing:
                if handler != wanted:
                    handler.clear()
                    handler.update(wanted)
                    changes += 1
            continue
        group: dict[str, Any] = {"hooks": [wanted]}
        if matcher is not None:
            group = {"matcher": matcher, **group}
        groups.append(group)
        changes += 1
    return result, changes


def uninstall_hooks(settings: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Settings without our handlers; groups and events left empty by the removal go too."""
    result = json.loads(json.dumps(settings))
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result, 0
    removed = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                kept_groups.append(group)
                continue
            kept = [h for h in handlers if our_event(h) is None]
            removed += len(handlers) - len(kept)
            if kept or not handlers:
                kept_groups.append({**group, "hooks": kept})
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not hooks:
        del result["hooks"]
    return result, removed


def _hooks_table(settings: dict[str, Any]) -> dict[str, Any]:
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConsolidateError('settings: "hooks" is not an object; fix it by hand first')
    return hooks


def read_settings(path: Path) -> dict[str, Any]:
    """The settings object ({} when the file does not exist); a broken file is an error, never overwritten."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ConsolidateError(f"cannot read {path}: {exc}") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConsolidateError(
            f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); fix it first"
        ) from None
    except RecursionError:
        raise ConsolidateError(f"{path} is JSON nested too deeply to read; fix it first") from None
    if not isinstance(data, dict):
        raise ConsolidateError(f"{path} does not hold a JSON object")
    return data


def write_settings(path: Path, settings: dict[str, Any], now: datetime | None = None) -> Path | None:
    """Back the current file up beside it, then write the new settings; returns the backup's path."""
    backup = None
    if path.exists():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S%fZ")
        backup = path.with_name(f"{path.name}.bak-{stamp}")
        shutil.copy2(path, backup)
    atomic_write(path, (json.dumps(settings, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return backup
