"""consolidate dream [PROJECT] [--engine E] [--fallback offline] …"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, settings_of

HELP = "consolidate memory: audit what is remembered, mine recent sessions, review and apply the diffs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument(
        "--engine",
        help="offline (default), claude-sdk, anthropic, reports:DIR (saved agent reports), scripted:FILE, fake:NAME",
    )
    parser.add_argument(
        "--yes", "-y", action="store_true", help="apply every proposal without asking (not L0)"
    )
    parser.add_argument("--only", help="apply only these proposal ids, e.g. P1,P3")
    parser.add_argument(
        "--keep", metavar="IDS", help="also apply these proposals set aside as already recorded, e.g. P5"
    )
    parser.add_argument(
        "--retire",
        metavar="IDS",
        help="reject these learnings set aside as contradicting a remembered entry, e.g. S1: they are not proposed again",
    )
    parser.add_argument("--dry-run", action="store_true", help="show the proposals, write nothing")
    parser.add_argument(
        "--json", action="store_true", help="print the plan as JSON on stdout (messages on stderr)"
    )
    parser.add_argument(
        "--plan-out", metavar="FILE", help="write the plan to FILE (apply it later with `consolidate apply`)"
    )
    parser.add_argument(
        "--prepare",
        action="store_true",
        help="apply nothing: keep the plan as the pending plan for `consolidate review`",
    )
    parser.add_argument("--background", action="store_true", help=argparse.SUPPRESS)  # SessionEnd, timers
    parser.add_argument(
        "--since",
        metavar="WHEN",
        help="mine sessions since WHEN (ISO date or 7d, 12h) instead of the last consolidation",
    )
    parser.add_argument(
        "--max-add", type=int, default=7, metavar="N", help="at most N new learnings per run (default 7)"
    )
    parser.add_argument(
        "--fallback", choices=["offline"],
        help="when the engine cannot run (no credentials, no CLI), use the offline engine instead of failing",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import UsageError

    if args.background:  # unattended: every failure, even an import, is one line in periodic.log
        if args.yes or args.only or args.retire or args.dry_run or args.json or args.plan_out:
            raise UsageError("--background prepares a pending plan and nothing else")
        from ..periodic.background import background_main

        return background_main(args)
    from ..dream.run import DreamOptions, check_options, run_dream
    from ..timeparse import since_option
    from .options import parse_ids

    if not 1 <= args.max_add <= 50:
        raise UsageError("--max-add must be between 1 and 50")
    options = DreamOptions(
        engine=args.engine,
        yes=args.yes,
        only=parse_ids(args.only),
        keep=parse_ids(args.keep),
        retire=parse_ids(args.retire),
        dry_run=args.dry_run,
        json=args.json,
        plan_out=Path(args.plan_out) if args.plan_out else None,
        since=since_option(args.since) if args.since else None,
        max_add=args.max_add,
        prepare=args.prepare,
        fallback=args.fallback,
    )
    check_options(options)
    settings = settings_of(args)
    result = run_dream(settings, options, out=sys.stdout, err=sys.stderr, stdin=sys.stdin)
    return 0 if result.report is None or result.report.ok else 1
