"""The last touch on a candidate's wording, once its trigger is known: a rule said as a statement about
the assistant becomes an instruction, a leading "When …" becomes the trigger, and an option without its
program names the program the trigger names.

"You can't merge because of X, it's even worse than commits" -> "Do not merge because of X";
"When doing a multi-step always create a branch" -> **When doing a multi-step:** "Always create a
branch"; "Always pass `--path .`" (when running `tspec install`) -> "Always pass `--path .` to
`tspec install`"; "The READMEs need to be clear that we configure packages" -> "We configure
packages" (the fact, not the one-off task of writing it down). Slips of grammar are mended and a version named once is written as its form
(`grammar`). Only the words said are kept; nothing is invented.
"""

from __future__ import annotations

import re

from ..lazyre import lazy
from .grammar import generalised, mended, punctuated
from .spelling import corrected

_CANT = lazy(r"^(?:you|u) (?:can'?t|cannot|can not|mustn'?t|must not|shouldn'?t|should not) ", re.I)
_IE_CANT = lazy(
    r"\s*\((?:i\.e\.|ie|that is),?\s+(?:you|u) (?:can'?t|cannot|can not|mustn'?t|must not) (?P<rule>[^()]+)\)",
    re.I,
)
_COMMENT_TAIL = lazy(
    r",\s+(?:it'?s|it is|that'?s|that is|which is)\s+(?:even |much |way |far )?(?:worse|better|more|less|\w{3,}er)\b[^,]*$",
    re.I,
)
_WHEN_LEAD = lazy(
    r"^when (?P<when>[^,:;`]{4,60}?)(?:[,:]\s*|\s+(?=(?:always|never|don'?t|do not|first|make sure)\b))"
    r"(?P<rule>.+)$",
    re.I,
)
# "The READMEs need to be clear that X": what is worth remembering is X, not the task of writing it down
_DOCUMENT_CLEAR = lazy(
    r"^(?:the\s+|our\s+)?(?:readme|docs?|documentation|guides?|[\w./-]+\.(?:md|rst|txt))\S*\s+"
    r"(?:definitely\s+|really\s+|also\s+)?(?:needs?|should|must|have|has)\s+(?:to\s+)?"
    r"(?:be\s+(?:clear|explicit)|make\s+(?:it\s+)?clear)\s+that\s+(?P<fact>\w.{11,})$",
    re.I,
)
_OPTION_ONLY = lazy(r"^(?:always |never |do not |don'?t )?(?:pass|omit|add|use) `-[^`]+`\.?$", re.I)
_TRIGGER_COMMAND = lazy(r"`([^`]+)`")


def finish(principle: str, trigger: str, *, curated: bool = False) -> tuple[str, str]:
    """(principle, trigger) with the wording fixes above applied; a rule written down for later
    (`curated`: a marker, a queued item) keeps its own "When …:" lead."""
    text = generalised(punctuated(mended(corrected(principle.strip()))))
    aside = _IE_CANT.search(text)
    if aside and _CANT.match(text):
        text = "Do not " + aside["rule"].strip()
    elif _CANT.match(text):
        text = "Do not " + text[_CANT.match(text).end() :]  # type: ignore[union-attr]
    document = _DOCUMENT_CLEAR.match(text)
    if document and not curated:  # a one-off edit of a document; the fact it must state is the learning
        fact = document["fact"].strip()
        text = fact[:1].upper() + fact[1:]
    tail = _COMMENT_TAIL.search(text)
    if tail and len(text[: tail.start()].split()) >= 4:
        text = text[: tail.start()]
    lead = None if curated else _WHEN_LEAD.match(text)
    if lead and len(lead["rule"].split()) >= 2:
        trigger, text = lead["when"].strip(), lead["rule"].strip()
        text = text[:1].upper() + text[1:]  # the rule, a sentence of its own after its trigger
    if _OPTION_ONLY.match(text):
        command = _TRIGGER_COMMAND.search(trigger)
        program = command[1].split()[0] if command else ""
        if program and program.lower() not in text.lower():
            text = f"{text.rstrip('.')} to `{command[1]}`"  # type: ignore[index]
    text = text.rstrip()
    return (text, trigger) if text else (principle, trigger)
