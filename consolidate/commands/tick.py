"""consolidate tick [--project DIR] [--json]"""

from __future__ import annotations

import argparse

HELP = "queue the markers this project's transcripts gained since the last tick; say what is pending"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--project", help="project directory (default: the current directory)")
    parser.add_argument("--transcript", help="the live session's transcript (the watchdog speaks for it)")
    parser.add_argument(
        "--max-bytes", type=int, help="read at most about this many bytes (default: no limit)"
    )
    parser.add_argument("--json", action="store_true", help="print what the tick did as JSON")


def run(args: argparse.Namespace) -> int:
    import json
    import os
    import sys
    from datetime import UTC, datetime
    from pathlib import Path

    from ..capture.config import load_config
    from ..capture.places import claude_home, repo_root, state_root
    from ..capture.tick import TickScope, run_tick

    home = claude_home(args.claude_home)
    state = state_root(home)
    cwd = os.path.realpath(args.project or os.getcwd())
    config = load_config(state, repo_root(cwd))
    for problem in config.problems:
        sys.stderr.write(f"consolidate: {problem}\n")
    live = Path(args.transcript) if args.transcript else None
    scope = TickScope(home, state, cwd, config, live_transcript=live, byte_budget=args.max_bytes)
    result = run_tick(scope, datetime.now(UTC))
    if args.json:
        data = {
            "added": result.added,
            "lessons": result.lessons,
            "lines": result.lines(),
            **result.stats.to_dict(),
        }
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    elif result.lines():
        sys.stdout.write("\n".join(result.lines()) + "\n")
    return 0
