"""Hook latency: p50/p95 wall time of each hook run as a process, against `python3 -I -S -c pass`.

Each hook runs the way Claude Code runs it — a new process with the event's JSON on stdin — through
the shell launcher `consolidate install` and the plugin wire (`consolidate-hook.sh`, with the venv's
interpreter recorded), the venv's `consolidate` console script and `python -m consolidate`. The baselines are measured
in the same run, round-robin with the hooks: `python3 -I -S -c pass` (whatever `python3` is on PATH)
and the venv's own interpreter with `-I -S -c pass` (the interpreter the launcher runs, as it runs it). The project is set up warm: 40 lessons with triggers, a
few queued learnings, a live transcript that gains one exchange before every UserPromptSubmit and Stop.

With the corpus present it also times a cold `consolidate tick` over a real project's transcripts
(everything, then one hook-sized 8 MB slice).

    python bench/hooks.py              # 40 runs per hook
    python bench/hooks.py --runs 100
    python bench/hooks.py --no-bytecode   # as with PYTHONDONTWRITEBYTECODE=1: sources compiled every run
    python bench/hooks.py --runs 20 --repeats 3 --launcher-only   # the README's min / median / max

PreToolUse is timed three ways: a call no lesson matches (most calls) and a call whose lesson was
injected in this context already (both answered from the lesson manifest), and a call whose lesson is
new to the context (a fresh session id each run: the full hook injects it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from consolidate.capture import queue as q  # noqa: E402
from consolidate.capture.places import project_key  # noqa: E402
from consolidate.learnings.store import EpisodeStore, store_path  # noqa: E402
from tests.capture.fixtures import Session, append_session, write_session  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
CORPUS_PROJECT = "winksaville__tspec/.claude"
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop")
BYTECODE_OFF = "--no-bytecode" in sys.argv
FRESH_SESSION = "bench-fresh-context"  # replaced by a new id on every run


def run_once(command: list[str], stdin: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, input=stdin, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start


def p50_p95(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def setup(base: Path) -> tuple[dict[str, str], Path, Session, Path]:
    env = {**os.environ, "HOME": str(base), "CLAUDE_CONFIG_DIR": str(base / ".claude"),
           "CONSOLIDATE_STATE_DIR": str(base / "state"), "PYTHONPYCACHEPREFIX": str(base / "pycache")}  # fmt: skip
    env.pop("CONSOLIDATE_CHILD", None)
    if not BYTECODE_OFF:  # as installed: bytecode cached (in a temp dir, so the tree stays clean)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.update({k: env[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "CONSOLIDATE_STATE_DIR")})
    project = base / "project"
    (project / ".git").mkdir(parents=True)
    now = datetime.now(UTC)
    store = EpisodeStore(store_path(base / "state", project))
    for i in range(40):
        trigger = {"tool": "Bash", "command": rf"\bstep{i}\b"} if i % 2 else {"path": f"src/area{i}/**"}
        store.capture(
            {"rule": f"lesson {i}: area {i} needs its own fixture {i * 7919}", "trigger": trigger}, now
        )
    with q.open_queue(base / ".claude") as queue:
        queue.enqueue(str(project), [q.NewItem("learning", f"pending {i}") for i in range(3)])
    session = Session(session_id="bench-session", cwd=str(project))
    for i in range(150):
        session.user(f"question {i} " + "x" * 400).assistant(f"answer {i} " + "y" * 1200)
    transcript = write_session(base / ".claude", project, session)
    return env, project, session, transcript


def payloads(project: Path, transcript: Path) -> dict[str, str]:
    base = {"session_id": "bench-session", "transcript_path": str(transcript), "cwd": str(project)}
    return {
        "SessionStart": json.dumps({**base, "hook_event_name": "SessionStart", "source": "startup"}),
        "UserPromptSubmit": json.dumps(
            {**base, "hook_event_name": "UserPromptSubmit", "prompt": "no, do it this way"}
        ),
        # most tool calls match no lesson: answered from the lesson manifest
        "PreToolUse": json.dumps(
            {
                **base,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "git status"},
                "tool_use_id": "toolu_1",
            }
        ),  # fmt: skip
        # a call a lesson matches, in a context it was injected in already: answered from the manifest
        "PreToolUse+lesson": json.dumps(
            {
                **base,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "make step7"},
                "tool_use_id": "toolu_2",
            }
        ),  # fmt: skip
        # the same call in a context the lesson is new to (a new session id every run): the full hook
        "PreToolUse+inject": json.dumps(
            {
                **base,
                "session_id": FRESH_SESSION,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "make step7"},
                "tool_use_id": "toolu_3",
            }
        ),  # fmt: skip
        "Stop": json.dumps({**base, "hook_event_name": "Stop", "stop_hook_active": False}),
    }


def corpus_tick(env: dict[str, str], base: Path, corpus: Path) -> None:
    sessions = corpus / CORPUS_PROJECT
    if not sessions.is_dir():
        print(f"\ncold tick skipped: the shared corpus is not at {sessions.resolve()}")
        return
    project = base / "corpus-project"
    project.mkdir()
    projects = base / ".claude" / "projects"
    projects.mkdir(parents=True, exist_ok=True)
    (projects / project_key(project)).symlink_to(sessions)
    size = sum(p.stat().st_size for p in sessions.rglob("*.jsonl"))
    command = [str(ROOT / ".venv" / "bin" / "consolidate"), "tick", "--project", str(project), "--json"]
    start = time.perf_counter()
    sliced = json.loads(
        subprocess.run(
            [*command, "--max-bytes", str(8 << 20)], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    slice_time = time.perf_counter() - start
    start = time.perf_counter()
    rest = json.loads(subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout)
    rest_time = time.perf_counter() - start
    total = sliced["bytes_read"] + rest["bytes_read"]
    print(f"\ncold tick over the corpus ({size / 1e6:.1f} MB of transcripts):")
    print(
        f"  first hook-sized tick (8 MB budget): {slice_time * 1000:.0f} ms for {sliced['bytes_read'] / 1e6:.1f} MB"
    )
    print(f"  the rest in one CLI tick:            {rest_time:.2f} s for {rest['bytes_read'] / 1e6:.1f} MB "
          f"({rest['bytes_read'] / 1e6 / rest_time:.0f} MB/s); {total / 1e6:.1f} MB read in all")  # fmt: skip
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=True)
    print(f"  a tick with nothing new:             {(time.perf_counter() - start) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument(
        "--no-bytecode", action="store_true", help="keep PYTHONDONTWRITEBYTECODE (compile every run)"
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="default: ../shared/corpus")
    parser.add_argument("--repeats", type=int, default=1, help="whole measurements; >1 prints min/median/max")
    parser.add_argument("--launcher-only", action="store_true", help="time only the shell launcher")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="consolidate-bench-hooks-"))
    try:
        env, project, session, transcript = setup(base)
        ratios: dict[str, list[tuple[float, float]]] = {}
        for _ in range(args.repeats):
            for name, pair in measure(
                args.runs, env, project, session, transcript, args.launcher_only
            ).items():
                ratios.setdefault(name, []).append(pair)
        if args.repeats > 1:
            print(f"\np50 and p95 through the shell launcher ÷ those of venv python -I -S -c pass, {args.repeats} "
                  f"repeats of {args.runs} rounds (min / median / max):")  # fmt: skip
            for name, pairs in ratios.items():
                print(
                    f"  {name:18} p50 {_spread([p for p, _ in pairs])}   p95 {_spread([p for _, p in pairs])}"
                )
        log = base / "state" / "hooks.log"
        print("hook log:", log.read_text()[:500] if log.exists() else "empty (no hook met an error)")
        corpus_tick(env, base, args.corpus)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def measure(
    runs: int,
    env: dict[str, str],
    project: Path,
    session: Session,
    transcript: Path,
    launcher_only: bool = False,
) -> dict[str, tuple[float, float]]:
    """Round-robin: each round runs every baseline and every hook once, so load hits all alike; the
    p50 and p95 ratios of each hook through the shell launcher to the venv's `-I -S -c pass`."""
    venv_python = str(ROOT / ".venv" / "bin" / "python")
    script = str(ROOT / "consolidate" / "hooks" / "consolidate-hook.sh")
    launchers = {  # how each launcher runs one event
        "sh launcher": lambda e: ["/bin/sh", script, e, "--python", venv_python, "--path", str(ROOT)],
        "console script": lambda e: [str(ROOT / ".venv" / "bin" / "consolidate"), "hook", e],
        "python -m": lambda e: [venv_python, "-m", "consolidate", "hook", e],
    }
    if launcher_only:
        launchers = {"sh launcher": launchers["sh launcher"]}
    baselines = {  # the yardstick: an interpreter that starts and does nothing, without site
        "python3 -I -S -c pass": [shutil.which("python3") or "python3", "-I", "-S", "-c", "pass"],
        "venv python -I -S -c pass": [venv_python, "-I", "-S", "-c", "pass"],
    }
    jobs = [(name, command, "") for name, command in baselines.items()]
    for event, data in payloads(project, transcript).items():
        name = event.split("+")[0]
        jobs += [(f"{event}|{launcher}", command(name), data) for launcher, command in launchers.items()]
    for _, command, data in jobs:  # warm-up: bytecode written, the backlog ticked
        subprocess.run(command, input=data, env=env, capture_output=True, text=True, check=True)
    times: dict[str, list[float]] = {name: [] for name, _, _ in jobs}
    for run in range(runs):
        for name, command, data in jobs:
            if name.startswith(("UserPromptSubmit", "Stop")):
                grow(session, transcript)
            fresh = data.replace(FRESH_SESSION, f"{FRESH_SESSION}-{time.time_ns()}-{run}")
            times[name].append(run_once(command, fresh, env))
    stats = report(runs, times, list(baselines))
    venv_p50, venv_p95 = stats["venv python -I -S -c pass"]
    return {
        name.split("|")[0]: (p50 / venv_p50, p95 / venv_p95)
        for name, (p50, p95) in stats.items()
        if name.endswith("|sh launcher")
    }


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f}× / {statistics.median(values):.2f}× / {max(values):.2f}×"


