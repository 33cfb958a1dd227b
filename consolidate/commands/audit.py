"""consolidate audit [PROJECT] [--json]"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from .options import add_project, settings_of

if TYPE_CHECKING:
    from ..models import AuditReport

HELP = "verify what memory says against the code and git: stale, contradicting, duplicate and risky entries"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from ..audit import audit
    from ..runs import check_memory_files

    settings = settings_of(args)
    check_memory_files(settings)
    report = audit(settings, progress=_progress())
    from ..team.audit import with_team_findings

    report = with_team_findings(report, settings.layout)  # the team memory folder is a layer too
    if args.json:
        sys.stdout.write(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n")
        return 0
    _print_report(report, str(settings.memory_dir))
    return 0


def _progress() -> Callable[[int, int], None] | None:
    """Entries audited, on stderr, only on a terminal and only for a large memory."""
    from ..console import is_terminal

    if not is_terminal(sys.stderr):
        return None

    def show(done: int, total: int) -> None:
        if total >= 200:
            end = "\n" if done >= total else ""
            sys.stderr.write(f"\rconsolidate: audited {done}/{total} entries{end}")
            sys.stderr.flush()

    return show


def _print_report(report: AuditReport, memory_dir: str) -> None:
    from ..console import print_table

    out = sys.stdout
    out.write(f"memory dir: {memory_dir}\n")
    for note in report.notes:
        out.write(f"note: {note}\n")
    out.write(
        f"entries audited: {report.entries_audited} in {len(report.files)} file(s); "
        f"findings: {len(report.findings)}\n\n"
    )
    if report.files:
        layers = [
            [
                f.layer,
                f.file + (f" (imported by {f.imported_by})" if f.imported_by else ""),
                str(f.units),
                str(f.findings),
            ]
            for f in report.files
        ]
        print_table(["Layer", "File", "Audited", "Findings"], layers)
        out.write("\n")
    if not report.findings:
        out.write("no findings\n")
        return
    rows = [
        [
            f.category,
            f.action,
            f"{f.file}:{f.line}" if f.line else f.file,
            _short(f.entry),
            _short(f.evidence, 100),
        ]
        for f in report.findings
    ]
    print_table(["Category", "Action", "Where", "Entry", "Evidence"], rows)


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
