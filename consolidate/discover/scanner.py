"""Signals per transcript, cached between scans.

An unchanged transcript is not read at all: its signals come from the scan state. Appended records are
read from the saved offset and searched with the last active records (the carry) as context. When the
new records do not simply continue the conversation (a rewind, a parent the carry does not know), or the
file was truncated or replaced, the whole transcript is read again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from ..transcripts.branches import active_records
from ..transcripts.lines import LineStats
from ..transcripts.records import Record
from ..transcripts.session import Transcript, TranscriptFile, read_transcript
from ..transcripts.state import Change, FileState, ScanState, classify_change, state_key
from .carry import load_carry, save_carry
from .detectors import detect_signals
from .signals import Signal

DETECTOR_VERSION = 1  # bump whenever detection changes: cached signals are then recomputed
_CHAIN_TYPES = frozenset({"user", "assistant"})


@dataclass
class FileScan:
    file: TranscriptFile
    change: Change
    signals: list[Signal] = field(default_factory=list)
    stats: LineStats = field(default_factory=LineStats)


class SignalCache:
    """The scan state of one memory dir: `state.json` plus one carry file per transcript."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.state = ScanState.load(directory / "state.json")

    def save(self) -> None:
        self.state.save(self.directory / "state.json")

    def _carry_path(self, key: str) -> Path:
        return (
            self.directory
            / "carry"
            / (hashlib.sha1(key.encode(), usedforsecurity=False).hexdigest() + ".json")
        )

    def scan(self, file: TranscriptFile) -> FileScan:
        key = state_key(file.path)
        previous = self.state.files.get(key)
        if previous is not None and previous.data.get("version") != DETECTOR_VERSION:
            previous = None
        change, identity = classify_change(file.path, previous)
        if identity is None:
            self.state.files.pop(key, None)
            return FileScan(file, Change.MISSING)
        if change is Change.UNCHANGED and previous is not None:
            return FileScan(file, change, [Signal.from_dict(s) for s in previous.data.get("signals", [])])
        scan = None
        if change is Change.APPENDED and previous is not None:
            scan = self._append(file, previous, change)
        if scan is None:
            transcript = read_transcript(file)
            active = transcript.active()
            scan = FileScan(file, change, detect_signals(active, file), transcript.stats)
            self._remember(key, FileState(identity, transcript.end_offset), scan.signals, active, transcript)
            return scan
        self.state.files[key].identity = identity
        return scan

    def _append(self, file: TranscriptFile, previous: FileState, change: Change) -> FileScan | None:
        key = state_key(file.path)
        carry = load_carry(self._carry_path(key))
        if carry is None:
            return None
        transcript = read_transcript(file, start=previous.offset)
        active = continued_conversation(carry, transcript.records)
        if active is None:
            return None
        carried = {r.uuid for r in carry}
        new_signals = detect_signals(active, file, start=sum(1 for r in active if r.uuid in carried))
        signals = [Signal.from_dict(s) for s in previous.data.get("signals", [])] + new_signals
        state = FileState(previous.identity, transcript.end_offset)
        self._remember(key, state, signals, active, transcript)
        return FileScan(file, change, signals, transcript.stats)

    def _remember(
        self, key: str, state: FileState, signals: list[Signal], active: list[Record], transcript: Transcript
    ) -> None:
        state.data = {"version": DETECTOR_VERSION, "signals": [s.to_dict() for s in signals]}
        self.state.files[key] = state
        if active:
            save_carry(self._carry_path(key), active)


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
