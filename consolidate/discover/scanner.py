"""Signals per transcript, cached between scans.

An unchanged transcript is not read at all: its signals come from the scan state. Appended records are
read from the saved offset and searched with the last active records (the carry) as context. When the
new records do not simply continue the conversation (a rewind, a parent the carry does not know), or the
file was truncated or replaced, the whole transcript is read again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from ..fsutil import blake2b, code_fingerprint
from ..lazyre import keep_compiled
from ..transcripts.branches import active_records
from ..transcripts.lines import LineStats
from ..transcripts.records import Record
from ..transcripts.session import TranscriptFile, paused_gc, read_transcript
from ..transcripts.state import Change, FileState, ScanState, classify_change, state_key
from .carry import CARRY_RECORDS, CarryStore
from .signalfile import SignalFile
from .signals import Signal

# With the code's fingerprint (`detector_version`): a change recomputes cached signals. 6: a signal
# carries the opening of the assistant's reply.
DETECTOR_VERSION = 6
# Context for appended records is kept only for sessions active lately (a live session): one that
# resumes after a longer pause is simply read again in full.
CARRY_MAX_AGE = 6 * 3600
_CHAIN_TYPES = frozenset({"user", "assistant"})


@cache
def detector_version() -> str:
    """DETECTOR_VERSION and a digest of the size and mtime of the modules that read transcripts and detect
    signals: after an upgrade or any edit of that code, cached signals are computed again."""
    package = Path(__file__).resolve().parents[1]
    fingerprint = code_fingerprint(
        (package / "discover", package / "transcripts"),
        (package / "lazyre.py", package / "secrets.py", package / "secret_rules.py"),
    )
    return f"{DETECTOR_VERSION}:{blake2b(fingerprint.encode(), digest_size=8).hexdigest()}"


@dataclass
class FileScan:
    file: TranscriptFile
    change: Change
    signals: list[Signal] = field(default_factory=list)
    stats: LineStats = field(default_factory=LineStats)


class SignalCache:
    """The scan state of one memory dir: `state.json` and the signals it points at (`signalfile`), plus
    `carry.json` for recent transcripts."""

    def __init__(self, directory: Path, *, keep: bool = True) -> None:
        """`keep=False` (a dry run, whose state is never saved) keeps no copy of what it read."""
        self.directory = directory
        self.keep = keep
        self.state = ScanState.load(directory / "state.json")
        self.signals = SignalFile(directory, self.state)
        self.carry = CarryStore(directory / "carry.json")
        self._changed = False

    def save(self) -> None:
        """Save the state (when anything changed, or a transcript is gone) and the carried context."""
        for key in self.state.forget_missing():
            self.carry.drop(key)
            self._changed = True
        if self._changed:
            self.signals.save(self.state)
            self.state.save(self.directory / "state.json")
            self.signals.done()
        self.signals.close()
        self.carry.save()

    def scan(self, file: TranscriptFile) -> FileScan:
        key = state_key(file.path)
        previous = self.state.files.get(key)
        if previous is not None and previous.data.get("version") != detector_version():
            previous = None
        if previous is None:
            return self._full(key, file, Change.NEW)
        change, identity = classify_change(file.path, previous)
        if identity is None:
            self._forget(key)
            return FileScan(file, Change.MISSING)
        cached = self.signals.signals(previous)
        if cached is None:  # its cached signals cannot be read: read it again
            return self._full(key, file, change if change.from_start else Change.NEW)
        if change is Change.UNCHANGED:
            return FileScan(file, change, [Signal.from_dict(s) for s in cached])
        scan = self._append(key, file, previous, change, cached) if change is Change.APPENDED else None
        if scan is None:
            return self._full(key, file, change)
        self.state.files[key].identity = identity
        return scan

    def _forget(self, key: str) -> None:
        self.state.files.pop(key, None)
        self.carry.drop(key)
        self._changed = True

    def _full(self, key: str, file: TranscriptFile, change: Change) -> FileScan:
        """Read the whole transcript (new, replaced, truncated, or appended in a way the carry cannot follow)."""
        from .detectors import detect_signals  # a scan with nothing new never loads the detectors

        keep_compiled()  # the detectors' patterns, compiled by an earlier scan
        # The records hold no cycles and are dropped once searched: with the collector paused until
        # then they are freed by reference counting, never traversed by a collection.
        with paused_gc():
            transcript = read_transcript(file, lean=True)
            if transcript.identity is None:
                self._forget(key)
                return FileScan(file, Change.MISSING)
            active = transcript.active()
            scan = FileScan(file, change, detect_signals(active, file, echoes=True), transcript.stats)
            self._remember(key, FileState(transcript.identity, transcript.end_offset), scan.signals, active)
            del transcript, active
        return scan

    def _append(
        self,
        key: str,
        file: TranscriptFile,
        previous: FileState,
        change: Change,
        cached: list[dict[str, Any]],
    ) -> FileScan | None:
        carry = self.carry.get(key)
        if carry is None:
            return None
        from .detectors import detect_signals

        keep_compiled()
        transcript = read_transcript(file, start=previous.offset, lean=True)
        active = continued_conversation(carry, transcript.records)
        if active is None:
            return None
        carried = {r.uuid for r in carry}
        new_signals = detect_signals(
            active, file, start=sum(1 for r in active if r.uuid in carried), echoes=True
        )
        redone = {
            s.uuid for s in new_signals
        }  # a turn read again with its answer supersedes the first reading
        old = [Signal.from_dict(s) for s in cached]
        signals = [s for s in old if s.uuid not in redone] + new_signals
        self._remember(key, FileState(previous.identity, transcript.end_offset), signals, active)
        return FileScan(file, change, signals, transcript.stats)

    def _remember(self, key: str, state: FileState, signals: list[Signal], active: list[Record]) -> None:
        if not self.keep:
            return
        state.data = {
            "version": detector_version(),
            "spilled": self.signals.spill([s.to_dict() for s in signals]),
        }
        self.state.files[key] = state
        self._changed = True
        if active and time.time() - _last_activity(active) < CARRY_MAX_AGE:
            self.carry.put(key, active)
        else:
            self.carry.drop(key)


def _last_activity(records: list[Record]) -> float:
    """The time of the newest record that says when it was written (0 when none does)."""
    for record in reversed(records[-CARRY_RECORDS:]):
        try:
            return datetime.fromisoformat(record.timestamp.replace("Z", "+00:00")).timestamp()
        except ValueError:
            continue
    return 0.0


def continued_conversation(carry: list[Record], new: list[Record]) -> list[Record] | None:
    """The active records of carry + new, when the new ones continue the carried conversation, else None."""
    known = {r.uuid for r in carry} | {r.uuid for r in new}
    for record in new:
        link = record.parent or record.logical_parent
        if link is not None and link not in known:
            return None
        if link is None and not record.sidechain and record.uuid:
            return None
    active = active_records(carry + new)
    alive = {r.uuid for r in active}
    if any(r.type in _CHAIN_TYPES and r.uuid not in alive for r in carry):
        return None
    return active
