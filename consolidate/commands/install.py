"""consolidate install [--project [DIR]] [--dry-run]"""

from __future__ import annotations

import argparse

HELP = (
    "wire the consolidate hooks into Claude Code settings (idempotent; other hooks are kept; backed up first)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--project", nargs="?", const=".", metavar="DIR",
        help="write the project's .claude/settings.json (DIR defaults to the current directory) instead of <claude-home>/settings.json",
    )  # fmt: skip
    parser.add_argument("--dry-run", action="store_true", help="print the resulting settings without writing")
    parser.add_argument(
        "--command", dest="launcher", help="how hooks start consolidate (default: this Python -m consolidate)"
    )


def run(args: argparse.Namespace) -> int:
    from ..hooks.setup import change_settings

    return change_settings(args, install=True)
