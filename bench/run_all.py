"""Every benchmark, one after another (`make bench`): each prints its own figures; what needs the shared
corpus is skipped, saying so, when `../shared/corpus` is not there (a fresh clone).

By default each bench runs at a size that keeps the whole set within a few minutes on a 2-core machine;
`--full` runs each with its own defaults (the numbers the README quotes; dream_scale alone builds
1 GB of transcripts then). Modules starting with `_` are helpers, not benches.

    python bench/run_all.py                      # every bench, quick sizes
    python bench/run_all.py --only hooks,fuzz    # some of them
    python bench/run_all.py --full               # the README's sizes
    python bench/run_all.py --list               # what would run, and what would be skipped
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CORPUS = BENCH.parent.parent / "shared" / "corpus"


@dataclass(frozen=True)
class Bench:
    name: str
    quick: tuple[str, ...] = ()  # arguments for the routine run
    corpus: str = ""  # "needs": skipped without the corpus; "uses": runs, skips its corpus part
    corpus_option: bool = True  # takes --corpus PATH (else it reads ../shared/corpus itself)


BENCHES = (
    Bench("hooks", ("--runs", "20", "--repeats", "3", "--launcher-only"), corpus="uses"),
    Bench("hooks_cli", ("--rounds", "4", "--repeats", "3"), corpus_option=False),
    Bench("audit_devset", ("--seeds", "3")),
    Bench("audit_speed", ("--files", "2000", "--entries", "500")),
    Bench("scan_devset"),
    Bench("dream_scale", ("--sizes", "small")),
    Bench("fuzz", ("2",)),
    Bench("audit_corpus", corpus="needs"),
    Bench("audit_real", corpus="needs"),
    Bench("scan_corpus", ("--scales", "1", "--rounds", "3"), corpus="needs"),
    Bench("recall", ("--rounds", "1", "--runs", "10"), corpus="needs", corpus_option=False),
    Bench("scan_history", corpus="needs"),
    Bench("matcher_history", corpus="needs"),
    Bench("matcher_leave_one_out", corpus="needs"),
    Bench("tspec_cases", corpus="needs"),
    Bench("llm_fidelity", corpus_option=False),  # skips, saying so, without the saved agent reports
    Bench("dedup_measure", corpus_option=False),
    Bench("growth"),
    Bench("secret_corpus", ("1",)),
    Bench("kill_loop", ("10",)),
)


def command(bench: Bench, full: bool, corpus: Path) -> list[str]:
    args = [] if full else list(bench.quick)
    if bench.corpus and bench.corpus_option:
        args += ["--corpus", str(corpus)]
    return [sys.executable, str(BENCH / f"{bench.name}.py"), *args]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated bench names (default: all)")
    parser.add_argument("--full", action="store_true", help="each bench at its own default size")
    parser.add_argument("--list", action="store_true", help="print what would run and exit")
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the shared corpus (default: ../shared/corpus)"
    )
    args = parser.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else {b.name for b in BENCHES}
    unknown = wanted - {b.name for b in BENCHES}
    if unknown:
        parser.error(f"unknown bench(es): {', '.join(sorted(unknown))}")
    summary: list[tuple[str, str, float]] = []
    for bench in (b for b in BENCHES if b.name in wanted):
        if bench.corpus == "needs" and not args.corpus.is_dir():
            reason = f"skipped: needs the shared corpus at {args.corpus.resolve()}"
            print(f"== {bench.name}: {reason}", flush=True)
            summary.append((bench.name, reason, 0.0))
            continue
        argv_ = command(bench, args.full, args.corpus)
        print(f"== {bench.name}: {' '.join(argv_[1:])}", flush=True)
        if args.list:
            continue
        started = time.perf_counter()
        code = subprocess.run(argv_, cwd=BENCH.parent).returncode
        elapsed = time.perf_counter() - started
        summary.append((bench.name, "ok" if code == 0 else f"failed (exit {code})", elapsed))
        print(flush=True)
    if args.list:
        return 0
    print("| bench | result | seconds |\n|---|---|---|")
    for name, result, seconds in summary:
        print(f"| {name} | {result} | {seconds:.0f} |")
    return 1 if any(result.startswith("failed") for _, result, _ in summary) else 0


if __name__ == "__main__":
    sys.exit(main())
