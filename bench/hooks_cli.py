"""Hook latency inside the real Claude Code CLI: p50/p95 of each hook as the CLI times it, against a
no-op hook (`python -I -S -c pass`, the venv's interpreter) timed by the same CLI in the same run.

Each round runs two short sessions against the fake Messages API on 127.0.0.1, one with the checkout
loaded as a plugin (`hooks/hooks.json`: the shell launcher, as a user gets it) and one whose settings
wire the no-op hook to the same events. The scripted model makes five Bash calls — three that no
lesson matches, then two a lesson matches (the first injects it, the second finds it injected) — and
answers. The CLI's debug output gives each hook's
duration as it waited for it ("Hooks: PreToolUse:Bash [...] finished with status 0 (41ms)"). The
project is set up as in `bench/hooks.py`: 40 lessons with triggers, a few queued learnings, a backlog
transcript; a recent `.last-consolidation` keeps SessionEnd from starting a background dream.

    python bench/hooks_cli.py                          # 8 rounds
    python bench/hooks_cli.py --rounds 4 --repeats 3   # min / median / max of the ratios (`make bench`)

Needs the Claude Code CLI: the one bundled with claude-agent-sdk, else `claude` on PATH; without
either it says so and skips. Offline: the CLI talks only to the fake API.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from consolidate.capture.places import memory_dir  # noqa: E402
from consolidate.marker import MARKER  # noqa: E402
from hooks import p50_p95, setup  # noqa: E402

VENV_PYTHON = str(ROOT / ".venv" / "bin" / "python")
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop")
CALLS = ("git status", "ls", "echo hi", "make step7", "make -j2 step7")  # a lesson matches the last two
KINDS = ("PreToolUse", "PreToolUse", "PreToolUse", "PreToolUse+inject", "PreToolUse+lesson")
FINISHED = re.compile(
    r"Hooks: (\w+)(?::\S+)? \[(.*)\](?: \(plugin [^)]*\))? finished with status (\d+) \((\d+)ms\)"
)
NOOP = f"{VENV_PYTHON} -I -S -c pass"


def find_cli() -> str | None:
    """The CLI bundled with claude-agent-sdk, else `claude` on PATH."""
    try:
        import claude_agent_sdk
    except ImportError:
        return shutil.which("claude")
    bundled = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
    return str(bundled) if bundled.is_file() else shutil.which("claude")


def noop_settings() -> str:
    handler = {"type": "command", "command": NOOP, "timeout": 10}
    hooks = {e: [{"matcher": "*", "hooks": [handler]}] if e == "PreToolUse" else [{"hooks": [handler]}] for e in EVENTS}  # fmt: skip
    return json.dumps({"hooks": hooks})


def session(
    cli: str, api: Any, project: Path, env: dict[str, str], plugin: bool
) -> list[tuple[str, int, int]]:
    """One scripted session; (event, duration in ms, exit status) of every hook run, in order."""
    from claude_agent_sdk import ClaudeAgentOptions, query

    from tests.fakeapi.server import text, tool_use

    api.script("", [*(tool_use("Bash", {"command": c}) for c in CALLS), text("DONE")])
    runs: list[tuple[str, int, int]] = []

    def on_stderr(line: str) -> None:
        found = FINISHED.search(line)
        if found and ("consolidate-hook.sh" in found[2] if plugin else found[2] == NOOP):
            runs.append((found[1], int(found[4]), int(found[3])))

    options = ClaudeAgentOptions(
        cwd=str(project),
        cli_path=cli,
        plugins=[{"type": "local", "path": str(ROOT)}] if plugin else [],
        settings=None if plugin else noop_settings(),
        setting_sources=[],
        allowed_tools=["Bash"],
        env=env,
        extra_args={"debug-to-stderr": None},
        stderr=on_stderr,
    )

    async def run() -> None:
        async for _ in query(prompt="check the tree", options=options):
            pass

    asyncio.run(run())
    return runs


def label(runs: list[tuple[str, int, int]]) -> dict[str, list[int]]:
    """Durations by hook; the PreToolUse runs in the order of `CALLS` (a session that made other
    calls is counted as plain PreToolUse)."""
    named: dict[str, list[int]] = {}
    pretool = iter(KINDS if sum(event == "PreToolUse" for event, _, _ in runs) == len(CALLS) else ())
    for event, ms, _ in runs:
        name = next(pretool, event) if event == "PreToolUse" else event
        named.setdefault(name, []).append(ms)
    return named


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds per repeat (two sessions each)")
    parser.add_argument("--repeats", type=int, default=1, help="whole measurements; >1 prints min/median/max")
    parser.add_argument(
        "--cli", help="the Claude Code CLI (default: claude-agent-sdk's bundled one, else PATH)"
    )
    args = parser.parse_args()
    cli = args.cli or find_cli()
    if cli is None or not os.access(cli, os.X_OK):
        print(
            f"skipped: no Claude Code CLI ({cli or 'neither the one bundled with claude-agent-sdk nor `claude` on PATH'})"
        )
        return 0
    from tests.fakeapi.server import FakeMessagesAPI, cli_env

    base = Path(tempfile.mkdtemp(prefix="consolidate-bench-hooks-cli-"))
    try:
        env, project, _, _ = setup(base)
        memory = memory_dir(base / ".claude", project)
        memory.mkdir(parents=True, exist_ok=True)
        (memory / MARKER).write_text(datetime.now(UTC).isoformat(), encoding="utf-8")
        (base / "state" / "hook-python").write_text(VENV_PYTHON + "\n", encoding="utf-8")
        os.environ.pop("CONSOLIDATE_CHILD", None)
        ratios: dict[str, list[tuple[float, float]]] = {}
        with FakeMessagesAPI() as api:
            env = {**env, **cli_env(api, str(base)), "CLAUDE_CONFIG_DIR": str(base / ".claude")}
            env.pop("CONSOLIDATE_CHILD", None)
            for plugin in (True, False):  # warm-up: bytecode written, the backlog ticked
                session(cli, api, project, env, plugin)
            for _ in range(args.repeats):
                for name, pair in measure(cli, api, project, env, args.rounds).items():
                    ratios.setdefault(name, []).append(pair)
        if args.repeats > 1:
            print(f"\np50 and p95 inside the CLI ÷ the no-op hook's, {args.repeats} repeats of {args.rounds} rounds "
                  "(min / median / max):")  # fmt: skip
            for name, pairs in ratios.items():
                p50s, p95s = [p for p, _ in pairs], [p for _, p in pairs]
                print(f"  {name:18} p50 {_spread(p50s)}   p95 {_spread(p95s)}")
        log = base / "state" / "hooks.log"
        print("hook log:", log.read_text()[:500] if log.exists() else "empty (no hook met an error)")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f}× / {statistics.median(values):.2f}× / {max(values):.2f}×"


def measure(
    cli: str, api: Any, project: Path, env: dict[str, str], rounds: int
) -> dict[str, tuple[float, float]]:
    """Round-robin: each round runs a session with our hooks and one with the no-op hook."""
    times: dict[str, dict[str, list[int]]] = {"consolidate": {}, "no-op": {}}
    failures: list[str] = []
    start = time.perf_counter()
    for _ in range(rounds):
        for side, plugin in (("consolidate", True), ("no-op", False)):
            runs = session(cli, api, project, env, plugin)
            failures += [f"{side} {e} exit {s}" for e, _, s in runs if s not in (0, 2)]
            for name, values in label(runs).items():
                times[side].setdefault(name, []).extend(values)
    if failures:
        print("hook failures:", ", ".join(failures))
    return report(rounds, times, time.perf_counter() - start)


def report(
    rounds: int, times: dict[str, dict[str, list[int]]], seconds: float
) -> dict[str, tuple[float, float]]:
    noop = times["no-op"]
    print(
        f"\n{rounds} rounds of two sessions ({seconds:.0f} s); each hook as the Claude Code CLI timed it, in ms"
    )
    print(
        f"{'':18} {'runs':>5} {'p50':>7} {'p95':>7}   {'no-op p50':>9} {'p95':>6}   {'÷ no-op p50':>11} {'p95':>7}"
    )
    ratios: dict[str, tuple[float, float]] = {}
    for name in (
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PreToolUse+lesson",
        "PreToolUse+inject",
        "Stop",
    ):
        ours, base = times["consolidate"].get(name), noop.get(name.split("+")[0])
        if not ours or not base:
            print(f"{name:18} not seen")
            continue
        (p50, p95), (b50, b95) = p50_p95([float(v) for v in ours]), p50_p95([float(v) for v in base])
        ratios[name] = (p50 / b50, p95 / b95)
        print(
            f"{name:18} {len(ours):5} {p50:7.0f} {p95:7.0f}   {b50:9.0f} {b95:6.0f}   {p50 / b50:10.2f}× {p95 / b95:6.2f}×"
        )
    return ratios


if __name__ == "__main__":
    sys.exit(main())
