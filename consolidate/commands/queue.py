"""consolidate queue status | peek [--json] [--channel C] | ack ID…"""

from __future__ import annotations

import argparse

HELP = "the capture queue of this project: pending counts, the items, and ack (a unique id prefix will do)"


def _scope(parser: argparse.ArgumentParser, top: bool = False) -> None:
    parser.add_argument("--project", default=argparse.SUPPRESS, help="project directory (default: cwd)")
    if not top:  # the command itself gets --claude-home from the common options
        parser.add_argument("--claude-home", default=argparse.SUPPRESS, help="Claude config dir")
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _scope(parser, top=True)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    status = actions.add_parser("status", help="pending items per channel")
    peek = actions.add_parser("peek", help="list the pending items")
    peek.add_argument("--channel", help="only this channel")
    ack = actions.add_parser("ack", help="mark items processed (deletes them; they never come back)")
    ack.add_argument("ids", nargs="+", metavar="ID", help="item id or a unique prefix of one")
    for action in (status, peek, ack):
        _scope(action)


def run(args: argparse.Namespace) -> int:
    from ..capture.cli import run_queue

    return run_queue(args)
