"""The echoes a report can use, kept while the transcripts are scanned (see `echoes`).

A short user turn is kept as an echo in case it says a lesson again, and every such turn of every
transcript would be held until the report is built. Most cannot matter: an echo joins the one
candidate its words point at, and a candidate cites at most `MAX_EVIDENCE` moments, so of the
echoes that say the same words only the first `MAX_EVIDENCE` distinct turns can ever be cited. The
pool keeps those, every echo of a turn that a signal cites as well (the report passes over those,
so they count for nothing), and drops the rest as they come — and an echo that carried a secret,
which the report never uses. What it keeps grows with the distinct short turns, not with the
transcripts' size.

The report it gives is the one all the echoes give but in one case: a turn kept among the first
`MAX_EVIDENCE` that a signal of a *later* transcript (a copy of the session) or a queue item cites
too — the report passes over it, and the next echo of the same words, dropped already, would have
taken its place.
"""

from __future__ import annotations

from .signals import Signal

ECHO_KIND = "echo"
MAX_EVIDENCE = 8  # moments a candidate cites at most, echoes included

Turn = tuple[str, str]  # (session, uuid)


class EchoPool:
    """Signals in the order they came, with only the echoes a report can use (see the module)."""

    def __init__(self) -> None:
        self.signals: list[Signal] = []
        self._cited: set[Turn] = set()  # turns a signal (not an echo) cites
        self._turns: dict[str, set[Turn]] = {}  # an echo's words -> the turns kept that say them

    def add(self, signal: Signal) -> None:
        if signal.kind != ECHO_KIND:
            self._cited.add((signal.session, signal.uuid))
            self._cited.update((signal.session, item.get("uuid", "")) for item in signal.also)
            self.signals.append(signal)
            return
        if signal.redacted:
            return
        turn = (signal.session, signal.uuid)
        if turn in self._cited:
            self.signals.append(signal)
            return
        kept = self._turns.setdefault(signal.principle, set())
        if turn not in kept and len(kept) < MAX_EVIDENCE:
            kept.add(turn)
            self.signals.append(signal)
