"""STALE and CONTRADICT findings from claim checks: what an entry names that git says was renamed
or deleted, or that a manifest contradicts.

A REMOVE is proposed only on strong evidence: a file the entry is about was deleted in git, nothing
else it names still holds, and little else is said. Otherwise the finding is an EDIT (renames, versions)
or NONE (report only), because removing a still-true memory loses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .claims import Claim
from .drafts import Draft, content_span
from .similar import stemmed, tokens
from .units import Unit
from .verify import Check

MAX_RESIDUE_WORDS = 10
_GENERIC_VERBS = stemmed("use uses used using lives live contains contain holds has handles defines see")

TopicVerdict = Callable[[str], str]  # topic file → "stale" (nothing in it holds any more) | "" otherwise


def claim_findings(unit: Unit, checks: dict[Claim, Check], topic_verdict: TopicVerdict) -> list[Draft]:
    """The STALE / CONTRADICT drafts of one unit."""
    results = [checks[c] for c in unit.claims if c in checks]
    renamed = [r for r in results if r.status == "renamed"]
    stale = [r for r in results if r.status == "stale"]
    contradicted = [r for r in results if r.status == "contradicted"]
    drafts: list[Draft] = []
    if renamed:
        spans = [content_span(unit, r.claim.start, r.claim.end, r.new_text) for r in renamed]
        evidence = "; ".join(r.evidence for r in renamed + stale)
        drafts.append(Draft("STALE", unit, evidence, "EDIT", 0.9, spans))
    elif stale:
        drafts.append(_stale_draft(unit, results, stale, topic_verdict))
    fixable = [c for c in contradicted if c.new_text]
    if fixable:
        spans = [content_span(unit, c.claim.start, c.claim.end, c.new_text) for c in fixable]
        drafts.append(Draft("CONTRADICT", unit, "; ".join(c.evidence for c in fixable), "EDIT", 0.8, spans))
    elif contradicted:
        drafts.append(Draft("CONTRADICT", unit, "; ".join(c.evidence for c in contradicted), "NONE", 0.4))
    return drafts


def _stale_draft(unit: Unit, results: list[Check], stale: list[Check], topic_verdict: TopicVerdict) -> Draft:
    evidence = "; ".join(r.evidence for r in stale)
    valid = [r for r in results if r.status in ("valid", "contradicted")]
    deleted_file = any(r.claim.kind == "path" for r in stale)
    removable = (
        deleted_file
        and not valid
        and unit.is_entry
        and unit.source in ("index", "cluster")
        and residue_words(unit) <= MAX_RESIDUE_WORDS
    )
    topics = [link.file for link in unit.links]
    if removable and topics:
        removable = len(topics) == 1 and topic_verdict(topics[0]) == "stale"
    if removable:
        draft = Draft("STALE", unit, evidence + "; nothing else in the entry still holds", "REMOVE", 0.85)
        draft.topic_file = topics[0] if topics else ""
        return draft
    why = "other parts may still hold" if valid or not deleted_file else "review before removing"
    return Draft("STALE", unit, f"{evidence} ({why})", "NONE", 0.6 if deleted_file else 0.5)


def residue_words(unit: Unit) -> int:
    """Content words left once the claims, links and filler verbs are taken out."""
    text = unit.content
    for claim in sorted(unit.claims, key=lambda c: -c.start):
        text = text[: claim.start] + " " + text[claim.end :]
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", " ", text)
    text = re.sub(r"^\*\*[^*]*\*\*", " ", text.strip())  # the trigger condition says when, not what
    return len(tokens(text) - _GENERIC_VERBS)
