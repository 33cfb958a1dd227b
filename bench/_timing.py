"""Timing helpers shared by the benchmarks: a child process's wall and CPU time and peak RSS, and
ratios to a baseline measured in the same round, summarised as min / median / max over the rounds.

The box is shared, so every figure is a ratio to a baseline run right beside it, and CPU time (user +
system of the child) is reported next to wall time: CPU time is what load on the other core changes least.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child
    peak_rss_mb: float
    stdout: str
    returncode: int


def run_process(
    command: Sequence[str], *, stdin: str = "", env: Mapping[str, str] | None = None, check: bool = True
) -> Run:
    """Run `command` to its end; its wall time, CPU time and peak RSS (from wait4: its own, not its
    siblings')."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=out, stderr=err,
            env=dict(env) if env is not None else None,
        )  # fmt: skip
        assert process.stdin is not None
        try:
            process.stdin.write(stdin.encode())
            process.stdin.close()
        except BrokenPipeError:
            pass
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if check and code != 0:
        raise RuntimeError(f"{command[0]} exited {code}: {stderr.strip().splitlines()[-1:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout, code)


def spread(values: Sequence[float]) -> tuple[float, float, float]:
    """min, median, max."""
    return min(values), statistics.median(values), max(values)


def fmt_spread(values: Sequence[float], unit: str = "×", digits: int = 2) -> str:
    low, mid, high = spread(values)
    return f"{low:.{digits}f}{unit} / {mid:.{digits}f}{unit} / {high:.{digits}f}{unit}"


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (p95: share 0.95)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
