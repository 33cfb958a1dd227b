"""Scale: a dream (offline engine, dry run) over synthetic projects of growing size.

For each size it prints the wall time and peak RSS of `consolidate dream --dry-run` as a process, and
the time of a baseline that only reads and json-parses every transcript line, measured in the same run,
so the growth curve and the ratio to the baseline are visible.

    python bench/dream_scale.py                 # small, medium, large (large = 5,000 entries, 1 GB)
    python bench/dream_scale.py --sizes small   # quick check
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from example_project import Transcript, build_repo  # noqa: E402

from memory_layout import project_key  # noqa: E402

SIZES = {"small": (500, 50), "medium": (2_000, 250), "large": (5_000, 1_024)}  # entries, MB of transcripts
SECTIONS = 20


NOUNS = [
    "ledger",
    "invoice",
    "tenant",
    "webhook",
    "cache",
    "queue",
    "scheduler",
    "exporter",
    "importer",
    "mailer",
    "session",
    "token",
    "quota",
    "billing",
    "report",
    "search",
    "index",
    "shard",
    "replica",
    "backup",
    "migration",
    "fixture",
    "parser",
    "renderer",
    "router",
    "gateway",
    "limiter",
    "uploader",
    "thumbnail",
    "archive",
    "audit",
    "metric",
    "tracer",
    "logger",
    "config",
    "secret",
    "vault",
    "bucket",
    "stream",
    "consumer",
    "producer",
    "cursor",
    "batch",
    "retry",
    "timeout",
    "lock",
    "lease",
    "snapshot",
    "journal",
]
VERBS = [
    "sync",
    "flush",
    "rotate",
    "prune",
    "compact",
    "verify",
    "encode",
    "decode",
    "split",
    "merge",
    "throttle",
    "warm",
    "seal",
    "drain",
]
ADVICE = [
    "pass the tenant id explicitly",
    "wrap it in a transaction",
    "call it only from the worker",
    "keep the batch under 500 rows",
    "never call it inside a request handler",
    "retry at most twice",
    "log the correlation id first",
    "take the advisory lock before",
    "check the feature flag first",
    "use the read replica",
    "set a 5 s deadline",
    "run it behind the maintenance switch",
]


def build_memory(memory: Path, entries: int, seed: int = 7) -> None:
    """MEMORY.md with one pointer per section; each section a cluster of distinct trigger pointers."""
    rng = random.Random(seed)
    (memory / "clusters").mkdir(parents=True)
    per = entries // SECTIONS
    names = rng.sample(NOUNS, SECTIONS)
    index = ["# Project Memory", ""]
    for section in names:
        index += [
            f"## {section.title()}",
            f"- **When working on the {section} subsystem:** open its index. → [{section}](clusters/{section}.md)",
            "",
        ]
        lines = [f"# {section.title()}", ""]
        for number in range(per):
            noun, verb, advice = rng.choice(NOUNS), rng.choice(VERBS), rng.choice(ADVICE)
            name = f"{section}_{noun}_{verb}_{number}.md"
            lines.append(
                f"- **When you {verb} the {noun} of {section} #{number}:** {advice}. → [detail](../{name})"
            )
            (memory / name).write_text(
                f"---\nname: {section} {noun} {verb} {number}\ntype: reference\n---\n"
                f"The {noun} {verb} step of {section} (case {number}): {advice}; "
                f"{rng.choice(ADVICE)} when it runs after {rng.choice(NOUNS)}.\n"
            )
        (memory / "clusters" / f"{section}.md").write_text("\n".join(lines) + "\n")
    (memory / "MEMORY.md").write_text("\n".join(index) + "\n")


def build_sessions(directory: Path, project: Path, megabytes: int) -> int:
    """Copies of one realistic session (reads, edits, a correction, an error→fix) up to the size."""
    template = Transcript("00000000-0000-4000-8000-000000000000", project, "2026-11-20T10:00")
    for turn in range(60):
        template.user(f"please look at module {turn} and tell me what it does")
        template.tool("Read", {"file_path": f"src/mod{turn}.py"}, "x = 1\n" * 400)
        template.assistant(f"Module {turn} sets x. " + "It is straightforward. " * 30)
    template.tool("Bash", {"command": "pytest"}, "fixture 'db' not found", error=True)
    template.tool("Bash", {"command": "make test"}, "ok")
    template.user("no, don't run pytest directly, always use make test")
    body = "".join(json.dumps(r) + "\n" for r in template.records)
    count = max(1, megabytes * 1_000_000 // len(body))
    directory.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        session = f"{n:08d}-0000-4000-8000-000000000000"
        (directory / f"{session}.jsonl").write_text(body.replace(template.session, session))
    return count


def baseline(directory: Path) -> float:
    started = time.perf_counter()
    for path in directory.glob("*.jsonl"):
        with open(path, "rb") as handle:
            for line in handle:
                json.loads(line)
    return time.perf_counter() - started


def dream(project: Path, home: Path) -> tuple[float, int, str]:
    argv = [
        sys.executable,
        "-c",
        "import resource,runpy,sys; sys.argv=sys.argv[1:]; "
        "rc=0\ntry: runpy.run_module('consolidate', run_name='__main__')\n"
        "except SystemExit as e: rc=e.code or 0\n"
        "print('PEAK_RSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(rc)",
        "consolidate",
        "dream",
        str(project),
        "--claude-home",
        str(home),
        "--dry-run",
        "--since",
        "2020-01-01",
    ]
    env = {**os.environ, "CONSOLIDATE_STATE_DIR": str(home / "state"), "NO_COLOR": "1"}
    started = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    peak = next(
        (int(line.split()[1]) for line in result.stderr.splitlines() if line.startswith("PEAK_RSS_KB")), 0
    )
    if result.returncode != 0:
        return elapsed, peak, f"exit {result.returncode}: {result.stderr.strip().splitlines()[-1:]}"
    return elapsed, peak, f"{result.stdout.count('### [')} proposals"


def measure(size: str, work: Path) -> dict[str, object]:
    entries, megabytes = SIZES[size]
    root = work / size
    project = root / "project"
    build_repo(project)
    home = root / "home"
    key = project_key(project)
    build_memory(home / "projects" / key / "memory", entries)
    sessions = build_sessions(home / "projects" / key, project, megabytes)
    base = baseline(home / "projects" / key)
    elapsed, peak, outcome = dream(project, home)
    return {
        "size": size,
        "entries": entries,
        "transcripts_mb": megabytes,
        "sessions": sessions,
        "dream_s": round(elapsed, 2),
        "baseline_parse_s": round(base, 2),
        "ratio_to_parse": round(elapsed / base, 2) if base else None,
        "peak_rss_mb": round(peak / 1024, 1),
        "outcome": outcome,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--keep", action="store_true", help="keep the generated projects")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="consolidate-scale-"))
    try:
        print(
            f"{'size':8} {'entries':>7} {'MB':>6} {'sessions':>8} {'dream s':>8} {'parse s':>8} {'ratio':>6} {'RSS MB':>7}  outcome"
        )
        for size in args.sizes.split(","):
            row = measure(size, work)
            print(
                f"{row['size']:8} {row['entries']:>7} {row['transcripts_mb']:>6} {row['sessions']:>8} "
                f"{row['dream_s']:>8} {row['baseline_parse_s']:>8} {row['ratio_to_parse']!s:>6} "
                f"{row['peak_rss_mb']:>7}  {row['outcome']}",
                flush=True,
            )
            if not args.keep:
                shutil.rmtree(work / size, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"(self peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB)")


if __name__ == "__main__":
    main()
