"""One run at a time per memory dir: an advisory lock the OS releases if the process dies."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import LockedError


@contextmanager
def run_lock(lock_file: Path, what: str) -> Iterator[None]:
    """Hold the lock for the body; a second holder gets LockedError at once instead of waiting."""
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    handle = open(lock_file, "a+")  # noqa: SIM115 - held for the duration of the context
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise LockedError(
                f"another consolidate run ({holder}) is working on {what}; try again when it ends"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        yield
    finally:
        handle.close()
