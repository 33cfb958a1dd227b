"""A rule that stands alone: no "we" or "you" of the conversation it was said in.

"Commit the marker before we actually start" was said to one assistant in one session; a later
session reads "we" as nobody in particular. The moment a clause names is said by its action
("before starting", "when committing"), and an opening "we should" / "you need to" is the order it
carries. A clause whose verb is no plain action ("when we are done", "if you can") is left as said.
"""

from __future__ import annotations

import re

_MOMENT = re.compile(
    r"\b(?P<when>before|after|when|whenever|until|once|while)\s+(?:we|you)\s+"
    r"(?:(?:actually|first|really|just|finally)\s+)?(?P<verb>[a-z]+)\b(?!['’])",
    re.IGNORECASE,
)
_OPENING = re.compile(
    r"^(?:we|you)\s+(?:(?:really|always|probably|definitely)\s+)?(?:should|need to|must|have to|ought to)\s+"
    r"(?=[a-z])",
    re.IGNORECASE,
)


# words after "we" / "you" that are no action of their own: the clause is left as said
def _split(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NOT_AN_ACTION = _split(
    """
    are were is was be been have has had do does did can could will would shall should may might must
    need needs want wants get got think know see mean like try
    """
)
_DOUBLED = _split("commit submit begin permit omit admit refer prefer occur forget upset")
_VOWELS = "aeiou"


def gerund(verb: str) -> str:
    """The -ing form of a plain English verb: start, starting; merge, merging; stop, stopping."""
    word = verb.lower()
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        return word[:-1] + "ing"
    ends_short = len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS
    # one syllable ending consonant, vowel, consonant: run, stop, plan (not open, edit, push)
    short = (
        ends_short
        and word[-3] not in _VOWELS
        and (len(word) == 3 or len(word) == 4 and word[0] not in _VOWELS)
    )
    if short or word in _DOUBLED:
        return word + word[-1] + "ing"
    return word + "ing"


def impersonal(text: str) -> str:
    """The rule with "before we start" as "before starting" and an opening "we should" left out."""

    def moment(match: re.Match[str]) -> str:
        verb = match["verb"]
        if verb.lower() in _NOT_AN_ACTION or verb.lower().endswith(("ed", "ing", "s")):
            return match[0]
        return f"{match['when']} {gerund(verb)}"

    new = _MOMENT.sub(moment, text)
    opened = _OPENING.sub("", new)
    if opened != new:
        new = opened[:1].upper() + opened[1:]
    return new
