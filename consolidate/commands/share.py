"""consolidate share [PROJECT] [--yes | --only IDS] [--dry-run] [--json] [--include-personal] | --check"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, parse_ids, settings_of

HELP = (
    "share project memory with the team through git: review what goes to .claude/team-memory/ "
    "(journaled, undoable, never committed); --check finds secrets, dangling pointers, an over-budget index"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--yes", "-y", action="store_true", help="share every proposed entry without asking")
    parser.add_argument("--only", help="share only these proposal ids, e.g. P1,P3")
    parser.add_argument("--dry-run", action="store_true", help="show the proposals, write nothing")
    parser.add_argument(
        "--json", action="store_true", help="print the plan as JSON on stdout (messages on stderr)"
    )
    parser.add_argument(
        "--include-personal",
        action="store_true",
        help="also propose personal preferences (type: user, how to talk to you), kept back by default",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the team folder only (exit 1 on a secret, a dangling pointer or an over-budget index)",
    )


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError

    settings = settings_of(args)
    if args.check:
        from ..team.check import check_team, print_check

        if args.yes or args.only or args.include_personal:
            raise UsageError(
                "--check only reads the team folder: it takes no --yes, --only or --include-personal"
            )
        result = check_team(settings.layout)
        print_check(result, sys.stdout, json_output=args.json)
        return 1 if result.problems else 0
    if args.yes and args.only:
        raise UsageError("--yes and --only are exclusive: --only already says what to apply")
    from ..team.sharing import ShareOptions, run_share

    options = ShareOptions(
        yes=args.yes,
        only=parse_ids(args.only),
        dry_run=args.dry_run,
        json=args.json,
        include_personal=args.include_personal,
    )
    report = run_share(settings, options, out=sys.stdout, err=sys.stderr, stdin=sys.stdin)
    return 0 if report is None or report.ok else 1
