"""Progress of long phases on stderr: one live line on a terminal, a few plain lines in a pipe."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from .console import is_terminal


class Progress:
    """Called as `progress(what, done, total)` from any thread, e.g. ("transcripts scanned", 3, 54)."""

    def __init__(self, stream: TextIO | None = None, *, interval: float = 2.0) -> None:
        self.stream = stream or sys.stderr
        self.live = is_terminal(self.stream)
        self.interval = interval
        self._state: dict[str, tuple[int, int]] = {}
        self._printed: dict[str, float] = {}
        self._lock = threading.Lock()

    def __call__(self, what: str, done: int, total: int) -> None:
        with self._lock:
            self._state[what] = (done, total)
            finished = total > 0 and done >= total
            if self.live:
                line = " · ".join(f"{name}: {d}/{t}" for name, (d, t) in self._state.items())
                self.stream.write(f"\r\x1b[K{line}")
            elif finished or time.monotonic() - self._printed.get(what, 0.0) >= self.interval:
                self.stream.write(f"{what}: {done}/{total}\n")
                self._printed[what] = time.monotonic()
            self.stream.flush()

    def say(self, message: str) -> None:
        with self._lock:
            if self.live and self._state:
                self.stream.write("\r\x1b[K")
                self._state.clear()
            self.stream.write(f"{message}\n")
            self.stream.flush()
