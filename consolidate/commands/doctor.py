"""consolidate doctor [PROJECT] [--json]"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..doctor import DoctorReport

HELP = "audit the memory setup: sizes, pointers, secrets, git ignores, hooks, guards, queue, handoff"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("project", nargs="?", help="project directory (default: the current directory)")
    parser.add_argument("--project", dest="project_option", metavar="DIR", help="the project, as an option")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..doctor import run_doctor
    from ..errors import UsageError
    from ..settings import load_settings

    if args.project and args.project_option:
        raise UsageError("doctor: give the project once (PROJECT or --project DIR)")
    project = args.project or args.project_option
    if project is not None and not Path(project).is_dir():
        raise UsageError(f"doctor: no such project directory: {project}")
    report = run_doctor(load_settings(project, memory_dir=args.memory_dir, home=args.claude_home))
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        _print_report(report)
    return 1 if report.failed else 0


def _print_report(report: DoctorReport) -> None:
    out = sys.stdout
    out.write(f"consolidate doctor: {report.project}\n")
    width = max(len(c.id) for c in report.checks)
    for check in report.checks:
        out.write(f"{check.status.upper():4}  {check.id:{width}}  {check.detail}\n")
        if check.fix and check.status != "pass":
            out.write(f"      {'':{width}}  fix: {check.fix}\n")
    warnings = sum(1 for c in report.checks if c.status == "warn")
    note = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
    out.write(f"passed {report.passed}/{len(report.checks)}{note}\n")
