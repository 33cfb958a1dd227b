"""Atomic writes and content hashes: a crash leaves the old file or the new one, never half."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from memory_layout.files import NotRegularFile, is_regular, read_regular

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any


__all__ = [
    "ABSENT", "NotRegularFile", "atomic_write", "code_fingerprint", "digest_bytes", "digest_file", "is_regular",
    "read_regular",
]  # fmt: skip

ABSENT = "absent"
KILL_ENV = "CONSOLIDATE_KILL_BEFORE_RENAME"  # tests and the kill bench: die with a temp file of this name


def code_fingerprint(directories: tuple[Path, ...], files: tuple[Path, ...] = ()) -> str:
    """Size and mtime of every module in `directories` and of `files`: what a cache built by that code
    keys on, so an upgrade or an edit of the code builds it again."""
    paths: list[str] = []
    for directory in directories:
        with os.scandir(directory) as entries:
            paths += sorted(entry.path for entry in entries if entry.name.endswith(".py"))
    parts: list[str] = []
    for path in [*paths, *map(str, files)]:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        parts.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\n".join(parts)


def digest_bytes(data: bytes) -> str:
    import hashlib  # here: the hooks never digest a file, and loading OpenSSL costs them milliseconds

    return "sha256:" + hashlib.sha256(data).hexdigest()


# For short inputs (ids, keys, a file's first 4 KB): the same digests as `hashlib`'s from CPython's
# built-in `_sha1` / `_sha256` when they are there. Importing `hashlib` loads OpenSSL, several
# milliseconds on every hook call; on large data the built-in modules are tens of times slower.
def sha1_hex(data: bytes) -> str:
    try:
        from _sha1 import sha1
    except ImportError:
        from hashlib import sha1
    return sha1(data).hexdigest()


def sha256_hex(data: bytes) -> str:
    try:
        from _sha256 import sha256
    except ImportError:
        from hashlib import sha256
    return sha256(data).hexdigest()


def blake2b(data: bytes = b"", *, digest_size: int = 64) -> Any:
    """`hashlib.blake2b` (which is CPython's built-in `_blake2` one), without importing `hashlib` and
    with it OpenSSL."""
    try:
        from _blake2 import blake2b as built_in
    except ImportError:
        from hashlib import blake2b as built_in
    return built_in(data, digest_size=digest_size)


def digest_file(path: Path) -> str:
    """The content hash of `path`, or `absent` when there is no such file (OSError when unreadable,
    NotRegularFile for a FIFO or a device, which is never read)."""
    try:
        return digest_bytes(read_regular(path))
    except FileNotFoundError:
        return ABSENT


def atomic_write(path: Path, data: bytes) -> None:
    """Write through a temp file in the same directory, fsync, then rename over `path`. A symlink is
    written through: its target gets the bytes and the link stays a link."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, temp = _make_temp(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if os.environ.get(KILL_ENV) == path.name:
            os.kill(os.getpid(), 9)
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def _make_temp(path: Path) -> tuple[int, str]:
    """`tempfile.mkstemp` as atomic_write uses it (`.<name>.<8 chars>.tmp`, mode 0600), without
    importing `tempfile`: it pulls shutil, random and the compressors into every hook."""
    for _ in range(100):
        temp = str(path.parent / f".{path.name}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(
                temp, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600
            ), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


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


_TEMP = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")  # what mkstemp makes for atomic_write


def temp_files(path: Path) -> list[Path]:
    """Temp files `atomic_write` left beside `path` (or beside its link target) when it was killed
    between creating one and renaming it."""
    found = []
    for target in {path, Path(os.path.realpath(path))}:
        try:
            found += [
                p
                for p in target.parent.iterdir()
                if (m := _TEMP.fullmatch(p.name)) and m["name"] == target.name and p.is_file()
            ]
        except OSError:
            continue
    return found


def stray_temp_files(directory: Path) -> list[Path]:
    """Every temp file of ours under `directory`."""
    try:
        return [p for p in directory.rglob(".*.tmp") if _TEMP.fullmatch(p.name) and p.is_file()]
    except OSError:
        return []


def remove_temp_files(paths: list[Path], strays: list[Path] | None = None) -> int:
    """Remove the temp files left beside each path (ours by their name), and `strays`; how many."""
    removed = 0
    for temp in [t for path in paths for t in temp_files(path)] + (strays or []):
        try:
            temp.unlink()
            removed += 1
        except OSError:
            continue
    return removed


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
