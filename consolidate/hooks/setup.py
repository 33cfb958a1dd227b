"""What `consolidate install` and `uninstall` do with their arguments."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..capture.places import claude_home
from .install import (
    default_launcher,
    install_hooks,
    read_settings,
    settings_path,
    uninstall_hooks,
    write_settings,
)


def change_settings(args: argparse.Namespace, *, install: bool) -> int:
    project = Path(os.path.realpath(args.project)) if args.project else None
    path = settings_path(claude_home(args.claude_home), project)
    current = read_settings(path)
    if install:
        updated, changes = install_hooks(current, getattr(args, "launcher", None) or default_launcher())
    else:
        updated, changes = uninstall_hooks(current)
    if args.dry_run:
        sys.stdout.write(json.dumps(updated, indent=2, ensure_ascii=False) + "\n")
        sys.stderr.write(f"dry run: {changes} change(s) to {path} not written\n")
        return 0
    if not changes:
        sys.stdout.write(f"{'already installed in' if install else 'no consolidate hooks in'} {path}\n")
        return 0
    backup = write_settings(path, updated)
    verb = "installed/updated" if install else "removed"
    note = f" (backup: {backup})" if backup else ""
    sys.stdout.write(f"{verb} {changes} consolidate hook(s) in {path}{note}\n")
    return 0
