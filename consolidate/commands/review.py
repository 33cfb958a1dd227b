"""consolidate review [PROJECT]"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, parse_ids, settings_of

HELP = "review the pending plan a background dream prepared (rebuilt first when its files changed)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument(
        "--engine", help="engine for a rebuild of a stale plan (default: the one that made it)"
    )
    parser.add_argument(
        "--yes", "-y", action="store_true", help="apply every proposal without asking (not L0)"
    )
    parser.add_argument("--only", help="apply only these proposal or group ids, e.g. P1,G2")
    parser.add_argument(
        "--reject", action="store_true", help="reject the whole plan: apply nothing and let it go"
    )
    parser.add_argument(
        "--retire",
        metavar="IDS",
        help="reject these learnings set aside as contradicting a remembered entry, e.g. S1: they are not proposed again",
    )
    parser.add_argument("--dry-run", action="store_true", help="show the pending plan, write nothing")
    parser.add_argument(
        "--json", action="store_true", help="print the plan as JSON on stdout (messages on stderr)"
    )


def run(args: argparse.Namespace) -> int:
    from ..dream.run import DreamOptions, check_options
    from ..errors import UsageError
    from ..periodic.review import review_pending

    options = DreamOptions(
        engine=args.engine,
        yes=args.yes,
        only=parse_ids(args.only),
        retire=parse_ids(args.retire),
        dry_run=args.dry_run,
        json=args.json,
        undecided="or --reject; the plan stays pending",
    )
    check_options(options)
    if args.reject and (args.yes or args.only or args.dry_run):
        raise UsageError("--reject decides alone: not with --yes, --only or --dry-run")
    settings = settings_of(args)
    result = review_pending(
        settings, options, out=sys.stdout, err=sys.stderr, stdin=sys.stdin, reject=args.reject
    )
    return 0 if result is None or result.report is None or result.report.ok else 1
