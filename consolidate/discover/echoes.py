"""Echoes: short things the user said that are no signal on their own but say a lesson again.

A user rarely teaches a rule once: "remind me to amend the .claude sessions!" comes back in the next
session before the turn that finally states it as a standing rule. Such a turn is kept as an echo —
never a candidate by itself — and joins the candidate whose rule it repeats as evidence, so the
candidate cites every moment that taught it (its frequency and ranking stay those of the signals).
An echo said in the same session between the moments the candidate cites, or in the five minutes before
the first ("nope, that doesn't work, [1],[2] works" just before "does it make sense to you?" and "add
that to CLAUDE.md"), belongs to that exchange: the words it shares with the rule need not be half of
its own.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache

from .echopool import ECHO_KIND, EXCHANGE, MAX_EVIDENCE, Echo
from .existing import contradicts
from .report import Evidence, Learning
from .signals import Signal
from .text import content_size, mask_code, stems

__all__ = ["ECHO_KIND", "EXCHANGE", "MAX_EVIDENCE", "attach_echoes", "is_echo_text"]
ECHO_LIMIT = 300  # an echo is a short request, not a pasted log or a long discussion
MIN_ECHO = 3  # content words an echo needs to be recognisable
MIN_SHARED = 3  # content words it must share with the candidate it joins
MIN_COVERED = 0.5  # the part of its own content words the candidate says too


@lru_cache(maxsize=1024)  # the same turn comes back in every session resumed from it
def is_echo_text(text: str) -> bool:
    """Short, not a bare question, with enough words to recognise the lesson it may repeat."""
    stripped = text.strip()
    if not stripped or len(stripped) > ECHO_LIMIT or stripped.endswith(("?", "？")):
        return False
    return content_size(mask_code(stripped)) >= MIN_ECHO


def _between(echo: Signal | Echo, span: dict[str, tuple[str, str]]) -> bool:
    """Said in the same session between the moments the candidate cites, or in the minutes just before
    the first: part of that exchange, so the words it shares need not be half of its own."""
    first, last = span.get(echo.session, ("", ""))
    said, start = _time(echo.timestamp), _time(first)
    if said is None or start is None or not echo.timestamp < last:
        return False
    return said >= start - EXCHANGE


def _time(stamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def attach_echoes(candidates: list[Learning], echoes: Iterable[Signal | Echo]) -> None:
    """Each echo joins the one candidate whose principle it repeats best (in place); the rest are dropped.
    The echoes are read once, in order (they may come from disk, see `echopool`)."""
    if not candidates:
        return
    cited = {(e.session, e.uuid) for c in candidates for e in c.evidence}
    holders: dict[str, list[int]] = defaultdict(list)  # content word -> the candidates that say it
    spans: list[dict[str, tuple[str, str]]] = []  # session -> (first, last) moment each candidate cites
    for position, candidate in enumerate(candidates):
        for word in stems(candidate.principle):
            holders[word].append(position)
        span: dict[str, tuple[str, str]] = {}
        for evidence in candidate.evidence:
            if evidence.timestamp:
                first, last = span.get(evidence.session, (evidence.timestamp, evidence.timestamp))
                span[evidence.session] = (min(first, evidence.timestamp), max(last, evidence.timestamp))
        spans.append(span)
    for echo in echoes:
        if (echo.session, echo.uuid) in cited:
            continue
        words = stems(echo.principle)
        shared = Counter(p for word in words for p in holders.get(word, ()))
        ranked = [
            (n, -p)
            for p, n in shared.items()
            if n >= MIN_SHARED and (n / len(words) >= MIN_COVERED or _between(echo, spans[p]))
        ]
        if not ranked:
            continue
        best = candidates[-max(ranked)[1]]  # the most words shared; the first such candidate on a tie
        if contradicts(echo.principle, best.principle) or len(best.evidence) >= MAX_EVIDENCE:
            continue
        best.evidence.append(
            Evidence(
                session=echo.session,
                uuid=echo.uuid,
                timestamp=echo.timestamp,
                quote=echo.quote,
                file=echo.file,
            )
        )
        cited.add((echo.session, echo.uuid))
