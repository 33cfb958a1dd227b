"""The polarity of rules: what a text negates, whether two texts contradict each other, and whether a
statement is about what a rule is about. The decision "already remembered?" is `matcher`'s.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lazyre import lazy
from . import lexicon
from .text import stems

_NEGATED_SPAN = lazy(
    r"(?P<neg>" + lexicon.NEGATION.pattern + r")(?P<span>(?:[ \t]*[\w`./-]+){1,4})", re.IGNORECASE
)


SAME_SUBJECT = 0.3  # the share of the statement's own words a contradicting principle must name


def same_subject(principle: str, statement: str) -> bool:
    """Is the statement about what the principle is about: a good part of its own words said by the
    principle (a long paragraph that shares three words with it is about something else)?"""
    mine, theirs = stems(principle), stems(statement)
    return bool(theirs) and len(mine & theirs) / len(theirs) >= SAME_SUBJECT and len(mine & theirs) >= 2


_CLAUSE_END = lazy(
    r"\b(?:when|whenever|if|unless|because|since|while|so|but|where|for|in|on|at|with|from|during|within)\b"
)


@lru_cache(maxsize=4096)
def negated_terms(text: str) -> frozenset[str]:
    """Stems that follow a negation ("not `cargo test`", "instead of X", "вместо X", "不要X"), without
    the verbs that only carry it ("rather than *use* X" negates X, not using)."""
    return _polarity(text)[0]


# "X is forbidden", "X is not allowed", "X is bad form": a ban said after what it bans, read as "never X".
_BANNED = lazy(
    r"(?:^|(?<=[.;:!?—–(]\s)|(?<=,\s)|(?<=\bas\s)|(?<=\bsince\s)|(?<=\bbecause\s))(?P<what>(?:[\w`'./-]+\s+){0,7}?[\w`'./-]+)\s+(?:is|are)\s+"
    r"(?:(?:strictly|absolutely|really|always|considered|very)\s+)?(?:"
    r"forbidden|prohibited|disallowed|banned|off[- ]limits|unacceptable|"
    r"not\s+(?:allowed|permitted|acceptable|ok|okay)|never\s+(?:allowed|permitted|acceptable|ok|okay)|"
    r"(?:a\s+)?bad\s+(?:form|idea|practice)|a\s+mistake)\b",
    re.IGNORECASE,
)


# What every ban `_BANNED` reads ends with: looked for first, since the ban itself is tried at every
# word of a text (its lookbehinds and lazy subject), and almost no text says one.
_BAN_SAID = lazy(
    r"(?:is|are)\s+(?:(?:strictly|absolutely|really|always|considered|very)\s+)?(?:"
    r"forbidden|prohibited|disallowed|banned|off[- ]limits|unacceptable|"
    r"not\s+(?:allowed|permitted|acceptable|ok|okay)|never\s+(?:allowed|permitted|acceptable|ok|okay)|"
    r"(?:a\s+)?bad\s+(?:form|idea|practice)|a\s+mistake)\b",
    re.IGNORECASE,
)


def as_ban(lowered: str) -> str:
    """A ban said after what it bans, said before it: "force-pushing main is forbidden" is "never
    force-pushing main", so both readings of polarity see the same prohibition as "never force-push
    to main"."""
    if _BAN_SAID.search(lowered) is None:
        return lowered
    return _BANNED.sub(lambda m: "never " + m["what"], lowered)


