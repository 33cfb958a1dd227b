"""consolidate apply PLAN [--project DIR] [--only P1,P3] [--yes] [--reject P2,G1|all]"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, parse_ids, settings_of

HELP = "apply a plan's proposals (all with --yes, or the ones named by --only) — journaled, undoable"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("plan", help="plan file written by `consolidate dream --plan-out` (or by hand)")
    add_project(parser, positional=False)
    parser.add_argument("--only", help="comma-separated proposal ids to apply, e.g. P1,P3")
    parser.add_argument(
        "--yes", "-y", action="store_true", help="apply without asking (L0 changes still need --only)"
    )
    parser.add_argument(
        "--reject",
        help="apply nothing and retire these learnings (ids, a set-aside one's S1 too, or `all` proposals), "
        "so they are not proposed again",
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..applying import run_apply
    from ..plan import check_plan_matches, load_plan

    settings = settings_of(args)
    plan = load_plan(Path(args.plan))
    # The write scope comes from this invocation, never from the plan: a plan only says what it was made for.
    check_plan_matches(plan, settings)
    if args.reject:
        from ..applying import reject_plan
        from ..errors import UsageError

        if args.only or args.yes:
            raise UsageError("--reject applies nothing: it cannot be combined with --only or --yes")
        reject = parse_ids(args.reject) or []
        reject_plan(plan, settings, None if [r.lower() for r in reject] == ["all"] else reject, sys.stdout)
        return 0
    report = run_apply(
        plan, settings, only=parse_ids(args.only), yes=args.yes, stdin=sys.stdin, out=sys.stdout
    )
    return 0 if report is None or report.ok else 1
