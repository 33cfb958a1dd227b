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
        names = _names(renamed)
        words = f"{names} {'was' if len(renamed) == 1 else 'were'} renamed; the entry is rewritten to the new name"
        draft = Draft("STALE", unit, words, "EDIT", 0.9, spans, reason="renamed", subject=_subject(renamed))
        draft.fact = "; ".join(r.evidence for r in renamed + stale)
        drafts.append(draft)
    elif stale:
        drafts.append(_stale_draft(unit, results, stale, topic_verdict))
    fixable = [c for c in contradicted if c.new_text]
    if fixable:
        spans = [content_span(unit, c.claim.start, c.claim.end, c.new_text) for c in fixable]
        words = f"the project's manifest disagrees with {_names(fixable)}; the entry is corrected to it"
        draft = Draft("CONTRADICT", unit, words, "EDIT", 0.8, spans, reason="manifest")
        draft.fact = "; ".join(c.evidence for c in fixable)
        drafts.append(draft)
    elif contradicted:
        words = f"the project disagrees with {_names(contradicted)}; check which holds"
        draft = Draft("CONTRADICT", unit, words, "NONE", 0.4, reason="manifest")
        draft.fact = "; ".join(c.evidence for c in contradicted)
        drafts.append(draft)
    return drafts


def _names(checks: list[Check]) -> str:
    names = list(dict.fromkeys(f"`{c.claim.value}`" for c in checks))
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _subject(checks: list[Check]) -> str:
    return ", ".join(sorted({c.claim.value for c in checks}))


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
    gone = "deleted" if deleted_file else "gone from the code"
    reason = "deleted" if deleted_file else "removed-symbol"
    if removable:
        words = f"{_names(stale)} {'was' if len(stale) == 1 else 'were'} {gone} and nothing else in the entry still holds"
        draft = Draft("STALE", unit, words, "REMOVE", 0.85, reason=reason, subject=_subject(stale))
        draft.topic_file = topics[0] if topics else ""
        draft.fact = evidence
        return draft
    why = "other parts may still hold" if valid or not deleted_file else "review before removing"
    words = f"{_names(stale)} {'is' if len(stale) == 1 else 'are'} {gone} ({why})"
    draft = Draft("STALE", unit, words, "NONE", 0.6 if deleted_file else 0.5, reason=reason)
    draft.fact, draft.subject = evidence, _subject(stale)
    return draft


def residue_words(unit: Unit) -> int:
    """Content words left once the claims, links and filler verbs are taken out."""
    text = unit.content
    for claim in sorted(unit.claims, key=lambda c: -c.start):
        text = text[: claim.start] + " " + text[claim.end :]
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", " ", text)
    text = re.sub(r"^\*\*[^*]*\*\*", " ", text.strip())  # the trigger condition says when, not what
    return len(tokens(text) - _GENERIC_VERBS)
