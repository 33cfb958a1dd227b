"""`consolidate hook <Event>`: read the payload, run the handler, print its answer, exit 0.

A hook never blocks the session because of a fault of ours: bad JSON, a missing field, an unreadable
file or a bug is written to `<state dir>/hooks.log` and the hook exits 0 with no output — except that
a guard never fails open: a PreToolUse that cannot decide while a guard lesson is active for the
project blocks the call (exit 2, one line). Inside our own agent runs (`CONSOLIDATE_CHILD=1`) hooks do
nothing. `bootstrap_main` is where the shell launcher (`consolidate-hook.sh`) lands.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

from ..capture.places import claude_home, state_root
from .context import HookContext

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import TextIO


CHILD_ENV = "CONSOLIDATE_CHILD"
LOG_FILE = "hooks.log"
INTERPRETER_FILE = "hook-python"  # the interpreter that ran the last hook: the launcher tries it first
LOG_MAX_BYTES = 1_000_000
HANDLERS = {
    "SessionStart": "session_start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "pretool",
    "Stop": "stop",
    "SessionEnd": "session_end",
}


def _handler(event: str) -> Callable[[HookContext], str]:
    """Import only the handler this event needs."""
    module = __import__(
        f"{__package__}.{HANDLERS[event]}", fromlist=["handle"]
    )  # not importlib: one import less
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
        return _fail_closed(env, event, exc)
    if answer:
        stdout.write(answer + "\n")
    return 0


def _fail_closed(env: Mapping[str, str], event: str, exc: Exception) -> int:
    """0, or for a PreToolUse under an active guard 2 with one line on stderr: never fail open."""
    if event != "PreToolUse":
        return 0
    try:
        from ..learnings.guards import guard_applies

        project = env.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        guarded = guard_applies(state_root(claude_home(None, env), env), project)
    except Exception:  # cannot even tell: a guard may be active
        guarded = True
    if not guarded:
        return 0
    sys.stderr.write(
        f"consolidate: the PreToolUse hook failed ({type(exc).__name__}: {_one_line(exc)}) while a guard "
        f"lesson is active for this project, so this call is blocked; see {log_path(env)}\n"
    )
    return 2


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]


def bootstrap_main(event: str, via: str = "settings") -> int:
    """The launcher's entry: this interpreter passed its version check. Remember it for next time,
    step aside when the plugin's copy finds the same hook wired in settings, then run the hook."""
    env = os.environ
    state = state_root(claude_home(None, env), env)
    _remember_interpreter(state)
    if via == "plugin" and env.get(CHILD_ENV) != "1":
        from .wiring import settings_files, settings_wiring

        files = settings_files(claude_home(None, env), env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
        twice = settings_wiring(files, event)
        if twice is not None:
            if event == "SessionStart":
                _say_wired_twice(state, env, twice)
            return 0
    return run_hook(event, sys.stdin, sys.stdout, env)


def _remember_interpreter(state: Path) -> None:
    from contextlib import suppress

    from ..fsutil import write_if_changed

    with suppress(OSError):  # unwritable: the launcher just tries the usual names again
        write_if_changed(state / INTERPRETER_FILE, (sys.executable + "\n").encode("utf-8"))


def _say_wired_twice(state: Path, env: Mapping[str, str], settings: Path) -> None:
    """Once per session, tell the user the hooks are wired by both the plugin and settings."""
    from .dedup import once_per_session
    from .output import notice

    if once_per_session(state, env.get("CLAUDE_CODE_SESSION_ID", ""), "wired-twice"):
        sys.stdout.write(
            notice(
                "SessionStart",
                f"consolidate: its hooks are wired twice, by the plugin and in {settings}; the plugin's "
                "copy steps aside so each hook runs once. Keep one: `consolidate uninstall` or "
                "`claude plugin uninstall consolidate`.",
            )
            + "\n"
        )


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
