"""consolidate snapshot [PROJECT] [--out DIR] [--since WHEN] [--json]"""

from __future__ import annotations

import argparse
import json
import sys

from .options import add_project, settings_of

HELP = "write the gather agents' task prompts for a Claude Code session (the plugin's dream skill)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument(
        "--out", metavar="DIR", help="folder for the tasks and reports (default: a new run folder)"
    )
    parser.add_argument(
        "--since",
        metavar="WHEN",
        help="mine sessions since WHEN (ISO date or 7d, 12h) instead of the last run",
    )
    parser.add_argument("--json", action="store_true", help="print where everything is as JSON")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..capture.queue import pending_items
    from ..console import warn
    from ..engines.handoff import write_handoff
    from ..status import read_marker
    from ..timeparse import since_option

    settings = settings_of(args)
    since = since_option(args.since) if args.since else read_marker(settings.memory_dir)
    layout = settings.layout
    try:
        items = pending_items(layout.git_root or layout.project, home=layout.claude_home)
    except Exception as exc:  # an unreadable queue must not stop the snapshot
        warn(f"capture queue not read: {exc}")
        items = []
    given = {"--claude-home": args.claude_home, "--memory-dir": args.memory_dir}
    handoff = write_handoff(
        settings, since, items, Path(args.out).absolute() if args.out else None, given=given
    )
    if args.json:
        sys.stdout.write(json.dumps(handoff.to_json(), indent=2) + "\n")
        return 0
    for agent, task in handoff.tasks.items():
        sys.stdout.write(f"{agent}: task {task}\n  save its JSON report to {handoff.reports[agent]}\n")
    if handoff.auditor_skipped:
        sys.stdout.write("MEMORY.md does not exist yet: the auditor has nothing to audit\n")
    sys.stdout.write(f"then run: {handoff.dream_command()}\n")
    return 0
