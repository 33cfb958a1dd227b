"""Typos in what the user typed: a word that looks like a misspelling of a word the lexicon spells.

"Uswd `tspec ...` cmds" beside "Use `tspec` instead of `cargo`" — the clean wording speaks; "amemd" is
"amend" (one key off, a verb rules start with). Only the principle is corrected, never a quote.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from ..lazyre import lazy
from . import lexicon
from .text import STOPWORDS

_LETTERS = lazy(r"[^\W\d_]{3,}")


def misspelt(text: str, others: list[str]) -> int:
    """Words of `text` that look like a typo of a word the other wordings spell differently ("Uswd" beside
    "Use", "Amemd" beside "amend"): close in spelling, same first letter, neither an inflection of the other."""
    return typos([text, *others])[0]


def typos(wordings: list[str]) -> list[int]:
    """For each wording, how many of its words look like a typo of a word another wording spells right
    (one pass over the words: a cluster of thousands of wordings costs no more than reading them)."""
    words = [{w.lower() for w in _LETTERS.findall(text)} for text in wordings]
    counts: Counter[str] = Counter(w for own in words for w in own)
    spelt = {w for w in counts if _known_word(w)}
    result = []
    for own in words:
        others_spell = {k for k in spelt if counts[k] > (k in own)}
        alone = [w for w in own if counts[w] == 1 and not _known_word(w)]
        result.append(sum(any(_typo_of(w, k) for k in others_spell) for w in alone))
    return result


def common_word(word: str) -> bool:
    """A word the lexicon spells as a common word (a stop word, a verb rules start with): never a
    name, so capitalised only where a sentence starts."""
    return _known_word(word.lower())


def _known_word(word: str) -> bool:
    """A word the lexicon itself spells (a stop word, a verb rules start with): never the typo."""
    return word in STOPWORDS or bool(lexicon.DIRECTIVE.fullmatch(word) or _RULE_VERB.fullmatch(word))


_RULE_VERB = lazy("|".join(lexicon.RULE_VERBS))


def _typo_of(word: str, known: str) -> bool:
    if word[0] != known[0] or word.startswith(known) or known.startswith(word):
        return False
    if abs(len(word) - len(known)) > 1:
        return False
    return _distance(word, known) <= (1 if len(known) > 4 else 2) and len(known) >= 3


def _distance(a: str, b: str) -> int:
    """Levenshtein distance of two short words."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEY = {ch: (row, col) for row, keys in enumerate(_ROWS) for col, ch in enumerate(keys)}


def _adjacent(a: str, b: str) -> bool:
    if a not in _KEY or b not in _KEY:
        return False
    (ra, ca), (rb, cb) = _KEY[a], _KEY[b]
    return abs(ra - rb) <= 1 and abs(ca - cb) <= 1


@lru_cache(maxsize=4096)  # the same wordings are corrected again when candidates are merged and worded
def corrected(text: str) -> str:
    """`text` with each word that is one neighbouring key off a verb rules start with spelt right
    ("Amemd" -> "Amend"); words of five letters or more only, case kept, code spans untouched. The
    word a rule starts with may be shorter or inflected: it is the instruction's verb ("Uswd `x`
    cmds" -> "Use `x` cmds", "Usss" is left alone: two keys off)."""
    parts = re.split(r"(`[^`\n]*`)", text)
    for index in range(0, len(parts), 2):
        parts[index] = _LETTERS.sub(_fix_word, parts[index])
    lead = _LEAD_WORD.match(parts[0])
    if lead:
        verb = _verb_of(lead[1].lower())
        if verb:
            parts[0] = parts[0][: lead.start(1)] + verb.capitalize() + parts[0][lead.end(1) :]
    return "".join(parts)


_LEAD_WORD = lazy(r"^\s*([^\W\d_]{3,})\b")


def _verb_of(word: str) -> str:
    """The rule verb a leading word is a one-key typo of, in any of its forms (use, uses, used)."""
    if _known_word(word) or word in _VERB_FORMS:
        return ""
    for verb in _VERBS:
        for form in _forms(verb):
            if len(form) == len(word) >= 4 and form[0] == word[0]:
                diff = [(x, y) for x, y in zip(word, form, strict=True) if x != y]
                if len(diff) == 1 and _adjacent(*diff[0]):
                    return verb
    return ""


def _fix_word(match: re.Match[str]) -> str:
    word = match[0]
    lowered = word.lower()
    if len(lowered) < 5 or _known_word(lowered):
        return word
    for verb in _VERBS:
        if len(verb) == len(lowered) and verb[0] == lowered[0]:
            diff = [(x, y) for x, y in zip(lowered, verb, strict=True) if x != y]
            if len(diff) == 1 and _adjacent(*diff[0]):
                return verb.capitalize() if word[0].isupper() else verb
    return word


_VERBS = tuple(_RULE_VERB.pattern.split("|"))


def _forms(verb: str) -> tuple[str, str, str, str]:
    stem = verb[:-1] if verb.endswith("e") else verb
    return verb, verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s"), stem + "ed", stem + "ing"


_VERB_FORMS = frozenset(form for verb in _VERBS for form in _forms(verb))
