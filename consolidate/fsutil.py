"""Atomic writes and content hashes: a crash leaves the old file or the new one, never half."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

ABSENT = "absent"


def digest_bytes(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def digest_file(path: Path) -> str:
    """The content hash of `path`, or `absent` when there is no such file (OSError when unreadable)."""
    try:
        return digest_bytes(path.read_bytes())
    except FileNotFoundError:
        return ABSENT


def atomic_write(path: Path, data: bytes) -> None:
    """Write through a temp file in the same directory, fsync, then rename over `path`. A symlink is
    written through: its target gets the bytes and the link stays a link."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def parse_json_object(text: str | None) -> dict[str, Any]:
    """The JSON object `text` holds, or {} for nothing, invalid JSON or another JSON value."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def load_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in a file, or {} when it is absent, unreadable or not an object."""
    try:
        return parse_json_object(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return {}


def write_if_changed(path: Path, data: bytes) -> bool:
    """`atomic_write` unless the file already holds exactly `data`; whether it wrote."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    atomic_write(path, data)
    return True


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
