"""A rule ordering what the memory reserves for the user, said around the user.

"Amend the session files before the bump" breaks "Amending commits with session files" under
"Operations Claude Cannot Perform", yet its lesson holds: the user amends, and the assistant waits for
it. When the rule names when it applies ("before …", "after …"), it is said as what the assistant does
then — "Before the bump, wait for the user to amend the session files"; without that, no wording
around the user is faithful, and the rule stays set aside as forbidden.
"""

from __future__ import annotations

import re

from ..discover.samerule import ordered_action

_HEAD = re.compile(r"^(?P<cond>(?:before|after|once|when|whenever)\s[^,;]{3,120}),\s*(?P<act>.+)$", re.I)
_TAIL = re.compile(r"^(?P<act>.+?)\s+(?P<cond>(?:before|after|once|when|whenever)\s[^,;]{3,120})$", re.I)
_LEAD = re.compile(r"^(?:always|please|(?:make sure|remember|be sure) to)\s+", re.I)
_NOT_AN_ORDER = re.compile(
    r"^(?:the user|user|wait|remind|ask|tell|let|never|don'?t|do not|no|not|avoid)\b", re.IGNORECASE
)
_SENTENCES = re.compile(r"[;:!?]|\.\s")


def around_the_user(principle: str) -> str | None:
    """The rule said as what the assistant does when the user is the one to act: before the moment
    it names, wait for the user to do it; after or when it, remind the user to. None when the rule
    is more than one sentence, names no moment, or orders no action of its own."""
    text = " ".join(principle.split()).rstrip(".")
    if not text or _SENTENCES.search(text):
        return None
    found = _HEAD.match(text) or _TAIL.match(text)
    if found is None:
        return None
    act = _LEAD.sub("", found["act"].strip())
    moment = found["cond"].strip()
    if not act or _NOT_AN_ORDER.match(act) or ordered_action(act) is None:
        return None
    helper = "wait for the user to" if moment.lower().startswith("before") else "remind the user to"
    if act[:1].isupper() and not act[1:2].isupper():
        act = act[:1].lower() + act[1:]
    return f"{moment[:1].upper()}{moment[1:]}, {helper} {act}."
