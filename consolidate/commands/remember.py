"""consolidate remember TEXT"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, settings_of

HELP = "remember one fact or rule now: duplicate check, layer choice, one reviewed change (no agents)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", help='what to remember, e.g. "when deploying: run the smoke tests first"')
    add_project(parser, positional=False)
    parser.add_argument(
        "--layer",
        type=str.upper,
        choices=["L0", "L1", "L2", "L3"],
        help="where it belongs (default: chosen from the text)",
    )
    parser.add_argument("--section", help="MEMORY.md section (default: by kind)")
    parser.add_argument("--yes", "-y", action="store_true", help="apply without asking (never for L0)")


def run(args: argparse.Namespace) -> int:
    from ..console import is_terminal
    from ..dream.remember import remember

    settings = settings_of(args)
    report = remember(  # with no terminal and no --yes: the change shown, and why it was not applied
        settings,
        args.text,
        layer=args.layer,
        section=args.section,
        yes=args.yes,
        out=sys.stdout,
        confirmable=is_terminal(sys.stdin),
    )
    return 0 if report is None or report.ok else 1