def grow(session: Session, transcript: Path) -> None:
    """The live session gains one exchange, as between two prompts."""
    start = len(session.records)
    session.user("next " + "z" * 300).assistant("ok " + "w" * 600)
    append_session(transcript, session, start)


def report(
    runs: int, times: dict[str, list[float]], baseline_names: list[str]
) -> dict[str, tuple[float, float]]:
    cached = "off (compiled every run)" if BYTECODE_OFF else "cached"
    print(f"{runs} rounds; times in ms; bytecode {cached}")
    stats = {name: p50_p95(values) for name, values in times.items()}
    python3, venv = (stats[b] for b in baseline_names)
    print(f"{'':18} {'':22} {'p50':>8} {'p95':>8}   {'÷ venv -I -S pass':>18}   {'÷ python3 -I -S':>18}")
    print(f"{'':18} {'':22} {'':>8} {'':>8}   {'p50':>8} {'p95':>9}   {'p50':>8} {'p95':>9}")
    for name, (p50, p95) in stats.items():
        label, launcher = name.split("|") if "|" in name else ("baseline", name)
        print(
            f"{label:18} {launcher:22} {p50 * 1000:8.1f} {p95 * 1000:8.1f}   {p50 / venv[0]:7.2f}× {p95 / venv[1]:8.2f}×"
            f"   {p50 / python3[0]:7.2f}× {p95 / python3[1]:8.2f}×"
        )
    return stats


if __name__ == "__main__":
    main()
