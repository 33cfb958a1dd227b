"""consolidate tick [PROJECT] [--json]"""

from __future__ import annotations

import argparse

from .options import add_project

SHARED = ("claude-home",)
HELP = "queue the markers this project's transcripts gained since the last tick; say what is pending"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--transcript", help="the live session's transcript (the watchdog speaks for it)")
    parser.add_argument(
        "--max-bytes", type=int, help="read at most about this many bytes (default: no limit)"
    )
    parser.add_argument("--json", action="store_true", help="print what the tick did as JSON")


def run(args: argparse.Namespace) -> int:
    from ..capture.cli import run_tick_command

    return run_tick_command(args)