@lru_cache(maxsize=4096)
def _polarity(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(negated stems, stems also said outside what a negation negates): "NEVER cargo install"
    negates cargo and still speaks of installing."""
    lowered = as_ban(text.lower())
    found: set[str] = set()
    rest: list[str] = []
    start = 0
    for match in _NEGATED_SPAN.finditer(lowered):
        span = _CLAUSE_END.split(match["span"], maxsplit=1)[0]  # "instead of X when possible"
        if _VERB_NEGATION.fullmatch(match["neg"].strip()):
            if _NOT_UNTIL.search(match["span"]):
                continue  # "don't install until it passes": when to do it, not that it is wrong
            span = _negated_verb(span)
        end = match.end()
        listed = _CODE_LIST.match(lowered, end) if span.rstrip().endswith("`") else None
        if listed is not None and re.search(r"\b(?:or|nor)\s+`", listed.group(0)):
            span, end = span + " " + listed.group(0), listed.end()  # "never `a`, `b`, or `c`": all three
        negated = stems(span)
        found |= negated
        rest.append(lowered[start : match.start()])
        rest.extend(w for w in _SPAN_WORD.findall(match["span"]) if not stems(w) <= negated)
        start = end
    for match in re.finditer(r"([\w`.-]+(?:\s+[\w`.-]+)?)\s+yerine", lowered):
        found |= stems(match.group(1))
    rest.append(lowered[start:])
    negated = frozenset(found - _CARRIER_VERBS)
    also_said = stems(" ".join(rest)) if "yerine" not in lowered else frozenset()
    return negated, frozenset(also_said)


_NOT_UNTIL = lazy(r"\b(?:until|till|before)\b")
_CODE_LIST = lazy(r"(?:\s*,\s*(?:(?:or|and|nor)\s+)?`[^`\n]+`|\s+(?:or|nor)\s+`[^`\n]+`)+")
_VERB_NEGATION = lazy(r"don'?t|do not|never|not")
_SPAN_WORD = lazy(r"`[^`]*`?|[\w./-]+")


def _negated_verb(span: str) -> str:
    """ "do not defer installation" negates deferring, not installing: a verb negation reaches its first
    word, or past a verb that only carries it ("never use `npm`") the command or two words after it."""
    words = _SPAN_WORD.findall(span)
    if not words:
        return span
    if words[0].startswith("`") or len(words) == 1:
        return words[0]
    if stems(words[0]) <= _CARRIER_VERBS:  # its object: up to a command in backticks ("bare `cargo test`")
        taken = []
        for word in words[1:4]:
            taken.append(word)
            if word.startswith("`"):
                break
        return " ".join(taken if taken[-1].startswith("`") else taken[:2])  # "use pip install here"
    return words[0]


_CARRIER_VERBS = frozenset({"use", "using", "run", "runnin", "call", "do", "doing", "have", "make", "let",
                            "использ", "запуск", "用", "使用", "kullan", "çalıştı"})  # fmt: skip


def contradicts(a: str, b: str) -> bool:
    """One text negates a term the other asserts. A term a text both asserts and negates ("use
    `tspec install`, not `cargo install`") is no ground; two texts that negate the same thing state
    the same preference ("use X instead of Y" and "never Y"), and so do a ban and a statement that keeps
    what it bans out of what it allows ("do not commit `.venv/` files" and "… only make commits
    (excluding `.venv/` files)")."""
    if keeps_out(a, b) or keeps_out(b, a):
        return False
    neg_a, said_a = _polarity(a)
    neg_b, said_b = _polarity(b)
    pos_a, pos_b = stems(a) - neg_a, stems(b) - neg_b
    return bool((neg_a - said_a) & pos_b) or bool((neg_b - said_b) & pos_a)


# what keeps a thing out of what a statement allows: "commits (excluding X)", "except (for) X", "other
# than X", "but not X", "without X" negate X
_KEPT_OUT = lazy(
    r"\b(?:excluding|except(?:\s+for)?|other\s+than|but\s+not|without)\b(?P<span>(?:[ \t]*[\w`./-]+){1,4})",
    re.IGNORECASE,
)


def keeps_out(ban: str, statement: str) -> bool:
    """Does `statement` keep out of what it allows most of what `ban`, one sentence that forbids an
    act ("do not commit `.venv/` files"), is about ("make commits, except `.venv/` files")? Then the
    two agree. A sentence that only keeps things out itself ("an edit without its lock is
    incomplete") bans nothing here."""
    if _ONE_SENTENCE_END.search(ban.strip()) or not _BANNING.search(_KEPT_OUT.sub(" ", ban.lower())):
        return False
    negated = _polarity(ban)[0]
    if not negated:
        return False
    about = stems(ban) - negated
    for match in _KEPT_OUT.finditer(statement.lower()):
        kept = stems(_CLAUSE_END.split(match["span"], maxsplit=1)[0])
        if kept and len(kept & about) * 2 >= len(kept):
            return True
    return False


_BANNING = lazy(r"\b(?:never|not|no|don'?t|do not|cannot|can'?t|must not|mustn'?t|avoid)\b")
_ONE_SENTENCE_END = lazy(r"[.!?;:][*_`)\]]*\s+\S|\s[—–]\s|\n|\|")


# A choice between two things: "X, not Y", "X instead of Y", "X rather than Y", "prefer X over Y",
# "never Y, always X" / "always X, never Y". Which side is chosen is what a rule says; a text that
# names both elsewhere (a paragraph on how "the repo *can* be driven with raw `git`") changes nothing.
_TERM = r"(?:`[^`\n]+`|[\w./+-]+)"
_CARRIER = r"(?:(?:use|using|run|running|call|prefer|choose|pick)\s+)?"
_CHOICES = (
    lazy(rf"(?P<yes>{_TERM}(?:\s+{_TERM})?)\s*,\s*not\s+(?P<no>{_TERM}(?:\s+{_TERM}){{0,2}})", re.IGNORECASE),
    lazy(
        rf"(?P<yes>{_TERM}(?:\s+{_TERM})?)\s*,?\s+(?:instead\s+of|rather\s+than)\s+{_CARRIER}"
        rf"(?P<no>{_TERM}(?:\s+{_TERM}){{0,2}})",
        re.IGNORECASE,
    ),
    lazy(
        rf"\bprefer(?:s|red|ring)?\s+(?P<yes>{_TERM}(?:\s+{_TERM})?)\s+(?:over|to)\s+{_CARRIER}"
        rf"(?P<no>{_TERM}(?:\s+{_TERM}){{0,2}})",
        re.IGNORECASE,
    ),
    lazy(
        rf"\bnever\s+{_CARRIER}(?P<no>[^,;.!?\n]{{1,60}}?)\s*[,;]?\s*(?:(?:and|but)\s+)?always\s+{_CARRIER}"
        rf"(?P<yes>{_TERM}(?:\s+{_TERM}){{0,2}})",
        re.IGNORECASE,
    ),
    lazy(
        rf"\balways\s+{_CARRIER}(?P<yes>[^,;.!?\n]{{1,60}}?)\s*[,;]?\s*(?:(?:and|but)\s+)?never\s+{_CARRIER}"
        rf"(?P<no>{_TERM}(?:\s+{_TERM}){{0,2}})",
        re.IGNORECASE,
    ),
)
_CHOICE_SAID = lazy(
    r",\s*not\s|instead\s+of|rather\s+than|\bprefer|\bnever\b[^.;]*\balways\b|\balways\b[^.;]*\bnever\b",
    re.IGNORECASE,
)
_CHOICE_FILLER = frozenset({"raw", "plain", "bare", "always", "never", "only", "just", "the"})


def _side(text: str, last: bool) -> frozenset[str]:
    """The stems of one side of a choice: its words up to where the clause goes on ("git, for
    version control" is git), the verbs that only carry the choice left out."""
    text = _CLAUSE_END.split(text, maxsplit=1)[0] if not last else text
    return frozenset(stems(text) - _CARRIER_VERBS - _CHOICE_FILLER - {"prefer", "choose", "pick"})


@lru_cache(maxsize=4096)
def choices(text: str) -> frozenset[tuple[frozenset[str], frozenset[str]]]:
    """The choices a text states, as (what it chooses, what it rejects) stems: "Use jj, not git, for
    version-control operations" is ({jj}, {git}), and so is "never use git, always use jj"."""
    plain = text.replace("*", "").replace("_", " ") if ("*" in text or "_" in text) else text
    if _CHOICE_SAID.search(plain) is None:
        return frozenset()
    found: set[tuple[frozenset[str], frozenset[str]]] = set()
    for pattern in _CHOICES:
        for match in pattern.finditer(plain):
            yes = _side(match["yes"], last=True)
            no = _side(match["no"], last=False)
            if pattern in _CHOICES[3:]:  # "never Y for …, always X for …": each side to its clause's end
                yes = _side(match["yes"], last=False)
            if yes & no:  # "`uv run pytest` rather than `pytest`": chosen is what the other lacks
                yes = yes - no
            if yes and no:
                found.add((yes, no))
    return frozenset(found)


def chooses_the_opposite(a: str, b: str) -> bool:
    """Does one text choose what the other rejects, and reject what it chooses ("use git, not jj"
    against "use jj, not git")?"""
    theirs = choices(b)
    return any(y & n2 and n & y2 for y, n in choices(a) for y2, n2 in theirs)


def chooses_the_same(a: str, b: str) -> bool:
    """Does every choice `a` states appear in `b`, the same side chosen ("use jj instead of git"
    and "Use jj, not git, …")? False when `a` states none, or `b` also chooses the opposite."""
    mine, theirs = choices(a), choices(b)
    if not mine or chooses_the_opposite(a, b):
        return False
    return all(any(y & y2 and n & n2 for y2, n2 in theirs) for y, n in mine)
