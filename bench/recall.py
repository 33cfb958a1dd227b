"""Recall on real sessions: Recall@k on labelled queries, index build speed, the auto-recall hook's latency.

Quality: each labelled set (`bench/recall_labels/*.json`: a query in plain words → the sessions that
answer it) is indexed from `../shared/corpus/` (linked, not copied) and every query is searched with
the default settings; a query counts at k when one of its sessions is among the first k hits. The tspec
set is the dev set (the search was tuned on it); the zc-ring-x1 set is held out.

Speed: building the index of the three corpus projects, as CPU time in a fresh process, against reading
and `json.loads`-ing every line of the same transcripts in the same run; then an update with nothing
changed (package import excluded from both).

Hook: the UserPromptSubmit hook with `[recall] auto = true` over the tspec index (its sessions, and its
`notes/` folder copied in as the memory dir), as a process, against the same hook with auto-recall off
and against `python3 -I -S -c pass`, round-robin (as bench/hooks.py).

    python bench/recall.py                  # quality, speed and hook
    python bench/recall.py --quality --show # also list the queries missed at 5
    python bench/recall.py --speed --rounds 5
    python bench/recall.py --hook --runs 40
    python bench/recall.py --auto-sample 300 --show   # what auto-recall injects for real prompts
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"
LABELS = ROOT / "bench" / "recall_labels"
SPEED_SOURCES = [
    "winksaville__tspec/.claude",
    "winksaville__zc-ring-x1.claude",
    "moredip__session-share/samples/claude-code-projects",
]


def corpus_home(base: Path, sources: list[str]) -> tuple[Path, Path]:
    """A Claude home whose project transcripts dir links every session of `sources`; (home, project)."""
    home, project = base / "home", base / "project"
    project.mkdir(parents=True)
    from consolidate.capture.places import project_key

    target = home / "projects" / project_key(project)
    target.mkdir(parents=True)
    for index, source in enumerate(sources):
        for entry in sorted((CORPUS / source).iterdir()):
            if entry.suffix == ".jsonl" or (entry / "subagents").is_dir():
                os.symlink(entry, target / (entry.name if len(sources) == 1 else f"s{index}-{entry.name}"))
    return home, project


def quality(show: bool) -> None:
    from consolidate.recall.api import recall
    from consolidate.settings import load_settings

    for labels in sorted(LABELS.glob("*.json")):
        spec = json.loads(labels.read_text(encoding="utf-8"))
        source = spec["corpus"].removeprefix("../shared/corpus/")
        if not (CORPUS / source).is_dir():
            print(f"{labels.name}: corpus not found ({spec['corpus']}); skipped")
            continue
        base = Path(tempfile.mkdtemp(prefix="consolidate-bench-recall-"))
        try:
            home, project = corpus_home(base, [source])
            os.environ["CONSOLIDATE_STATE_DIR"] = str(base / "state")
            settings = load_settings(project, home=home)
            ranks = []
            for item in spec["queries"]:
                hits = recall(settings, item["query"], limit=10).hits
                rank = next((i for i, h in enumerate(hits, 1) if h.session in item["sessions"]), None)
                ranks.append(rank)
                if show and (rank is None or rank > 5):
                    print(f"  miss {item['id']} (rank {rank}): {item['query']}")
            report(labels.stem, spec["note"], ranks)
        finally:
            shutil.rmtree(base, ignore_errors=True)


def report(name: str, note: str, ranks: list[int | None]) -> None:
    total = len(ranks)

    def at(k: int) -> float:
        return sum(1 for r in ranks if r is not None and r <= k) / total

    mrr = sum(1 / r for r in ranks if r is not None) / total
    print(f"{name}: {total} queries — Recall@1 {at(1):.2f}, @5 {at(5):.2f}, @10 {at(10):.2f}, MRR {mrr:.2f}")
    print(f"  ({note.split(':')[0].lower()})")


def auto_sample(count: int, show: bool) -> None:
    """Auto-recall's choice for real prompts: the tspec sessions indexed with the project's notes as memory."""
    import random
    import sqlite3

    from consolidate.recall.api import index_scope, refresh
    from consolidate.recall.auto import KINDS, MIN_TELLING, choose, telling_terms
    from consolidate.recall.search import Filters, document_frequencies, search
    from consolidate.recall.text import query_terms
    from consolidate.settings import load_settings

    notes = CORPUS / "winksaville__tspec" / "notes"
    if not notes.is_dir():
        print("corpus not found; auto-recall sample skipped")
        return
    base = Path(tempfile.mkdtemp(prefix="consolidate-bench-recall-auto-"))
    try:
        home, project = corpus_home(base, ["winksaville__tspec/.claude"])
        os.environ["CONSOLIDATE_STATE_DIR"] = str(base / "state")
        settings = load_settings(project, home=home, memory_dir=notes)
        refresh(settings)
        db = sqlite3.connect(index_scope(settings).index)
        prompts = db.execute("SELECT session, text FROM docs WHERE role = 'user' ORDER BY id").fetchall()
        sample = random.Random(18).sample(prompts, min(count, len(prompts)))
        asked = drew = lines = 0
        for session, prompt in sample:
            terms = query_terms(prompt[:2000])
            telling = telling_terms(*document_frequencies(db, terms)) if terms else set()
            if len(telling) < MIN_TELLING:
                asked += bool(terms)
                continue
            asked += 1
            hits = search(
                db, terms, limit=20, filters=Filters(kinds=KINDS, exclude_session=session), tagged_only=True
            )
            chosen = choose(hits, terms, telling, lambda _: True, max_hits=3, max_bytes=2048)
            drew += bool(chosen)
            lines += len(chosen)
            if show and chosen:
                print("PROMPT " + " ".join(prompt.split())[:200])
                print("\n".join("    " + line[:240] for line in chosen))
        print(f"auto-recall: {drew} of {asked} real prompts drew context, {lines} lines in all")
    finally:
        shutil.rmtree(base, ignore_errors=True)


def child(mode: str, home: Path, project: Path, state: Path) -> dict[str, float]:
    """One timed run in this process: "baseline" (read + json.loads every line), "build" or "update"."""
    started, cpu = time.perf_counter(), time.process_time()
    result: dict[str, float] = {}
    transcripts = next((home / "projects").iterdir())
    if mode == "baseline":
        from scan_corpus import parse_every_line  # the same baseline as the discoverer's benchmark

        result["lines"] = parse_every_line(transcripts)
    else:
        os.environ["CONSOLIDATE_STATE_DIR"] = str(state)
        from consolidate.recall.api import refresh
        from consolidate.recall.indexer import _classifier
        from consolidate.settings import load_settings

        _classifier()  # the discoverer's classifier is imported on first use: count it as an import
        started, cpu = time.perf_counter(), time.process_time()
        stats = refresh(load_settings(project, home=home))
        result.update({"read": stats.read, "unchanged": stats.unchanged, "added": stats.added})
    result["seconds"] = time.process_time() - cpu
    result["wall"] = time.perf_counter() - started
    result["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def measure(mode: str, home: Path, project: Path, state: Path) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", mode, str(home), str(project), str(state)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return dict(json.loads(output.strip().splitlines()[-1]))


def speed(rounds: int) -> None:
    if not all((CORPUS / s).is_dir() for s in SPEED_SOURCES):
        print("corpus not found; speed skipped")
        return
    base = Path(tempfile.mkdtemp(prefix="consolidate-bench-recall-speed-"))
    try:
        home, project = corpus_home(base, SPEED_SOURCES)
        size = sum(p.stat().st_size for p in (home / "projects").rglob("*.jsonl"))
        best: dict[str, dict[str, float]] = {}
        for _ in range(rounds):
            state = base / "state"
            shutil.rmtree(state, ignore_errors=True)
            for mode in ("baseline", "build", "update"):
                run = measure(mode, home, project, state)
                if mode not in best or run["seconds"] < best[mode]["seconds"]:
                    best[mode] = run
        index = next((base / "state" / "recall").rglob("index.sqlite3"))
        b, full, again = best["baseline"], best["build"], best["update"]
        print(f"corpus: {size / 1e6:.0f} MB of transcripts; fastest of {rounds} rounds, CPU seconds")
        print(f"  json-parse baseline  {b['seconds']:.2f} s  ({b['max_rss_mb']:.0f} MB RSS)")
        print(f"  index build          {full['seconds']:.2f} s  = {full['seconds'] / b['seconds']:.2f}× the baseline"
              f"  ({full['added']:.0f} texts, {full['max_rss_mb']:.0f} MB RSS, index {index.stat().st_size / 1e6:.0f} MB)")  # fmt: skip
        print(f"  update, nothing new  {again['seconds'] * 1000:.0f} ms = {again['seconds'] / full['seconds']:.1%} of a build"
              f"  ({again['unchanged']:.0f} transcripts unchanged, {again['read']:.0f} read)")  # fmt: skip
    finally:
        shutil.rmtree(base, ignore_errors=True)


def hook(runs: int) -> None:
    source = "winksaville__tspec/.claude"
    if not (CORPUS / source).is_dir():
        print("corpus not found; hook skipped")
        return
    base = Path(tempfile.mkdtemp(prefix="consolidate-bench-recall-hook-"))
    try:
        home, project = corpus_home(base, [source])
        (project / ".git").mkdir()
        from consolidate.capture.places import memory_dir

        shutil.copytree(
            CORPUS / "winksaville__tspec" / "notes", memory_dir(home, project)
        )  # real notes as memory
        state = base / "state"
        env = {**os.environ, "HOME": str(base), "CLAUDE_CONFIG_DIR": str(home), "CONSOLIDATE_STATE_DIR": str(state),
               "PYTHONPYCACHEPREFIX": str(base / "pycache")}  # fmt: skip
        env.pop("CONSOLIDATE_CHILD", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached (in a temp dir)
        venv = str(ROOT / ".venv" / "bin" / "python")
        subprocess.run([venv, "-m", "consolidate", "recall", "--update", str(project)], env=env, check=True,
                       capture_output=True)  # fmt: skip
        subprocess.run([venv, "-m", "consolidate", "tick", "--project", str(project)], env=env, check=True,
                       capture_output=True)  # fmt: skip
        prompts = json.loads((LABELS / "tspec.json").read_text(encoding="utf-8"))["queries"]
        on, off = state / "config.toml", state / "off"
        jobs = {
            "python3 -I -S -c pass": ([shutil.which("python3") or "python3", "-I", "-S", "-c", "pass"], None),
            "venv python -I -S -c pass": ([venv, "-I", "-S", "-c", "pass"], None),
            "UserPromptSubmit, auto-recall off": (
                [venv, "-m", "consolidate", "hook", "UserPromptSubmit"],
                False,
            ),
            "UserPromptSubmit, auto-recall on": (
                [venv, "-m", "consolidate", "hook", "UserPromptSubmit"],
                True,
            ),
        }
        times: dict[str, list[float]] = {name: [] for name in jobs}
        injected = 0
        for round_number in range(runs + 1):
            prompt = prompts[round_number % len(prompts)]["query"]
            for name, (command, auto) in jobs.items():
                if auto is not None:
                    (on if auto else off).write_text("[recall]\nauto = true\n")
                    if not auto:
                        on.unlink(missing_ok=True)
                payload = json.dumps({"session_id": f"bench-{round_number}", "cwd": str(project),
                                      "hook_event_name": "UserPromptSubmit", "prompt": prompt})  # fmt: skip
                start = time.perf_counter()
                done = subprocess.run(command, input=payload if auto is not None else "", env=env,
                                      capture_output=True, text=True, check=True)  # fmt: skip
                elapsed = time.perf_counter() - start
                if round_number:  # round 0 warms bytecode and caches
                    times[name].append(elapsed)
                    injected += bool(auto and "consolidate recall" in done.stdout)
        in_process = auto_recall_cost(env, project, [p["query"] for p in prompts])
        print(
            f"{runs} rounds, ms (prompts: the dev queries; {injected} of {runs} prompts got recalled context)"
        )
        base_p95 = percentile(times["python3 -I -S -c pass"], 0.95)
        for name, values in times.items():
            p50, p95 = percentile(values, 0.5), percentile(values, 0.95)
            print(
                f"  {name:36} p50 {p50 * 1000:7.1f}  p95 {p95 * 1000:7.1f}  ({p95 / base_p95:.1f}× python3 -I -S at p95)"
            )
        print(in_process)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def auto_recall_cost(env: dict[str, str], project: Path, prompts: list[str]) -> str:
    """Auto-recall's own share, in one warm process: importing what the hook would not import
    anyway, then each call (what a loaded machine's process start-up noise hides)."""
    script = (
        "import json, os, sys, time\n"
        "import consolidate.hooks.prompt\n"  # what the hook imports anyway
        "from consolidate.hooks.context import HookContext\n"
        "t = time.perf_counter()\n"
        "from consolidate.recall.auto import auto_recall\n"
        "imported = time.perf_counter() - t\n"
        "times = []\n"
        "for i, prompt in enumerate(json.loads(sys.stdin.read())):\n"
        "    payload = {'session_id': f'cost-{i}', 'cwd': sys.argv[1], 'prompt': prompt}\n"
        "    ctx = HookContext('UserPromptSubmit', payload, os.environ)\n"
        "    t = time.perf_counter(); auto_recall(ctx); times.append(time.perf_counter() - t)\n"
        "print(json.dumps([imported, times]))\n"
    )
    venv = str(ROOT / ".venv" / "bin" / "python")
    done = subprocess.run([venv, "-c", script, str(project)], input=json.dumps(prompts), env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    imported, times = json.loads(done.stdout)
    return (f"  auto-recall's own share (in process): import {imported * 1000:.1f} ms, "
            f"a call p50 {percentile(times, 0.5) * 1000:.1f} ms, p95 {percentile(times, 0.95) * 1000:.1f} ms")  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        mode, home, project, state = sys.argv[2], *map(Path, sys.argv[3:6])
        print(json.dumps(child(mode, home, project, state)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quality", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--hook", action="store_true")
    parser.add_argument(
        "--auto-sample", type=int, metavar="N", help="auto-recall's choice for N real prompts"
    )
    parser.add_argument(
        "--show", action="store_true", help="list the queries missed at 5 (the sample's lines)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    if args.auto_sample:
        auto_sample(args.auto_sample, args.show)
        return
    every = not (args.quality or args.speed or args.hook)
    if args.quality or every:
        quality(args.show)
    if args.speed or every:
        speed(args.rounds)
    if args.hook or every:
        hook(args.runs)


if __name__ == "__main__":
    main()
