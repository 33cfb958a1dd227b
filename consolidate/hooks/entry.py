"""`consolidate hook <Event>`: read the payload, run the handler, print its answer, exit 0.

A hook never blocks the session because of a fault of ours: bad JSON, a missing field, an unreadable
file or a bug is written to `<state dir>/hooks.log` and the hook exits 0 with no output. Inside our own
agent runs (`CONSOLIDATE_CHILD=1`) hooks do nothing.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from ..capture.places import claude_home, state_root
from .context import HookContext

CHILD_ENV = "CONSOLIDATE_CHILD"
LOG_FILE = "hooks.log"
LOG_MAX_BYTES = 1_000_000
HANDLERS = {
    "SessionStart": "session_start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "pretool",
    "Stop": "stop",
}


def _handler(event: str) -> Callable[[HookContext], str]:
    """Import only the handler this event needs."""
    module = importlib.import_module(f"{__package__}.{HANDLERS[event]}")
    handle: Callable[[HookContext], str] = module.handle
    return handle


def run_hook(event: str, stdin: TextIO, stdout: TextIO, env: Mapping[str, str] | None = None) -> int:
    env = os.environ if env is None else env
    if env.get(CHILD_ENV) == "1" or event not in HANDLERS:
        return 0
    try:
        payload = json.loads(stdin.read() or "{}")
        if not isinstance(payload, dict):
            raise ValueError(f"payload is a JSON {type(payload).__name__}, not an object")
        answer = _handler(event)(HookContext(event, payload, env))
    except Exception as exc:  # a hook must not fail the session: log and stay silent
        log_failure(env, event, exc)
        return 0
    if answer:
        stdout.write(answer + "\n")
    return 0


def log_failure(env: Mapping[str, str], event: str, exc: BaseException) -> None:
    """Append one entry to the hook log (kept under ~1 MB by rotating once)."""
    import traceback

    try:
        path = state_root(claude_home(None, env), env) / LOG_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > LOG_MAX_BYTES:
            path.replace(path.with_suffix(".log.1"))
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        from ..secrets import redact

        detail = "".join(traceback.format_exception(exc, limit=-3)).rstrip()
        entry = redact(f"{stamp} {event}: {type(exc).__name__}: {exc}\n{detail}\n\n")
        with open(path, "a", encoding="utf-8", errors="replace") as handle:
            handle.write(entry)
    except OSError:
        pass  # nowhere to log: still exit 0


def log_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    return state_root(claude_home(None, env), env) / LOG_FILE


def main(event: str) -> int:
    return run_hook(event, sys.stdin, sys.stdout)
