"""consolidate learnings capture | score | lint | promote ID | archive ID | bump ID | confirm ID | report"""

from __future__ import annotations

import argparse

from .options import add_project

SHARED = ("claude-home",)
HELP = "the learnings engine: capture episodes (JSON on stdin), score, lint, promote, archive, bump, report"
ACTIONS = {
    "capture": "record episodes read as JSON on stdin (an object, an array or JSON lines)",
    "score": "list episodes by score",
    "lint": "HOT (freq ≥ 3: change the system), PROMOTE (score > 0.8), STALE (score < 0.15)",
    "promote": "propose an episode's rule for the project's CLAUDE.md (reviewed, then applied)",
    "archive": "retire an episode",
    "confirm": "let a guard lesson the assistant wrote deny the calls it matches (until then it only advises)",
    "bump": "count a repeat of an episode",
    "report": "a Markdown report for the owner",
}


def add_scope_options(parser: argparse.ArgumentParser, top: bool = False, positional: bool = False) -> None:
    """Options every action takes; SUPPRESS keeps a value given before the action."""
    add_project(parser, positional=positional, keep=True)
    parser.add_argument(
        "--global", dest="global_store", action="store_true", default=argparse.SUPPRESS,
        help="use the global store (lessons for every project) instead of the project's",
    )  # fmt: skip
    if not top:  # the command itself gets --claude-home from the common options
        parser.add_argument("--claude-home", default=argparse.SUPPRESS, help="Claude config dir")
    parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scope_options(parser, top=True)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, text in ACTIONS.items():
        action = actions.add_parser(name, help=text, description=text)
        with_id = name in ("promote", "archive", "bump", "confirm")
        if with_id:
            action.add_argument("id", help="episode id, e.g. EP-20260411-007 (any case)")
        add_scope_options(action, positional=not with_id)
        if name == "promote":
            action.add_argument("--yes", "-y", action="store_true", help="apply without asking")
            action.add_argument("--plan-out", help="write the plan to this file instead of applying it")
            action.add_argument(
                "--section", default="Learnings", help="CLAUDE.md section (default: Learnings)"
            )
        if name == "score":
            action.add_argument("--all", action="store_true", help="include promoted and archived episodes")


def run(args: argparse.Namespace) -> int:
    from ..learnings import actions

    return actions.run_action(args)
