"""Read a file only when it is a regular file: a FIFO, a device or a socket named like a memory file
would block the reader forever (or, for /dev/zero, never end). Standard library only."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_DOCUMENT_BYTES = 4 * 1024 * 1024  # a memory file larger than this is refused, never parsed


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a directory: skipped, never read."""


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most `limit` + 1 of them, so the caller can tell it is too
    large). Opening does not block on a FIFO, and nothing is read from anything but a regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO, a device or a socket"
            raise NotRegularFile(errno.EINVAL, f"not a regular file ({kind})", str(path))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read() if limit is None else handle.read(limit + 1)
    finally:
        os.close(fd)


def exists(path: Path) -> bool:
    """Whether something is at `path`; False (never an error) for a name too long for the system."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def is_regular(path: Path) -> bool:
    """Whether `path` is a regular file (following symlinks); False when it cannot be told."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False
