"""consolidate install [--scope user|project] [PROJECT] [--dry-run] [--python PY]"""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import add_project

SHARED = ("claude-home",)
HELP = (
    "wire the consolidate hooks into Claude Code settings (idempotent; other hooks are kept; backed up first)"
)


def add_scope(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scope", choices=["user", "project"], default="user", type=str.lower,
        help="user: <claude-home>/settings.json (default); project: PROJECT's .claude/settings.json",
    )  # fmt: skip
    add_project(parser)
    parser.add_argument("--dry-run", action="store_true", help="print the resulting settings without writing")


def scoped_project(args: argparse.Namespace) -> Path | None:
    """The project whose settings are edited (None: the user's), refusing a project without the scope."""
    import os

    from ..errors import UsageError
    from .options import project_of

    project = project_of(args)
    if args.scope == "user":
        if project is not None:
            raise UsageError("a project is only used with --scope project")
        return None
    return Path(os.path.realpath(project or "."))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scope(parser)
    parser.add_argument(
        "--python", metavar="PY",
        help="the interpreter the hooks try first (default: the one running this command)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from ..hooks.setup import change_settings

    return change_settings(args, scoped_project(args), install=True)
