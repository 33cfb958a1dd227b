"""Decode transcript lines into just the fields `normalize` reads, with msgspec when it is installed.

A typed decoder builds Python objects only for the envelope and the message content; a tool's full
output (`toolUseResult`), usage figures, image data and the rest are skipped inside the C parser, which
makes reading a session several times faster than `json.loads`. Any line msgspec refuses (or a
record of an unexpected shape) goes through the standard parser instead, so what is read is the same
with or without it. Without msgspec (the hooks run with `python -S`) `record_decoders()` is None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict


class _Part(TypedDict, total=False):
    """A block inside a tool result: only its text is read."""

    type: Any
    text: Any


class _Block(TypedDict, total=False):
    type: Any
    text: Any
    id: Any
    name: Any
    input: Any
    tool_use_id: Any
    is_error: Any
    content: str | list[_Part] | None


class _Message(TypedDict, total=False):
    id: Any
    content: str | list[_Block] | None


class _Envelope(TypedDict, total=False):
    type: Any
    uuid: Any
    parentUuid: Any
    logicalParentUuid: Any
    sessionId: Any
    timestamp: Any
    subtype: Any
    isSidechain: Any
    isMeta: Any
    isVisibleInTranscriptOnly: Any
    isCompactSummary: Any
    origin: Any
    message: _Message


Decode = Callable[[bytes], Any]


@dataclass(frozen=True)
class Decoders:
    one: Decode  # one line -> dict, raising ValueError or RecursionError on what it refuses
    lines: Callable[[bytes], list[Any]]  # newline-separated lines -> one dict per value


_decoders: list[Decoders | None] = []  # imported on first use: a scan with nothing to read never needs it


def record_decoders() -> Decoders | None:
    """The typed decoders of transcript records; None without msgspec."""
    if not _decoders:
        try:
            import msgspec
        except ImportError:  # a dependency, but the hook path runs without site-packages
            _decoders.append(None)
        else:
            decoder = msgspec.json.Decoder(_Envelope)
            _decoders.append(Decoders(decoder.decode, decoder.decode_lines))
    return _decoders[0]
