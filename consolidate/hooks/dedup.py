"""Once per session: a lesson injected in a session is marked by a file created with O_CREAT|O_EXCL.

Exactly one of several parallel tool calls can create the mark, so a lesson cannot be injected twice
even when hooks race. Clearing or compacting the context resets the marks (the model has lost them).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

SESSIONS_DIR = "sessions"
KEEP_DAYS = 7
SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")  # a session or agent id usable as a file name


class SessionMarks:
    def __init__(self, state_dir: Path, session_id: str) -> None:
        self.directory = state_dir / SESSIONS_DIR / session_id / "injected" if session_id else None

    def claim(self, name: str) -> bool:
        """True for the first caller only; always True without a session id (nothing to dedupe by)."""
        if self.directory is None:
            return True
        self.directory.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.directory / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return False
        os.close(fd)
        return True

    def reset(self) -> None:
        import shutil

        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)


def once_per_session(state_dir: Path, session_id: str, name: str) -> bool:
    """True the first time `name` is claimed in this session (clear and compact do not reset it);
    always True without a usable session id."""
    if not SAFE_ID.match(session_id or ""):
        return True
    directory = state_dir / SESSIONS_DIR / session_id / "once"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        os.close(os.open(directory / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return False
    return True


def prune_sessions(state_dir: Path, keep_days: float = KEEP_DAYS, now: float | None = None) -> int:
    """Drop the marks of sessions untouched for `keep_days`; returns how many went."""
    root = state_dir / SESSIONS_DIR
    cutoff = (now or time.time()) - keep_days * 86400
    removed = 0
    try:
        children = list(root.iterdir())
    except OSError:
        return 0
    for child in children:
        try:
            if child.stat().st_mtime < cutoff:
                import shutil  # here: most session starts remove nothing

                shutil.rmtree(child, ignore_errors=True)
                removed += 1
        except OSError:
            continue
    return removed
