"""The cached signals of every transcript, one JSON line per transcript, in a file beside the scan state.

`state.json` keeps, for each transcript, where its line is (`"at": [start, length]`) and names the
file (`signals_file`); a scan reads the line of an unchanged transcript when it needs it, and writes
the signals it found as it goes to a temporary file (`"spilled"`), so neither what was cached nor what
was found is held for the whole scan. Saving copies every line still referenced into a new file, read
by the new `state.json` once it is written; the old file is removed after. A line that cannot be read
(a state from an older version keeps its signals inline, still read) makes its transcript be read
again.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, BinaryIO

from ..fsutil import fsync_dir
from ..transcripts.state import FileState, ScanState, encode_json

NAME_KEY = "signals_file"  # in the state's own data: the file its pointers read
_PREFIX, _SUFFIX = "signals-", ".jsonl"
_ORPHAN_AGE = (
    24 * 3600
)  # a file no state names (a scan stopped between its two writes) is removed after a day


class SignalFile:
    def __init__(self, directory: Path, state: ScanState) -> None:
        self.directory = directory
        name = state.data.get(NAME_KEY)
        self.name = name if isinstance(name, str) and _is_own(name) else None
        self._old_name: str | None = None
        self._spill: BinaryIO | None = None

    def signals(self, entry: FileState) -> list[dict[str, Any]] | None:
        """The cached signals of a transcript; None when they cannot be read."""
        data = entry.data
        if "signals" in data:  # inline, as an older version saved them
            found = data["signals"]
            return found if isinstance(found, list) else None
        line = self._line(data)
        if line is None:
            return None
        try:
            found = json.loads(line)
        except (ValueError, RecursionError):
            return None
        return found if isinstance(found, list) else None

    def spill(self, signals: list[dict[str, Any]]) -> list[int]:
        """Write the (redacted) signals of a transcript read this run; where they are, for `"spilled"`."""
        from ..secrets import redact_data

        if self._spill is None:
            import tempfile  # only when something was read: a scan with nothing new never loads it

            self.directory.mkdir(parents=True, exist_ok=True)
            self._spill = tempfile.TemporaryFile(dir=self.directory, prefix=".signals-", suffix=".tmp")  # noqa: SIM115
        line = encode_json(redact_data(signals)) + b"\n"
        start = self._spill.seek(0, os.SEEK_END)
        self._spill.write(line)
        return [start, len(line)]

    def save(self, state: ScanState) -> None:
        """Copy the line of every entry of the state into a new file, point the entries at it and name
        it in the state; the caller saves the state, then calls `done`. An entry whose line cannot be
        read loses its signals (its transcript is read again next time)."""
        import tempfile

        self.directory.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=self.directory, prefix=_PREFIX, suffix=_SUFFIX + ".tmp")
        name = Path(temp).name.removesuffix(".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                for entry in state.files.values():
                    line = self._entry_line(entry)
                    if line is None:
                        entry.data = {}
                        continue
                    start = handle.tell()
                    handle.write(line)
                    entry.data = {"version": entry.data.get("version"), "at": [start, len(line)]}
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.directory / name)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        fsync_dir(self.directory)
        self._old_name, self.name = self.name, name
        state.data[NAME_KEY] = name

    def done(self) -> None:
        """After the state naming the new file was saved: the old file and any orphan go."""
        self.close()
        old, now = self._old_name, time.time()
        for path in self.directory.glob(f"{_PREFIX}*{_SUFFIX}*"):
            if path.name == self.name:
                continue
            try:
                if path.name == old or now - path.stat().st_mtime > _ORPHAN_AGE:
                    path.unlink()
            except OSError:
                continue

    def close(self) -> None:
        if self._spill is not None:
            self._spill.close()
        self._spill = None

    def _entry_line(self, entry: FileState) -> bytes | None:
        data = entry.data
        if "signals" in data:
            found = data["signals"]
            return encode_json(found) + b"\n" if isinstance(found, list) else None  # redacted when saved
        return self._line(data)

    def _line(self, data: dict[str, Any]) -> bytes | None:
        spilled = "spilled" in data
        where: Any = data["spilled"] if spilled else data.get("at")
        if not _is_span(where) or (self._spill if spilled else self.name) is None:
            return None
        try:
            if spilled:
                assert self._spill is not None
                line = _read(self._spill, where)
            else:  # opened for each read: a dry run, which never saves, leaves nothing open
                with open(self.directory / str(self.name), "rb") as handle:
                    line = _read(handle, where)
        except (OSError, ValueError, OverflowError):
            return None
        return line if len(line) == where[1] and line.endswith(b"\n") else None


def _read(handle: BinaryIO, where: list[int]) -> bytes:
    handle.seek(where[0])
    return handle.read(where[1])


def _is_own(name: str) -> bool:
    return name.startswith(_PREFIX) and name.endswith(_SUFFIX) and "/" not in name and "\\" not in name


def _is_span(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    )
