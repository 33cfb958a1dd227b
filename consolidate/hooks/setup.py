"""What `consolidate install` and `uninstall` do with their arguments."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..capture.places import claude_home, state_root
from ..errors import ConsolidateError
from .install import (
    default_python,
    hook_commands,
    install_hooks,
    launcher_path,
    package_dir,
    read_settings,
    settings_path,
    uninstall_hooks,
    write_launcher,
    write_settings,
)
from .wiring import enabled_plugin, settings_files


def change_settings(args: argparse.Namespace, project: Path | None, *, install: bool) -> int:
    """Install into (or uninstall from) the user's settings, or `project`'s when it is given."""
    home = claude_home(args.claude_home)
    path = settings_path(home, project)
    current = read_settings(path)
    if install:
        refuse_double_wiring(home, project, path)
        state = state_root(home)
        commands = hook_commands(launcher_path(state), args.python or default_python(), package_dir())
        updated, changes = install_hooks(current, commands)
    else:
        updated, changes = uninstall_hooks(current)
    if args.dry_run:
        sys.stdout.write(json.dumps(updated, indent=2, ensure_ascii=False) + "\n")
        sys.stderr.write(f"dry run: {changes} change(s) to {path} not written\n")
        return 0
    if install:
        write_launcher(state)  # refreshed on every install: it may be older than this version
    if not changes:
        sys.stdout.write(f"{'already installed in' if install else 'no consolidate hooks in'} {path}\n")
        return 0
    backup = write_settings(path, updated)
    verb = "installed/updated" if install else "removed"
    note = f" (backup: {backup})" if backup else ""
    sys.stdout.write(f"{verb} {changes} consolidate hook(s) in {path}{note}\n")
    return 0


def refuse_double_wiring(home: Path, project: Path | None, target: Path) -> None:
    """The plugin wires the same hooks: installing them too would run every hook twice."""
    found = enabled_plugin(settings_files(home, project))
    if found is not None:
        where, plugin = found
        raise ConsolidateError(
            f"the {plugin} plugin is enabled in {where} and runs these hooks already; installing them in "
            f"{target} too would run each hook twice (use the plugin alone, or `claude plugin disable "
            f"{plugin}` first)"
        )
