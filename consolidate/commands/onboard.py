"""consolidate onboard [PROJECT] [--out FILE] [--json] [--seed [--yes | --only IDS] [--dry-run]]"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, parse_ids, settings_of

HELP = (
    "a newcomer brief from the team memory and CLAUDE.md (build and test, conventions, gotchas, decisions, "
    "commands), stale entries flagged; --seed offers the team's entries to your own memory"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--out", metavar="FILE", help="write the brief to FILE instead of stdout")
    parser.add_argument("--json", action="store_true", help="the brief as JSON")
    parser.add_argument(
        "--seed",
        action="store_true",
        help="also propose the team's entries for your own memory dir (what you lack; journaled, undoable)",
    )
    parser.add_argument("--yes", "-y", action="store_true", help="with --seed: apply every proposal")
    parser.add_argument("--only", help="with --seed: apply only these proposal ids, e.g. P1,P3")
    parser.add_argument(
        "--dry-run", action="store_true", help="with --seed: show the proposals, write nothing"
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..errors import UsageError
    from ..team.onboard import OnboardOptions, run_onboard

    if (args.yes or args.only or args.dry_run) and not args.seed:
        raise UsageError("--yes, --only and --dry-run go with --seed: without it onboard writes no memory")
    if args.yes and args.only:
        raise UsageError("--yes and --only are exclusive: --only already says what to apply")
    settings = settings_of(args)
    options = OnboardOptions(
        out=Path(args.out) if args.out else None,
        json=args.json,
        seed=args.seed,
        yes=args.yes,
        only=parse_ids(args.only),
        dry_run=args.dry_run,
    )
    report = run_onboard(settings, options, out=sys.stdout, err=sys.stderr, stdin=sys.stdin)
    return 0 if report is None or report.ok else 1
