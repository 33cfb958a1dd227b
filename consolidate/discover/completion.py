"""A finished rule the wording gate finds incomplete, completed from its own evidence when the evidence
says what is missing; nothing is invented, and what cannot be completed with confidence is dropped.

- A pronoun with no referent, when the user stopped a tool call whose command is the pronoun's verb:
  "Don't publish it until after it passes its tests" (the user stopped `npm publish`) -> "Don't run
  `npm publish` until after the tests pass".
  Else, when the reply restates the rule as a lasting one the user's turn supports, its words (see
  `replies`): "don't merge it until the CI is green" -> "A pull request is never merged until the CI is
  green".
- A sentence about what an example does, when the user's own turn names the other form of the same
  example: "`{1},{2}` makes each one a separate footnote" after the user asked for `{1,2}` -> "Write
  `{1,2}`, not `{1},{2}`" (a form the user only asks about orders nothing).
- A reason that points at the conversation ("because of our shared history"), replaced by the words
  the memory or the evidence states that reason in ("shared history with the `vendor/` mirror"); when
  neither states it, the reason is dropped and the rule kept only if it stands alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..lazyre import lazy
from .quality import MIN_RULE, POINTED_REASON, _names_something, wording_problem
from .report import Learning
from .signals import Signal
from .text import content_size, sentences

_RUNNING = lazy(r"^running `(?P<command>[^`\n]+)`$")
_PRONOUN_OBJECT = lazy(r"\b(?P<verb>[A-Za-z-]+)\s+(?:it|them)\b")
# The same thing spoken of again once the referent is named: "until after it passes its tests".
_IT_PASSES = lazy(r"\b(?:it|they)\s+pass(?:es)?\s+(?:its|it's|their)\s+(?P<what>\w+)\b", re.I)
_LEADING_EXAMPLE = lazy(r"^[`](?P<example>[^`\n]+)`")
_ORDERED = lazy(
    r"\b(?:write|use|want|prefer|type|should be|must be|needs? to be|instead)\b[^`\n]{0,30}?`(?P<span>[^`\n]+)`",
    re.I,
)
_QUALIFIER = r"(?:with|in|between|among|from|of|on|to|for)\s+(?:`[^`\n]+`|[\w'/.-]+)(?:\s+(?:`[^`\n]+`|[\w'/.-]+)){0,5}"
_QUALIFIER_END = r"(?=\s*[(),.;:!]|\s*$)"  # the qualifier ends where the sentence says it ends: never cut


def complete(
    candidate: Learning, signal: Signal | None, memory: Sequence[str] = ()
) -> tuple[Learning | None, str]:
    """(the candidate worded so that it stands alone, or None when it cannot be; what the gate found
    wrong with its wording as it came, or "")."""
    problem = wording_problem(candidate.principle, candidate.trigger)
    if not problem:
        return candidate, ""
    principle = None
    if problem == "no referent" and signal is not None:
        principle = _named_referent(candidate.principle, signal.context) or _named_by_reply(signal)
    elif problem == "no rule" and signal is not None:
        principle = _both_sides(candidate.principle, _users_words(signal))
    elif problem == "unexplained reason":
        principle = _stated_reason(candidate.principle, [*memory, *_evidence_words(signal)])
    if principle is None or wording_problem(principle, candidate.trigger):
        return None, problem
    return replace(candidate, principle=principle), problem


def _named_referent(principle: str, context: str) -> str | None:
    """The pronoun replaced by the stopped tool call, when the call's command ends in the pronoun's verb."""
    running = _RUNNING.match(context.strip())
    pronoun = _PRONOUN_OBJECT.search(principle)
    if running is None or pronoun is None:
        return None
    command = running["command"]
    if command.split()[-1].lower() != pronoun["verb"].lower():
        return None
    text = principle[: pronoun.start()] + f"run `{command}`" + principle[pronoun.end() :]
    return _IT_PASSES.sub(lambda m: f"the {m['what']} pass", text)


def _named_by_reply(signal: Signal) -> str | None:
    """The rule as the reply restates it, naming what the user's pronoun stands for ("don't merge it
    until the CI is green" - "Good catch — a pull request is never merged until the CI is green")."""
    from .replies import reply_rule

    return reply_rule(signal) or None


def _users_words(signal: Signal) -> list[str]:
    return [signal.quote, *(item.get("quote", "") for item in signal.also)]


def _evidence_words(signal: Signal | None) -> list[str]:
    return [] if signal is None else [*_users_words(signal), signal.context]


def _both_sides(principle: str, said: Iterable[str]) -> str | None:
    """ "Write `Y`, not `X`" when the rule speaks of example X and the user asked for the one other
    form Y of the same example (the same letters and digits, other punctuation)."""
    lead = _LEADING_EXAMPLE.match(principle.strip())
    if lead is None:
        return None
    example = lead["example"]
    core = re.sub(r"\W", "", example)
    others = {
        span
        for text in said
        for sentence in sentences(text)
        if not sentence.rstrip().endswith(("?", "？"))  # "Is `{1,2}` right?" asks, it orders nothing
        for span in _ordered_spans(sentence)
        if span != example and core and re.sub(r"\W", "", span) == core
    }
    if len(others) != 1:
        return None
    (wanted,) = others
    return f"Write `{wanted}`, not `{example}`."


def _ordered_spans(sentence: str) -> list[str]:
    """The code spans a sentence asks for: after "write", "use", "want", "prefer", "should be" …"""
    return [m["span"] for m in _ORDERED.finditer(sentence)]


def _stated_reason(principle: str, texts: Iterable[str]) -> str | None:
    """The reason in the words a text states it with, else the rule without it when it stands alone."""
    pointed = POINTED_REASON.search(principle)
    if pointed is None:
        return None
    noun = " ".join(pointed["noun"].split())
    spelled = r"\s+".join(map(re.escape, noun.split()))
    said = re.compile(rf"\b{spelled}\s+(?P<qualifier>{_QUALIFIER}){_QUALIFIER_END}", re.I)
    for text in texts:
        found = said.search(text)
        if found:
            reason = " ".join(f"{noun} {found['qualifier']}".split())
            end = "." if principle.rstrip().endswith(".") else ""
            return f"{principle[: pointed.start()].rstrip()} {pointed['lead']} {reason}{end}"
    rest = principle[: pointed.start()].rstrip(" ,;")
    if content_size(rest) >= MIN_RULE or _names_something(rest) and content_size(rest) >= 2:
        return rest + ("." if principle.rstrip().endswith(".") else "")
    return None
