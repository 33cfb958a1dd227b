"""Start `dream --prepare` detached from the hook that asks for it: standard library only.

The child gets a session of its own (it outlives the SessionEnd hook, which Claude Code kills within
about 1.5 s), no terminal, and nothing of the hook's stdin or stdout. Starting is serialised by
`start.lock` in the pending folder: a second SessionEnd while a run is alive — or while any run holds
the memory dir's lock — starts nothing.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from ..settings import memory_key
from .store import mark_running, pending_dir, running_pid

START_LOCK = "start.lock"
# What marks a process as part of the ending session: the run is not (its own agents start CLIs afresh).
SESSION_ENV = (
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_ENV_FILE",
    "CLAUDE_PROJECT_DIR",
)
_started: list[subprocess.Popen[bytes]] = []  # never collected while running (that warns), never waited for


def package_parent() -> Path:
    """The directory that holds the `consolidate` package: the child imports it from there."""
    return Path(__file__).resolve().parents[2]


def run_lock_held(state_dir: Path, memory_dir: Path) -> bool:
    """Whether a consolidate run holds the memory dir's lock right now (the lock of `runs.lock_file`)."""
    path = state_dir / "locks" / memory_key(memory_dir) / "lock"
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; a missing file means no holder
    except OSError:
        return False
    with handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    return False


def prepare_command(project: str, home: Path, python: str | None = None) -> list[str]:
    """The background run: `-P` so the project's own folders can never shadow the package."""
    return [
        python or sys.executable, "-P", "-m", "consolidate", "dream", "--prepare", "--background",
        "--claude-home", str(home), project,
    ]  # fmt: skip


def start_background(
    state_dir: Path, memory_dir: Path, project: str, home: Path, env: Mapping[str, str]
) -> int | None:
    """Start the background run and return its pid; None when one is running or the lock is held."""
    folder = pending_dir(state_dir, memory_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / START_LOCK, "a+") as guard:
        fcntl.flock(guard.fileno(), fcntl.LOCK_EX)  # other hooks only, for the few ms below
        if running_pid(folder) is not None or run_lock_held(state_dir, memory_dir):
            return None
        child_env = {k: v for k, v in env.items() if k not in SESSION_ENV}
        child_env["PYTHONPATH"] = os.pathsep.join(_python_path(env))
        process = subprocess.Popen(
            prepare_command(project, home),
            cwd=state_dir,
            env=child_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
        _started.append(process)
        mark_running(folder, process.pid)
        return process.pid


def _python_path(env: Mapping[str, str]) -> list[str]:
    extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    return list(dict.fromkeys([str(package_parent()), *extra]))
