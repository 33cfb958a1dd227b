"""consolidate eval [--seeds N] [--json]"""

from __future__ import annotations

import argparse
import json
import sys

SHARED: tuple[str, ...] = ()  # runs its own scenarios: no project, memory dir or config dir
HELP = "measure the dream on labeled, seeded scenarios: precision/recall per phase, false REMOVEs, leaks"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", type=int, default=4, metavar="N", help="number of scenarios (default 4)")
    parser.add_argument("--first-seed", type=int, default=1, metavar="S", help="seed of the first scenario")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")


def run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..evaluate.report import print_report
    from ..evaluate.run import run_eval

    if not 1 <= args.seeds <= 200:
        raise UsageError("--seeds must be between 1 and 200")
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))

    def progress(text: str) -> None:
        sys.stderr.write(f"scenario {text}\n")

    result = run_eval(seeds, progress=progress)
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    else:
        print_report(result, sys.stdout)
    return 1 if args.strict and not all(result["targets"].values()) else 0
