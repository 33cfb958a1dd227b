"""What the assistant's reply, carried on a signal, adds when learnings are assembled from the scan state.

A reply that opens with an acknowledgement ("You're right", "Good catch", "My mistake", "Understood",
"Вы правы", "你说得对", "Haklısınız", an apology) makes the moment likelier a lesson. The rule the reply
restates words the lesson when the user's own words cannot stand alone: a pronoun with nothing to
stand for ("don't do that again"), or a rule said for this time that the reply says holds beyond it.
The user's words decide: the reply's rule must have the polarity of the user's turn, share what it is
about with the user's turn (or with the action the user answered), and never be the user's question
answered, a rule the user said was not needed, or the assistant's own next step ("I'll now …").
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..lazyre import lazy
from .acks import NO_REPLY, Reply, agrees_with_a_question, lasting_rule, read_reply
from .quality import _VAGUE_OBJECT, rejection_reason, wording_problem
from .rewrite import imperative
from .signals import Signal
from .text import mask_code, sentences, stems
from .triggers import derive_trigger

# The kinds whose wording is the user's, said in passing: the ones a reply can word.
_WORDED_BY_REPLY = frozenset({"correction", "rejection", "preference"})
CONFIDENCE_BOOST = {2: 0.05, 1: 0.02}  # a reply that concedes, one that accepts
DEFAULT_TRIGGER = "working in this project"
# Why the user's own words cannot stand alone, where the reply may say them: said for this time, cut off,
# too short to name anything.
_WORDED_REASONS = frozenset({"one-off", "fragment", "no principle"})


def reply_of(signal: Signal) -> Reply:
    return read_reply(signal.reply) if signal.reply else NO_REPLY


def acknowledgement(signal: Signal) -> int:
    """2 when the reply opens by conceding, 1 when it opens by accepting, 0 otherwise."""
    return reply_of(signal).strength


# "I should never force-push main" / "I shouldn't have …" said by the assistant of itself: the first is a
# rule in its mouth, the second a regret of this time.
_SELF_RULE = lazy(
    r"^(?:i|we) (?:should|must) (?P<never>never|always) |^(?:i|we) (?:should ?n'?t|should not|must not|mustn'?t) "
    r"(?!have\b)",
    re.IGNORECASE,
)
# The assistant's next step, not a rule: "I'll now …", "Let me …", "Next, …", "Doing it now".
_NEXT_STEP = lazy(
    r"^(?:let me|let's|now\b|next\b|first,? i\b|i'?m (?:going to|now)|i'?ll (?:now|go|fix|revert|redo|undo|"
    r"update|change|move|split|rerun|re-run|try|do|make)\b|i will (?:now|fix|revert|redo)\b)|"
    r"\b(?:right now|this time|for now)\b",
    re.IGNORECASE,
)
_FIRST_PERSON_INTL = lazy(
    r"\b(?:буду|сделаю|исправлю)\b|我(?:会|来|去|马上)|\w+(?:acağım|eceğim)\b", re.IGNORECASE
)
# The user said the thing is not needed: a reply's rule requiring it is no rule of theirs.
_NOT_NEEDED = lazy(
    r"\b(?:no need|don'?t need|do not need|doesn'?t need|not (?:necessary|needed|required)|needn'?t|"
    r"unnecessary|overkill|not worth)\b|не нужно|не надо|незачем|不需要|不用|没必要|\bgerek yok\b|\bgereksiz\b",
    re.IGNORECASE,
)
_NEGATIVE = lazy(
    r"\b(?:not|never|don'?t|do not|doesn'?t|isn'?t|aren'?t|shouldn'?t|mustn'?t|no|stop|avoid)\b|"
    r"\b(?:не|нельзя|никогда|хватит)\b|不要|不能|别|不|禁止|"
    r"\b(?:asla|değil|yapma|etme|kullanma|çalıştırma|ekleme|silme|değiştirme|gönderme)\b|\w+m[ae]malı\b",
    re.IGNORECASE,
)
# "No, …" opens a correction: it says the assistant was wrong, not that the rule forbids.
_NO_LEAD = lazy(r"^\W*(?:no|nope|nah|нет|不是|不对|hayır)(?:[\s,.!—–-]+|$)", re.IGNORECASE)
# A word that stands for what was just done or said: "don't do that again", "never do it", "не делай так".
_POINTS = lazy(
    r"\b(?:it|that|this|them|these|those)\b|\b(?:это|так|этого|такое)\b|这样|那样|这个|那个|\b(?:bunu|böyle|şunu|onu)\b",
    re.IGNORECASE,
)
# Shared words that say nothing of what a rule is about.
_EMPTY_STEMS = frozenset(
    {"again", "always", "never", "every", "each", "time", "don't", "dont", "that", "this"}
)


def reply_rule(signal: Signal, shared: int = 1) -> str:
    """The lasting rule the reply restates, as an instruction, when the user's turn supports it (with at
    least `shared` words of what it is about); ""."""
    reply = reply_of(signal)
    if reply.strength == 0 and not reply.commitment:
        return ""
    said = _restated(reply)
    if not said or not _supported(said, signal, shared):
        return ""
    return imperative(said, speaker="assistant")


def _restated(reply: Reply) -> str:
    """The reply's rule that holds beyond the moment: its restatement, or its first sentence after the
    acknowledgement when the assistant says it of itself ("I should never …")."""
    said = lasting_rule(reply, accepted=True)
    if not said:
        rest = re.sub(r"^[\s,.!:;—–\-，。！：；、]+", "", reply.rest)
        first = (sentences(rest.split("\n\n", 1)[0]) or [""])[0]
        own = _SELF_RULE.match(first)
        if own is None:
            return ""
        said = (own["never"].capitalize() + " " if own["never"] else "Don't ") + first[own.end() :]
    said = said.strip()
    if _NEXT_STEP.search(said) or _FIRST_PERSON_INTL.search(said) or said.endswith(("?", "？")):
        return ""
    return said


def _supported(rule: str, signal: Signal, shared: int) -> bool:
    """The user's turn asked for this rule: the same polarity, something it is about in common with the
    user's words or the action they answered, not a question the reply merely agreed with, not a
    thing the user said was not needed."""
    users = mask_code(signal.quote) if "`" in signal.quote else signal.quote
    if _NOT_NEEDED.search(users) or _NOT_NEEDED.search(rule):
        return False
    if bool(_NEGATIVE.search(_NO_LEAD.sub("", users))) != bool(_NEGATIVE.search(rule)):
        return False
    if agrees_with_a_question(signal.quote, rule):
        return False
    about = _about(rule) - _EMPTY_STEMS
    said = _about(signal.quote) | _about(signal.context)
    common = [a for a in about if any(a == b or min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))
                                      for b in said)]  # fmt: skip
    return len(common) >= shared


def _about(text: str) -> frozenset[str]:
    """The stems of a text with its compounds split: "force-push" is about pushing too."""
    return stems(text) | stems(text.replace("-", " "))


def worded_from_reply(signal: Signal) -> Signal:
    """The signal with the reply's rule as its principle when the user's words cannot stand alone ("that"
    naming nothing: "don't do that again"; a rule said for this time) and the reply restates a lasting
    rule the user's turn supports; the signal itself otherwise. (A pronoun in a rule that stands is
    named later, by `completion`, from the action the user stopped or else from the reply.)"""
    if signal.kind not in _WORDED_BY_REPLY or not signal.reply or signal.redacted:
        return signal
    principle = signal.principle.strip()
    reason = rejection_reason(signal)
    vague = (
        bool(_VAGUE_OBJECT.match(principle)) or reason == "no principle" and bool(_POINTS.search(principle))
    )
    if not vague and reason not in _WORDED_REASONS:
        return signal
    rule = reply_rule(signal, shared=1 if vague else 2)  # words of its own: the reply must say them too
    if not rule:
        return signal
    trigger = signal.trigger if signal.trigger and signal.trigger != DEFAULT_TRIGGER else derive_trigger(rule)
    worded = replace(signal, principle=rule, standing=True, trigger=trigger or signal.trigger)
    if rejection_reason(worded) or wording_problem(rule, worded.trigger):
        return signal
    return worded
