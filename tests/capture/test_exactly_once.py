"""Ticks repeated, killed mid-way and run concurrently neither duplicate nor lose a queue item."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from consolidate.capture import queue as q
from tests.capture.fixtures import Session, write_session

ROOT = Path(__file__).resolve().parents[2]


def make_backlog(claude_home: Path, project: Path, sessions: int = 6, markers: int = 40) -> set[str]:
    expected = set()
    for s in range(sessions):
        session = Session(cwd=str(project))
        for m in range(markers):
            payload = f"session {s} marker {m}: keep the reason with the rule"
            session.user("y" * 300).assistant(f"noted\n<!-- learning: {payload} -->")
            expected.add(payload)
        write_session(claude_home, project, session)
    return expected


def tick_process(project: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "consolidate", "tick", "--project", str(project), *extra],
        cwd=ROOT, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def queued(project: Path) -> list[str]:
    return [item["payload"] for item in q.pending_items(project)]


def test_a_crash_between_commit_and_offsets_loses_and_duplicates_nothing(
    tmp_path: Path, claude_home: Path
) -> None:
    expected = make_backlog(claude_home, tmp_path, sessions=2, markers=5)
    crashed = tick_process(tmp_path, env={"CONSOLIDATE_TICK_FAULT": "after-enqueue"})
    assert crashed.wait(60) == 9
    assert sorted(queued(tmp_path)) == sorted(expected)  # committed before the crash
    q.ack(tmp_path, [q.item_id("learning", sorted(expected)[0])])
    assert tick_process(tmp_path).wait(60) == 0  # re-reads from the old offsets
    assert sorted(queued(tmp_path)) == sorted(expected)[1:]


def test_sigkill_at_random_moments_then_a_clean_tick(tmp_path: Path, claude_home: Path) -> None:
    expected = make_backlog(claude_home, tmp_path, sessions=16, markers=200)
    rng = random.Random(7)
    # how long one tick of this budget runs here (start-up and imports vary with the box and with
    # cached bytecode): the kills are timed within it, so they land mid-run on a fast box too
    started = time.monotonic()
    assert tick_process(tmp_path, "--max-bytes", "200000").wait(60) == 0
    lasted = time.monotonic() - started
    killed_while_running = 0
    for _ in range(40):  # kill until three kills landed mid-run
        if killed_while_running >= 3:
            break
        process = tick_process(tmp_path, "--max-bytes", "200000")
        time.sleep(rng.uniform(0.3, 0.9) * lasted)
        killed_while_running += process.poll() is None
        process.send_signal(signal.SIGKILL)
        process.wait(60)
    assert killed_while_running >= 3
    while tick_process(tmp_path).wait(60) != 0:
        pass
    payloads = queued(tmp_path)
    assert len(payloads) == len(set(payloads)) == len(expected)
    assert set(payloads) == expected


def test_concurrent_ticks(tmp_path: Path, claude_home: Path) -> None:
    expected = make_backlog(claude_home, tmp_path)
    processes = [tick_process(tmp_path, "--max-bytes", "50000") for _ in range(4)]
    for process in processes:
        assert process.wait(120) == 0
    for _ in range(20):  # finish the backlog the budgets left
        if len(queued(tmp_path)) == len(expected):
            break
        assert tick_process(tmp_path, "--max-bytes", "50000").wait(60) == 0
    payloads = queued(tmp_path)
    assert len(payloads) == len(set(payloads)) and set(payloads) == expected
