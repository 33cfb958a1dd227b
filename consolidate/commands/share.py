"""consolidate share [PROJECT] [--yes | --only IDS] [--dry-run] [--json] [--include-personal] | --check"""

from __future__ import annotations

import argparse
import sys

HELP = (
    "share project memory with the team through git: review what goes to .claude/team-memory/ "
    "(journaled, undoable, never committed); --check finds secrets, dangling pointers, an over-budget index"
)


def add_project(parser: argparse.ArgumentParser) -> None:
    """PROJECT, and `--project DIR` for the same."""
    parser.add_argument("project", nargs="?", help="project directory (default: the current directory)")
    parser.add_argument("--project", dest="project_option", metavar="DIR", help="the same as PROJECT")


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
    from ..settings import load_settings
    from .apply import parse_ids

    project = project_of(args)
    settings = load_settings(project, memory_dir=args.memory_dir, home=args.claude_home)
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


def project_of(args: argparse.Namespace) -> str | None:
    """PROJECT or --project DIR (both naming the same directory)."""
    import os

    from ..errors import UsageError

    positional, option = args.project, args.project_option
    if positional and option and os.path.realpath(positional) != os.path.realpath(option):
        raise UsageError(f"PROJECT {positional} and --project {option} name different directories")
    return positional or option
