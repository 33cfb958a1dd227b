"""consolidate recall QUERY [PROJECT] [--json] [--limit N] [--since WHEN] | recall --update [PROJECT]"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "search what was said in this project's past sessions and in its memory files (BM25, offline)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "query", nargs="?", help="what to look for, in plain words (any of our four languages)"
    )
    parser.add_argument("project", nargs="?", help="project directory (default: the current directory)")
    parser.add_argument("--project", dest="project_option", metavar="DIR", help="the project, as an option")
    parser.add_argument("--json", action="store_true", help="print the hits as JSON")
    parser.add_argument("--limit", type=int, default=10, metavar="N", help="at most N hits (default 10)")
    parser.add_argument(
        "--since", metavar="WHEN", help="only session hits after WHEN: an ISO date/time or an age such as 7d"
    )
    parser.add_argument(
        "--update", action="store_true", help="only bring the index up to date (then PROJECT may come first)"
    )
    parser.add_argument("--rebuild", action="store_true", help="drop the index and read everything again")
    parser.add_argument(
        "--no-update", action="store_true", help="search the index as it is, reading nothing new"
    )


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..recall.api import index_scope, recall, refresh
    from ..settings import load_settings
    from ..timeparse import since_option

    query, project = _positionals(args)
    if args.limit < 1:
        raise UsageError("--limit: must be at least 1")
    since = since_option(args.since) if args.since else None
    settings = load_settings(project, memory_dir=args.memory_dir, home=args.claude_home)
    if args.update or args.rebuild and not query:
        stats = refresh(settings, rebuild=args.rebuild)
        _write_update(stats.to_dict(), str(index_scope(settings).index), args.json)
        return 0
    if args.rebuild:
        refresh(settings, rebuild=True)
    result = recall(
        settings, query or "", limit=args.limit, since=since, update=not (args.no_update or args.rebuild)
    )
    for note in result.notes:
        sys.stderr.write(f"consolidate: {note}\n")
    if args.json:
        document = result.to_dict(str(index_scope(settings).index))
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return 0
    _print_hits(result)
    return 0


def _positionals(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """(query, project); with --update the one positional given is the project."""
    from pathlib import Path

    from ..errors import UsageError

    query, project = args.query, args.project
    if (args.update or args.rebuild) and project is None and query is not None and Path(query).is_dir():
        query, project = None, query
    if args.project_option:
        if project is not None:
            raise UsageError("recall: give the project once (PROJECT or --project DIR)")
        project = args.project_option
    if project is not None and not Path(project).is_dir():
        raise UsageError(f"recall: no such project directory: {project}")
    if query is None and not (args.update or args.rebuild):
        raise UsageError("recall: a QUERY is required (or --update to only refresh the index)")
    return query, project


def _write_update(stats: dict[str, Any], index: str, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps({"index": {"path": index, **stats}}, indent=2) + "\n")
        return
    sys.stdout.write(
        f"index: {stats['sessions']} session(s), {stats['read']} read now, {stats['unchanged']} unchanged; "
        f"{stats['memory_files']} memory file(s), {stats['memory_changed']} re-read; "
        f"{stats['added']} text(s) added, {stats['removed']} removed ({index})\n"
    )


def _print_hits(result: Any) -> None:
    from ..console import use_colour

    out = sys.stdout
    mark = ("\033[1m", "\033[0m") if use_colour(out) else ("", "")
    for number, hit in enumerate(result.hits, 1):
        if hit.memory_file:
            where = f"memory {hit.memory_file}:{hit.line}"
        else:
            when = hit.timestamp[:16].replace("T", " ")
            where = f"session {hit.session} {when} {hit.role}" + (
                f" ({hit.kind})" if hit.kind != "said" else ""
            )
        out.write(f"{number}. {where}\n   {hit.snippet(result.terms, mark=mark)}\n")
    count = len(result.hits)
    out.write(f"{count} hit{'' if count == 1 else 's'} for {result.query!r}\n")
