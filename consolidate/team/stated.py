"""Is a learning already stated on the other side of a share? `discover.matcher` decides, as it does
for the scan and the dream: the team memory against a sharer's learning, a newcomer's memory against
a team entry."""

from __future__ import annotations

from collections.abc import Sequence

from memory_layout import Entry, MemoryTree

from ..discover.matcher import Matcher, Verdict
from .layer import body_of

HELD_BACK = (
    "CONTRADICT",
    "UNSURE",
    "FORBIDDEN",
)  # says the opposite of what the other side holds: a person settles it


def rules_of(tree: MemoryTree, entry: Entry, topics: Sequence[str]) -> list[str]:
    """What a learning states: its index entry (its condition and takeaway, links left out) and the
    first paragraph of each topic file it links to (the rule; its why and evidence follow it)."""
    pointer = entry.pointer
    found = [f"{pointer.trigger}, {pointer.takeaway}" if pointer.trigger else pointer.takeaway]
    for topic in topics:
        document = tree.files[topic].document
        body = body_of(document) if document is not None else ""
        paragraphs = [p.strip() for p in body.split("\n\n") if p.strip() and not p.lstrip().startswith("#")]
        found += paragraphs[:1]
    return [rule for rule in found if rule.strip()]


def stated_by(matcher: Matcher, rules: Sequence[str]) -> Verdict:
    """RECORDED when the remembered text states every rule of the learning (an entry whose line adds
    a condition or an alternative to what its topic says is more than the topic); else a
    contradiction of one (or a negation of a line about something else); else the verdict on the
    first rule not stated."""
    verdicts = [matcher.judge(rule) for rule in rules] or [Verdict("FILL_GAP")]
    held = next((v for v in verdicts if v.category in HELD_BACK), None)
    if held is not None:
        return held
    return next((v for v in verdicts if v.category != "RECORDED"), verdicts[0])
