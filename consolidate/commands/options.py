"""The options commands share: one grammar for the project, checked the same way everywhere.

A command that works on a project takes it as PROJECT when it has no other positional argument, and
as `--project DIR` always; naming two different directories, or one that does not exist, is a usage
error. An explicit `--memory-dir` must exist too (a derived one may not exist yet).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from ..settings import Settings

PROJECT_HELP = "project directory (default: the current directory)"


def add_project(parser: argparse.ArgumentParser, *, positional: bool = True, keep: bool = False) -> None:
    """PROJECT (when `positional`) and `--project DIR`. `keep` leaves a value given before a
    subcommand alone (argparse.SUPPRESS), for commands with actions."""
    default = argparse.SUPPRESS if keep else None
    if positional:
        parser.add_argument("project", nargs="?", default=default, metavar="PROJECT", help=PROJECT_HELP)
    parser.add_argument(
        "--project", dest="project_option", default=default, metavar="DIR",
        help="the project directory (the same as PROJECT)" if positional else PROJECT_HELP,
    )  # fmt: skip


def project_of(args: argparse.Namespace) -> str | None:
    """The project directory the invocation names (None: the current directory)."""
    positional = getattr(args, "project", None)
    option = getattr(args, "project_option", None)
    if positional and option and os.path.realpath(positional) != os.path.realpath(option):
        raise UsageError(f"PROJECT {positional} and --project {option} name different directories")
    chosen = positional or option
    if chosen and not Path(chosen).expanduser().is_dir():
        raise UsageError(f"no such project directory: {chosen}")
    return str(Path(chosen).expanduser()) if chosen else None


def memory_dir_of(args: argparse.Namespace) -> str | None:
    chosen = getattr(args, "memory_dir", None)
    if chosen and not Path(chosen).expanduser().exists():
        raise UsageError(f"no such memory dir: {chosen}")
    return chosen  # one that is a file is refused by the run, in the same words for every way in


def settings_of(args: argparse.Namespace) -> Settings:
    """The invocation's Settings: its project, memory dir and Claude config dir, each checked."""
    from ..settings import load_settings

    return load_settings(
        project_of(args), memory_dir=memory_dir_of(args), home=getattr(args, "claude_home", None)
    )


def parse_ids(value: str | None) -> list[str] | None:
    """Comma-separated proposal ids as given (matching ignores case)."""
    if not value:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]
