"""consolidate uninstall [--project [DIR]] [--dry-run]"""

from __future__ import annotations

import argparse

HELP = "remove the consolidate hooks from Claude Code settings (only ours; backed up first)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--project", nargs="?", const=".", metavar="DIR",
        help="edit the project's .claude/settings.json instead of <claude-home>/settings.json",
    )  # fmt: skip
    parser.add_argument("--dry-run", action="store_true", help="print the resulting settings without writing")


def run(args: argparse.Namespace) -> int:
    from ..hooks.setup import change_settings

    return change_settings(args, install=False)
