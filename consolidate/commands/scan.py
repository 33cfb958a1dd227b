"""consolidate scan [PROJECT] [--json] [--since WHEN] [--transcripts DIR] [--all]"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .options import add_project, settings_of

HELP = "mine the sessions since the last consolidation for learnings (offline, no model calls)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--json", action="store_true", help="print the discovery report as JSON")
    parser.add_argument(
        "--since",
        metavar="WHEN",
        help="only sessions after WHEN: an ISO date/time or an age such as 7d, 12h, 2w",
    )
    parser.add_argument("--all", action="store_true", help="every session, whatever the last consolidation")
    parser.add_argument(
        "--transcripts",
        metavar="DIR",
        help="a folder of session transcripts to read instead of the project's",
    )


def run(args: argparse.Namespace) -> int:
    import gc

    from ..transcripts.session import paused_gc

    # What a scan builds (records, signals, the report) holds no cycles: it is freed by reference
    # counting, and collections would only walk it again and again (a few percent of a scan). What
    # is left when it is done joins the oldest generation, so that the first collection after it
    # does not walk it all either.
    with paused_gc():
        try:
            return _run(args)
        finally:
            gc.freeze()
            gc.unfreeze()


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..discover import find_candidates, load_memory_texts
    from ..errors import UsageError

    since = None
    if args.since:
        from ..timeparse import since_option

        since = since_option(args.since)
    directory = Path(args.transcripts).expanduser() if args.transcripts else None
    if directory is not None and not directory.is_dir():
        raise UsageError(f"--transcripts: no such directory: {directory}")
    settings = settings_of(args)
    report = find_candidates(
        settings, load_memory_texts(settings), since=since, transcripts_dir=directory,
        progress=_progress_printer(), every=args.all and since is None,
    )  # fmt: skip
    if args.json:
        sys.stdout.write(json.dumps(_as_json(report, directory or settings.layout.transcripts_dir), indent=2,
                                    ensure_ascii=False) + "\n")  # fmt: skip
        return 0
    _print_report(report)
    if not report.sessions_scanned:  # a wrong project key or Claude home shows as no session at all
        from ..transcripts import find_transcripts

        folder = directory or settings.layout.transcripts_dir
        if not find_transcripts(folder):
            sys.stdout.write(f"no session transcript in {folder}\n")
    return 0


def _progress_printer() -> Any:
    from ..console import is_terminal

    if not is_terminal(sys.stderr):
        return None

    def show(done: int, total: int, path: str) -> None:
        sys.stderr.write(f"\rscanning {done}/{total} transcripts…" + ("\n" if done == total else ""))
        sys.stderr.flush()

    return show


def _as_json(report: Any, directory: Any) -> dict[str, Any]:
    from ..discover.candidates import pointer_line

    document = report.to_dict()
    for item, candidate in zip(document["candidates"], report.candidates, strict=True):
        item["pointer"] = pointer_line(candidate)
    document["transcripts_dir"] = str(directory)
    return dict(document)


def _print_report(report: Any) -> None:
    from ..console import print_table
    from ..discover.candidates import pointer_line

    out = sys.stdout
    rows = [
        [i, c.kind, c.category, c.layer, f"{c.confidence:.2f}", c.frequency, pointer_line(c)]
        for i, c in enumerate(report.candidates, 1)
    ]
    if rows:
        print_table(["#", "Kind", "Category", "Layer", "Conf", "Freq", "Learning"], rows)
    stats = report.stats
    skipped = sum(stats.get(k, 0) for k in ("bad_json", "oversized", "incomplete_tail"))
    out.write(
        f"{len(report.candidates)} candidate(s) from {report.sessions_scanned} session(s)"
        f"; {stats.get('signals', 0)} signal(s) found, {skipped} bad line(s) skipped\n"
    )
