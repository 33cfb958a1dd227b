"""The scan's signals of every transcript in a folder, as the detectors find them."""

from __future__ import annotations

from pathlib import Path

from consolidate.discover.detectors import detect_signals
from consolidate.discover.signals import Signal
from consolidate.transcripts import find_transcripts, read_transcript


def signals_in(folder: Path, *, lean: bool = False, echoes: bool = False) -> list[Signal]:
    found: list[Signal] = []
    for file in find_transcripts(folder):
        found += detect_signals(read_transcript(file, lean=lean).active(), file, echoes=echoes)
    return found
