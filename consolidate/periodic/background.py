"""The unattended run (`dream --prepare --background`), started by the SessionEnd hook or a user timer.

Nice'd, bounded in time, under the memory dir's lock like any run, silent: it writes no output (a
timer would mail it), only the pending plan when it succeeds, or one line in `<state>/periodic.log`
when it fails — the previous pending plan is then left exactly as it was. Nothing is ever applied.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

from ..capture.config import Config, load_config
from ..capture.places import repo_root
from ..settings import Settings
from .store import clear_running, mark_running, pending_dir

LOG_FILE = "periodic.log"
LOG_MAX_BYTES = 256_000


class TimedOut(BaseException):
    """The time limit: a BaseException, so no handler of an agent's failure can take it for one."""


def background_config(settings: Settings) -> Config:
    return load_config(settings.state_dir, repo_root(settings.layout.project))


def background_main(args: argparse.Namespace) -> int:
    """`dream --background`: even a project that cannot be resolved any more is one line in the log."""
    from ..capture.places import claude_home, state_root
    from ..commands.options import settings_of
    from ..errors import ConsolidateError

    try:
        settings = settings_of(args)
    except ConsolidateError as exc:
        where = str(getattr(args, "project", None) or getattr(args, "project_option", None) or os.getcwd())
        log_line(state_root(claude_home(getattr(args, "claude_home", None))), where, str(exc))
        return exc.exit_code
    return run_background(settings, args.engine)


def run_background(settings: Settings, engine: str | None) -> int:
    """Prepare a pending plan without a person; 0 when it was saved, 1 (and one log line) when not."""
    config = background_config(settings)
    folder = pending_dir(settings.state_dir, settings.memory_dir)
    _own_process_group()
    with suppress(OSError):
        os.nice(max(0, min(19, config.periodic_nice)))
    mark_running(folder, os.getpid())
    timeout = max(1, int(config.periodic_timeout_minutes * 60))
    previous = signal.signal(signal.SIGALRM, _timed_out)
    signal.alarm(timeout)
    quiet = io.StringIO()
    try:
        from ..dream.run import DreamOptions, run_dream

        options = DreamOptions(engine=engine or config.periodic_engine or None, prepare=True)
        run_dream(settings, options, out=quiet, err=quiet, stdin=io.StringIO(""))
        return 0
    except (
        ImportError
    ) as exc:  # the hook's interpreter runs hooks (standard library) but lacks our dependencies
        log_failure(
            settings,
            f"{sys.executable} cannot import {exc.name or exc}: install consolidate with its dependencies for "
            "it (pipx or uv tool), then run `consolidate install`",
        )
        return 1
    except TimedOut:
        log_failure(settings, f"stopped after {timeout} s ([periodic] timeout_minutes)")
        _stop_children()
        return 1
    except Exception as exc:  # whatever went wrong, the hook's session never sees it: one line
        log_failure(settings, " ".join(str(exc).split())[:300] or type(exc).__name__)
        return 1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        clear_running(folder, os.getpid())


def _timed_out(signum: int, frame: FrameType | None) -> None:
    raise TimedOut


def _own_process_group() -> None:
    """Lead a process group, so a timeout can stop the agents' processes with this one."""
    if os.getpgrp() != os.getpid():
        with suppress(OSError):
            os.setpgrp()


def _stop_children() -> None:
    if os.getpgrp() != os.getpid():
        return
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with suppress(OSError):
        os.killpg(os.getpgrp(), signal.SIGTERM)
    signal.signal(signal.SIGTERM, previous)


def log_path(state_dir: Path) -> Path:
    return state_dir / LOG_FILE


def log_failure(settings: Settings, reason: str) -> None:
    """One line per failed run (the log is kept under ~256 KB by rotating once)."""
    log_line(settings.state_dir, str(settings.memory_dir), reason)


def log_line(state_dir: Path, where: str, reason: str) -> None:
    from ..secrets import redact

    path = log_path(state_dir)
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    line = redact(f"{stamp} {where}: dream --prepare failed: {reason}; the previous pending plan is kept")
    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > LOG_MAX_BYTES:
            path.replace(path.with_suffix(".log.1"))
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(line.replace("\n", " ") + "\n")


def last_failure(settings: Settings) -> str | None:
    """The last logged failure of a background run for this memory dir, if any."""
    try:
        lines = log_path(settings.state_dir).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    mine = f" {settings.memory_dir}: "
    return next((line for line in reversed(lines) if mine in line), None)
