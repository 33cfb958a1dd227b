"""consolidate queue status [PROJECT] | peek [PROJECT] [--json] [--channel C] | ack ID…"""

from __future__ import annotations

import argparse

from .options import add_project

SHARED = ("claude-home",)
HELP = "the capture queue of this project: pending counts, the items, and ack (a unique id prefix will do)"


def _scope(parser: argparse.ArgumentParser, *, positional: bool, top: bool = False) -> None:
    add_project(parser, positional=positional, keep=True)
    if not top:  # the command itself gets --claude-home from the shared options
        parser.add_argument("--claude-home", default=argparse.SUPPRESS, help="Claude config dir")
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _scope(parser, positional=False, top=True)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    status = actions.add_parser("status", help="pending items per channel")
    _scope(status, positional=True)
    peek = actions.add_parser("peek", help="list the pending items")
    peek.add_argument("--channel", help="only this channel")
    _scope(peek, positional=True)
    ack = actions.add_parser("ack", help="mark items processed (deletes them; they never come back)")
    ack.add_argument("ids", nargs="+", metavar="ID", help="item id or a unique prefix of one (any case)")
    _scope(ack, positional=False)


def run(args: argparse.Namespace) -> int:
    from ..capture.cli import run_queue

    return run_queue(args)
