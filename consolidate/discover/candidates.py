"""Turn signals into candidate learnings: layer, section, confidence and impact, one pointer line each."""

from __future__ import annotations

import re
from typing import Any, Protocol

from memory_layout.pointers import always_on_pointer, trigger_pointer

from . import lexicon
from .report import Evidence, Learning
from .signals import Signal
from .text import clip
from .wording import finish

BASE_CONFIDENCE = {
    "marker": 0.9,
    "queue": 0.9,
    "remember": 0.85,
    "rejection": 0.75,
    "decision": 0.7,
    "correction": 0.65,
    "error-fix": 0.6,
    "preference": 0.7,
}
BASE_IMPACT = {
    "marker": 0.6,
    "queue": 0.6,
    "remember": 0.7,
    "rejection": 0.6,
    "decision": 0.6,
    "correction": 0.6,
    "error-fix": 0.5,
    "preference": 0.6,
}
SECTIONS = {
    "marker": "Learnings",
    "queue": "Learnings",
    "remember": "Feedback",
    "rejection": "Feedback",
    "correction": "Feedback",
    "decision": "Decisions",
    "error-fix": "Commands",
    "preference": "Feedback",
}
L3_DETAIL = 300  # a detail body longer than this deserves its own topic file
_IMPORTANT = (
    "critical",
    "important",
    "must",
    "data loss",
    "security",
    "never",
    "always",
    "важно",
    "никогда",
    "всегда",
    "重要",
    "必须",
    "永远",
    "önemli",
    "asla",
    "her zaman",
)


def suggest_layer(signal: Signal) -> str:
    """L0 for how to behave everywhere, L1 for project conventions and decisions, L3 for long detail."""
    text = signal.principle.lower()
    if lexicon.BEHAVIOUR.search(text):
        return "L0"
    if len(signal.detail) > L3_DETAIL:
        return "L3"
    if signal.kind == "decision" or lexicon.CONVENTION.search(text) and signal.kind != "error-fix":
        return "L1"
    return "L2"


def suggest_section(signal: Signal, layer: str) -> str:
    if signal.channel and signal.channel != "learning":
        return signal.channel.replace("-", " ").title()
    if layer == "L0":
        return "Preferences"
    if layer == "L1" and signal.kind != "decision":
        return "Conventions"
    return SECTIONS.get(signal.kind, "Learnings")


def to_candidate(signal: Signal) -> Learning:
    """The candidate for one signal, before dedupe and the comparison with memory."""
    layer = suggest_layer(signal)
    principle, trigger = finish(
        signal.principle,
        signal.trigger,
        curated=signal.kind in ("marker", "queue"),
    )
    lowered = signal.principle.lower()
    impact = BASE_IMPACT.get(signal.kind, 0.5) + (0.15 if any(w in lowered for w in _IMPORTANT) else 0.0)
    if layer == "L0":
        impact += 0.1
    return Learning(
        kind=signal.kind,
        principle=principle,
        trigger=trigger,
        layer=layer,
        section=suggest_section(signal, layer),
        detail=signal.detail,
        confidence=round(
            min(0.98, BASE_CONFIDENCE.get(signal.kind, 0.5) + signal.strength + _acknowledged(signal)), 2
        ),
        impact=round(min(1.0, impact), 2),
        queue_id=signal.queue_id,
        evidence=[evidence_of(signal)] + [_also(signal, item) for item in signal.also]
        if signal.uuid or signal.session or signal.quote
        else [],
    )


def _acknowledged(signal: Signal) -> float:
    """What the reply's opening adds: a concession ("You're right", "Вы правы") more than an acceptance."""
    if not signal.reply:
        return 0.0
    from .replies import CONFIDENCE_BOOST, acknowledgement

    return CONFIDENCE_BOOST.get(acknowledgement(signal), 0.0)


def _also(signal: Signal, item: dict[str, str]) -> Evidence:
    return Evidence(
        session=signal.session,
        uuid=item.get("uuid", ""),
        timestamp=item.get("timestamp", ""),
        quote=item.get("quote", ""),
        file=signal.file,
    )


def evidence_of(signal: Signal) -> Evidence:
    return Evidence(
        session=signal.session,
        uuid=signal.uuid,
        timestamp=signal.timestamp,
        quote=signal.quote.rstrip("\\").rstrip(),  # a stray escape the user typed at the end
        file=signal.file,
    )


class _Pointed(Protocol):
    @property
    def trigger(self) -> str: ...
    @property
    def principle(self) -> str: ...


OWN_CONDITION = re.compile(
    r"\*{0,2}(?:(?:when|whenever|if|before|after|once|while)\b|for `[^`\n]+`,)", re.IGNORECASE
)  # "When the check fails, run …", "For `x y`, pass …": the rule names its own condition


def pointer_line(candidate: _Pointed) -> str:
    """The MEMORY.md entry the candidate proposes: `**When <trigger>:** <principle>.` (a principle
    that names its own condition, "When adding a dependency: …", "For `x`, pass …", gets no second
    one, as the dream writes it, and one without a trigger none at all)."""
    if not candidate.trigger or OWN_CONDITION.match(candidate.principle):
        return always_on_pointer(candidate.principle)  # a rule for every task: no "When …" of its own
    line = trigger_pointer(candidate.trigger, candidate.principle)
    return line[:-1] if line.endswith("….") else line


def queue_signal(item: dict[str, Any]) -> Signal:
    """A capture-queue item (`id`, `channel`, `payload`) as a signal; non-learning channels keep their name."""
    from .phrasing import marker_principle
    from .signals import make_signal
    from .text import language
    from .triggers import derive_trigger

    payload = str(item.get("payload") or "")
    channel = str(item.get("channel") or "learning")
    principle, detail = marker_principle(payload)
    if channel != "learning" and not detail:
        detail = payload if "\n" in payload.strip() else ""
    return make_signal(
        "queue",
        principle,
        quote=clip(payload, 200),
        trigger=derive_trigger(payload),
        detail=detail,
        language=language(payload),
        queue_id=str(item.get("id") or ""),
        channel=channel,
        timestamp=str(item.get("enqueued_at") or ""),
    )
