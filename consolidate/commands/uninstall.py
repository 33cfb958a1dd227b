"""consolidate uninstall [--scope user|project] [PROJECT] [--dry-run]"""

from __future__ import annotations

import argparse

from .install import add_scope, scoped_project

SHARED = ("claude-home",)
HELP = "remove the consolidate hooks from Claude Code settings (only ours; backed up first)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scope(parser)


def run(args: argparse.Namespace) -> int:
    from ..hooks.setup import change_settings

    return change_settings(args, scoped_project(args), install=False)
