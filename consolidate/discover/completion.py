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
- A sentence about what an example does, when the user said in this exchange that this very form is the
  one that works or the one wanted: "`{1},{2}` makes each one a separate footnote" after "I want every
  footnote to work, {1},{2} works" -> "Write `{1},{2}`: it makes each one a separate footnote" (in the
  sentence's language). A form the user only asks about, or says does not work, vouches for nothing.
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
from .text import content_size, language, sentences

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
        said = _users_words(signal)
        principle = _both_sides(candidate.principle, said) or _vouched_form(candidate.principle, said)
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


# The user says the form is the one that works or the one wanted: "{x} works", "I'd like {x}", "{x} работает",
# "нужно {x}", "{x} 可以", "用 {x}", "{x} çalışıyor" ("{x} doesn't work", "{x} не работает", "{x} 不行",
# "{x} çalışmıyor" never match: the negation sits between). A word or two may come between the form and
# the verb where the language puts them there ("[1],[2] önizlemede çalışıyor", "[1],[2] 在预览里可以").
_VOUCHES = (
    r"{x}\W{{0,3}}\s*(?:works|is (?:right|correct|what i want)|does work)\b",
    r"\b(?:i'?d like|i want|i prefer|please use|use|write)\s+(?:it as\s+|them as\s+)?\W?{x}",
    r"{x}\W{{0,3}}(?:\s+(?!не\b)[^\s.!?]+){{0,2}}\s+(?:работает|правильно|верно)\b",
    r"(?:нужно|надо|пиши(?:те)?|используй(?:те)?|хочу)\s+\W?{x}",
    r"{x}\W{{0,3}}[^。！？，,\n不没]{{0,8}}?(?<![不没])(?:可以用|可以|能用|有效|是对的|没问题|管用)",
    r"(?:用|写成|改成|要)\s*\W?{x}",
    r"{x}\W{{0,3}}(?:\s+[^\s.!?]+){{0,2}}\s+(?:çalışıyor|çalışır|işe yarıyor|doğru)\b",
)
_HARMS = lazy(r"(?:breaks|ломает|会?(?:破坏|弄坏))|[^.!?\n]*\bbozar\b", re.I)
_FORM_OPENINGS = {
    "ru": ("Пишите `{x}` — это {rest}", True),
    "zh": ("写成 `{x}`：它{rest}", False),
    "tr": ("`{x}` yazın: {rest}", False),
    "en": ("Write `{x}`: it {rest}", True),
}


def _vouched_form(principle: str, said: Iterable[str]) -> str | None:
    """ "Write `X`: it …" when the rule says what example X does and the user said X is the form that
    works or the one wanted, in a sentence that asks nothing."""
    lead = _LEADING_EXAMPLE.match(principle.strip())
    if lead is None:
        return None
    example, rest = lead["example"], principle.strip()[lead.end() :].strip()
    if _HARMS.match(rest):  # "`X` breaks the link": however well X works elsewhere, no order to write it
        return None
    shown = rf"`?{re.escape(example)}`?"
    vouches = re.compile("|".join(v.format(x=shown) for v in _VOUCHES), re.I)
    for text in said:
        for sentence in sentences(text):
            if sentence.rstrip().endswith(("?", "？")):
                continue
            if vouches.search(sentence):
                return _ordered_form(example, rest)
    return None


def _ordered_form(example: str, rest: str) -> str:
    template, lower = _FORM_OPENINGS.get(language(rest), _FORM_OPENINGS["en"])
    if lower and rest[:1].isupper() and not rest[:2].isupper():
        rest = rest[:1].lower() + rest[1:]
    return template.format(x=example, rest=rest)


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
