"""Growth curves of the input paths an attacker can make big: each workload at doubling sizes, with the
time, the time per unit and the ratio to the previous size (2.0 is linear, 4.0 quadratic), and a
baseline measured in the same run (parsing the same input as JSON, or parsing and rendering the result).

    python bench/growth.py [--full]      # --full adds the largest sizes (60,000 remember turns: minutes)
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
from collections.abc import Callable

from _isolated import isolate

TMP = isolate()
PROJECT = TMP / "proj"
PROJECT.mkdir()
subprocess.run(["git", "init", "-q", str(PROJECT)], check=True)


def _quiet(argv: list[str]) -> int:
    from consolidate.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


def apply_entries(n: int) -> tuple[float, float]:
    """`apply` of one plan with n add_entry proposals; baseline: parse + render the final MEMORY.md once."""
    from consolidate.apply import apply_plan
    from consolidate.plan import parse_plan
    from consolidate.runs import journal_dir, write_scope
    from consolidate.settings import load_settings
    from memory_layout import parse_document
    from tests.helpers.memory import plan_dict, proposal

    settings = load_settings(PROJECT, memory_dir=str(TMP / f"apply{n}"))
    settings.memory_dir.mkdir(parents=True)
    (settings.memory_dir / "MEMORY.md").write_text("# Project Memory\n\n## Feedback\n- one.\n")
    changes = [
        proposal(f"P{i}", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "section": "Feedback",
                                   "text": f"**When doing task {i}:** run step {i} first."}])
        for i in range(n)
    ]  # fmt: skip
    plan = parse_plan(json.dumps(plan_dict(settings, changes)))
    started = time.perf_counter()
    apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings))
    spent = time.perf_counter() - started
    text = (settings.memory_dir / "MEMORY.md").read_text()
    started = time.perf_counter()
    parse_document(text).render()
    return spent, time.perf_counter() - started


def audit_dangling(n: int) -> tuple[float, float]:
    """`audit` of a MEMORY.md of n dangling pointers (and 20 unlinked topic files); baseline: parse it."""
    from memory_layout import parse_document

    memory = TMP / f"audit{n}"
    memory.mkdir()
    lines = ["# Project Memory", "", "## Notes"]
    lines += [f"- **When working on part {i}:** read the notes. → [detail](missing_{i}.md)" for i in range(n)]
    (memory / "MEMORY.md").write_text("\n".join(lines) + "\n")
    for i in range(20):
        (memory / f"orphan_{i}.md").write_text(f"# orphan {i}\n")
    started = time.perf_counter()
    _quiet(["audit", str(PROJECT), "--memory-dir", str(memory), "--json"])
    spent = time.perf_counter() - started
    started = time.perf_counter()
    parse_document((memory / "MEMORY.md").read_text())
    return spent, time.perf_counter() - started


def migration_patterns(n: int) -> tuple[float, float]:
    """The auditor's migration patterns on one entry of n characters with no punctuation; baseline: one
    pass of a plain regex over it."""
    import re

    from consolidate.audit.pairs import migrations

    text = "word " * (n // 5) + "yerine pnpm"
    started = time.perf_counter()
    migrations(text)
    spent = time.perf_counter() - started
    started = time.perf_counter()
    re.findall(r"\w+", text)
    return spent, time.perf_counter() - started


def remember_turns(n: int) -> tuple[float, float]:
    """`scan --all` of one session of n "remember that" turns; baseline: json.loads of every line."""
    from consolidate.capture.places import transcripts_dir

    home = TMP / f"scan{n}" / ".claude"
    folder = transcripts_dir(home, PROJECT)
    folder.mkdir(parents=True)
    lines = []
    for i in range(n):
        lines.append(json.dumps({"type": "user", "uuid": f"u{i}", "parentUuid": f"a{i - 1}" if i else None,
                                 "sessionId": "big", "cwd": str(PROJECT),
                                 "message": {"role": "user", "content": f"remember that step {i} runs before step {i + 1}"}}))  # fmt: skip
        lines.append(json.dumps({"type": "assistant", "uuid": f"a{i}", "parentUuid": f"u{i}", "sessionId": "big",
                                 "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]}}))  # fmt: skip
    path = folder / "big.jsonl"
    path.write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    _quiet(["scan", str(PROJECT), "--all", "--json", "--claude-home", str(home)])
    spent = time.perf_counter() - started
    started = time.perf_counter()
    for line in path.read_text().splitlines():
        json.loads(line)
    return spent, time.perf_counter() - started


WORKLOADS: list[tuple[str, str, Callable[[int], tuple[float, float]], list[int], list[int]]] = [
    ("apply: add_entry proposals", "proposal", apply_entries, [1000, 2000, 4000], [8000]),
    ("audit: dangling pointers", "entry", audit_dangling, [500, 1000, 2000], [4000]),
    ("audit: migration patterns, one entry", "char", migration_patterns, [12_000, 24_000, 47_000], [94_000]),
    (
        "scan: remember turns in one session",
        "turn",
        remember_turns,
        [1500, 3000, 6000],
        [15_000, 30_000, 60_000],
    ),
]


def main() -> int:
    full = "--full" in sys.argv
    for title, unit, run, sizes, more in WORKLOADS:
        print(f"\n{title}")
        print(f"| {unit}s | time | µs per {unit} | ratio to previous | baseline | time / baseline |")
        print("|---|---|---|---|---|---|")
        previous = None
        for n in sizes + (more if full else []):
            spent, base = run(n)
            ratio = f"{spent / previous:.2f}" if previous else "—"
            print(
                f"| {n:,} | {spent:.2f} s | {spent / n * 1e6:.1f} | {ratio} | {base:.3f} s | {spent / max(base, 1e-9):.0f}× |"
            )
            sys.stdout.flush()
            previous = spent
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
