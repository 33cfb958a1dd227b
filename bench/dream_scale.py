"""Scale: a dream (offline engine, dry run) over synthetic projects of growing size (no corpus needed).

For each size and round it runs, one after the other, a baseline process that only reads and
`json.loads` every transcript line and `consolidate dream --dry-run` as a process (empty scan state
each round), and prints the dream's time as a ratio to the baseline of the same round — CPU time
(user + system) and wall time, min / median / max over the rounds — with the dream's peak RSS
(min / median / max, and at the end the peak of every size side by side, so that its growth with
the transcripts' size shows).

    python bench/dream_scale.py                 # small, medium, large (large = 5,000 entries, 1 GB)
    python bench/dream_scale.py --sizes medium --rounds 3
    python bench/dream_scale.py --sizes small   # quick check
    python bench/dream_scale.py --sizes small --mb 50,200 --rounds 1   # peak RSS against transcript size
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from example_project import Transcript, build_repo  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import fmt_spread, run_process  # noqa: E402

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


BASELINE = (
    "import json, sys\nfrom pathlib import Path\n"
    "for path in Path(sys.argv[1]).glob('*.jsonl'):\n"
    "    with open(path, 'rb') as handle:\n"
    "        for line in handle:\n"
    "            json.loads(line)\n"
)


def dream_command(project: Path, home: Path) -> list[str]:
    return [sys.executable, "-m", "consolidate", "dream", str(project), "--claude-home", str(home),
            "--dry-run", "--since", "2020-01-01"]  # fmt: skip


def measure(size: str, work: Path, rounds: int, megabytes: int | None = None) -> dict[str, object]:
    entries, default_mb = SIZES[size]
    megabytes = megabytes or default_mb
    root = work / f"{size}-{megabytes}"
    project = root / "project"
    build_repo(project)
    home = root / "home"
    key = project_key(project)
    build_memory(home / "projects" / key / "memory", entries)
    sessions = build_sessions(home / "projects" / key, project, megabytes)
    env = {**os.environ, "CONSOLIDATE_STATE_DIR": str(home / "state"), "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    baseline = [sys.executable, "-c", BASELINE, str(home / "projects" / key)]
    run_process(baseline, env=env)  # warm the page cache
    cpu: list[float] = []
    wall: list[float] = []
    dream_cpu: list[float] = []
    dream_wall: list[float] = []
    rss: list[float] = []
    outcome = ""
    for _ in range(rounds):
        shutil.rmtree(home / "state", ignore_errors=True)
        base = run_process(baseline, env=env)
        run = run_process(dream_command(project, home), env=env, check=False)
        if run.returncode != 0:
            outcome = f"exit {run.returncode}"
            break
        outcome = f"{run.stdout.count('### [')} proposals shown"
        cpu.append(run.cpu / base.cpu)
        wall.append(run.wall / base.wall)
        dream_cpu.append(run.cpu)
        dream_wall.append(run.wall)
        rss.append(run.peak_rss_mb)
    return {"size": size, "entries": entries, "transcripts_mb": megabytes, "sessions": sessions,
            "cpu": cpu, "wall": wall, "dream_cpu": dream_cpu, "dream_wall": dream_wall, "rss": rss, "outcome": outcome}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per size (min / median / max)")
    parser.add_argument(
        "--mb", default="", help="MB of transcripts, comma-separated (default: the size's own)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the generated projects")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="consolidate-scale-"))
    try:
        print(f"dream --dry-run / json.loads loop over the same transcripts, whole processes, {args.rounds} "
              "round(s), min / median / max (target at medium: <= 3x)")  # fmt: skip
        runs = [(s, int(mb) if mb else None) for s in args.sizes.split(",") for mb in args.mb.split(",")]
        peaks: list[tuple[str, float]] = []
        for size, megabytes in runs:
            row = measure(size, work, args.rounds, megabytes)
            if not row["cpu"]:
                print(f"{size}: {row['outcome']}", flush=True)
                continue
            print(f"{size:6} {row['entries']:>5} entries + {row['transcripts_mb']:>4} MB ({row['sessions']} sessions): "
                  f"CPU {fmt_spread(row['cpu'])}  wall {fmt_spread(row['wall'])}  "
                  f"dream CPU {fmt_spread(row['dream_cpu'], ' s', 1)}  wall {fmt_spread(row['dream_wall'], ' s', 1)}  "
                  f"peak RSS {fmt_spread(row['rss'], ' MB', 0)}  {row['outcome']}", flush=True)  # fmt: skip
            peaks.append((f"{row['entries']} entries + {row['transcripts_mb']} MB", max(row["rss"])))
            if not args.keep:
                shutil.rmtree(work / f"{size}-{row['transcripts_mb']}", ignore_errors=True)
        if len(peaks) > 1:  # flat in the transcript size: the same peak at every size of transcripts
            print(
                "peak RSS by size: " + ", ".join(f"{mb:.0f} MB at {what}" for what, mb in peaks), flush=True
            )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
