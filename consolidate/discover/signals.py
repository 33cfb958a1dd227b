"""A signal: one piece of evidence in a transcript that something is worth remembering.

Signals are plain data (cached per transcript between scans); `candidates` turns them into
`Candidate` models. Everything quoted from a transcript is redacted before it lands here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..secrets import redact
from .grammar import essential
from .text import clip, sentences

QUOTE_LIMIT = 200
REPLY_LIMIT = 600  # the opening of a reply: where it acknowledges and restates, not the work that follows


@dataclass
class Signal:
    kind: str  # a models.SignalKind
    principle: str
    trigger: str = ""
    session: str = ""
    uuid: str = ""
    timestamp: str = ""
    quote: str = ""
    context: str = ""  # what the assistant had just done, for corrections and rejections
    detail: str = ""
    language: str = "en"
    file: str = ""
    strength: float = 0.0  # extra confidence from the wording (a generaliser such as "always")
    redacted: bool = False  # the principle carried a secret: never emitted
    queue_id: str = ""
    channel: str = ""  # the capture channel of a queue item
    # Earlier turns of the same session the lesson comes from (`uuid`, `timestamp`, `quote`): the user's
    # turn a "remember that" points back at, or a turn that said the same rule again.
    also: list[dict[str, str]] = field(default_factory=list)
    # The turn said it holds beyond the moment ("always", "from now on") even where the principle lost
    # the word ("…, any reason not to "always" do that?"), or the reply promised to keep to it.
    standing: bool = False
    # The user's interventions on one task from one typed request to the next (see `episodes`).
    episode: str = ""
    # The first sentences of the assistant's reply to a user's turn (`reply_excerpt`): its
    # acknowledgement ("You're right — …") and the rule it may restate, read when learnings are assembled.
    reply: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))  # `asdict` without its deep copy: plain values (`also` is only ever read)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Signal:
        signal = cls(**{k: v for k, v in data.items() if k in _FIELD_NAMES})
        if not isinstance(signal.reply, str):  # a hand-edited or damaged cache: no reply rather than a crash
            signal.reply = ""
        return signal


_FIELD_NAMES = frozenset(f.name for f in fields(Signal))  # read once: a re-scan makes every cached signal


def make_signal(kind: str, principle: str, *, quote: str, **extra: Any) -> Signal:
    """A signal with its texts redacted, its principle the lesson itself (`grammar.essential`) and
    the quote clipped to `QUOTE_LIMIT` characters."""
    redacted = redact(principle)
    clean = essential(redacted)
    detail = redact(extra.pop("detail", ""))
    context = redact(extra.pop("context", ""))
    reply = reply_excerpt(extra.pop("reply", ""))
    trigger = redact(extra.pop("trigger", ""))
    return Signal(
        kind=kind,
        principle=clean,
        quote=quote_around(redact(quote), clean),
        detail=detail,
        context=clip(context, QUOTE_LIMIT),
        trigger=trigger,
        reply=reply,
        redacted=redacted != principle,
        **extra,
    )


def quote_around(text: str, principle: str) -> str:
    """A quote of at most `QUOTE_LIMIT` characters that starts near where the principle was said."""
    text = " ".join(text.split())
    probe = " ".join(principle.split())[:24].lower()
    position = text.lower().find(probe) if len(probe) >= 8 else -1
    if position <= 40:
        return clip(text, QUOTE_LIMIT)
    start = text.rfind(" ", 0, position - 20) + 1  # a whole word first ("…nsistent habit" read as a typo)
    return clip("…" + text[start:], QUOTE_LIMIT)


def reply_excerpt(text: str) -> str:
    """The first sentences of a reply, at most `REPLY_LIMIT` characters, redacted: its first paragraph,
    cut after the last whole sentence that fits (a single longer sentence is clipped)."""
    if not text:
        return ""
    head = redact(text.strip()[: 2 * REPLY_LIMIT])  # redacted before it is cut: no secret is halved
    kept = ""
    for sentence in sentences(head.split("\n\n", 1)[0]):
        joined = f"{kept} {sentence}" if kept else sentence
        if len(joined) > REPLY_LIMIT:
            break
        kept = joined
    return kept or clip(head.split("\n\n", 1)[0], REPLY_LIMIT)
