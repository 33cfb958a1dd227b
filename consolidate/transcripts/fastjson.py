"""Decode transcript lines into just the fields `normalize` reads, with msgspec when it is installed.

A typed decoder builds Python objects only for the envelope and the message content (as the structs of
`envelope`, not dicts); a tool's full output (`toolUseResult`), usage figures, image data and the rest
are skipped inside the C parser, which makes reading a session several times faster than `json.loads`.
Any line msgspec refuses (or a record of an unexpected shape) goes through the standard parser instead
(a dict, read by `normalize`), so what is read is the same with or without it. Without msgspec (the
hooks run with `python -S`) `record_decoders()` is None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .records import Record


Decode = Callable[[bytes], Any]


@dataclass(frozen=True)
class Decoders:
    one: Decode  # one line -> an envelope, raising ValueError or RecursionError on what it refuses
    lines: Callable[[bytes], list[Any]]  # newline-separated lines -> one envelope per value
    record: Callable[[Any, int], Record | None]  # an envelope (not a dict) -> what `normalize` gives


_decoders: list[Decoders | None] = []  # imported on first use: a scan with nothing to read never needs it


def record_decoders(lean: bool = False) -> Decoders | None:
    """The typed decoders of transcript records; None without msgspec. `lean` decoders leave the
    content of a tool result undecoded unless it is an error's (see `read_transcript`)."""
    if not _decoders:
        try:
            import msgspec

            from .envelope import Envelope, LeanEnvelope, record_of
        except ImportError:  # a dependency, but the hook path runs without site-packages
            _decoders.extend([None, None])
        else:
            for kind in (Envelope, LeanEnvelope):
                decoder = msgspec.json.Decoder(kind)
                _decoders.append(Decoders(decoder.decode, decoder.decode_lines, record_of))
    return _decoders[-1] if lean else _decoders[0]
