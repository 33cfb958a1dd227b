"""Findings under construction. An EDIT is kept as spans of the entry to rewrite, so that several
EDITs of one entry (a renamed path, a relative date, a secret) compose into one replacement text that
each of them carries — applying any one of them leaves nothing for the others to undo."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Finding, FindingAction, FindingCategory, RelatedEntry
from ..secrets import redact
from .units import Unit

Span = tuple[int, int, str]  # start, end (in the unit's text), new text


@dataclass
class Draft:
    category: FindingCategory
    unit: Unit | None
    evidence: str  # what was found, in words
    action: FindingAction = "NONE"
    confidence: float = 0.5
    spans: list[Span] = field(default_factory=list)  # for a composable EDIT
    replacement: str = ""  # for MERGE and whole-entry EDITs
    related: list[Unit] = field(default_factory=list)
    topic_file: str = ""
    topic_content: str = ""
    file: str = ""  # for whole-file findings (no unit)
    line: int = 0
    reason: str = ""
    fact: str = ""  # a commit, a manifest line, the matching line elsewhere
    subject: str = ""


def prefix_length(unit: Unit) -> int:
    """Offset of `unit.content` inside `unit.text` (the list marker's length)."""
    return len(unit.text) - len(unit.content) if unit.text.endswith(unit.content) else 0


def content_span(unit: Unit, start: int, end: int, new: str) -> Span:
    offset = prefix_length(unit)
    return offset + start, offset + end, new


def apply_spans(text: str, spans: list[Span]) -> str:
    """`text` with non-overlapping spans rewritten (overlapping later spans are dropped)."""
    out, last = [], 0
    for start, end, new in sorted(spans):
        if start < last:
            continue
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)


def finalize(drafts: list[Draft]) -> list[Finding]:
    """Compose the EDIT spans per entry, then turn drafts into redacted findings."""
    spans_by_unit: dict[int, list[Span]] = {}
    for draft in drafts:
        if draft.unit is not None and draft.spans:
            spans_by_unit.setdefault(id(draft.unit), []).extend(draft.spans)
    findings = []
    for draft in drafts:
        replacement = draft.replacement
        if draft.unit is not None and draft.spans:
            replacement = apply_spans(draft.unit.text, spans_by_unit[id(draft.unit)])
        findings.append(_finding(draft, replacement))
    return findings


def _finding(draft: Draft, replacement: str) -> Finding:
    unit = draft.unit
    return Finding(
        category=draft.category,
        file=unit.file if unit else draft.file,
        entry=redact(unit.text) if unit else "",
        line=unit.line if unit else draft.line,
        evidence=redact(draft.evidence + (f"; {draft.fact}" if draft.fact else ""))[:2000],
        action=draft.action,
        replacement=redact(replacement),
        confidence=round(draft.confidence, 2),
        related=[RelatedEntry(file=u.file, entry=redact(u.text)) for u in draft.related],
        topic_file=draft.topic_file,
        topic_content=redact(draft.topic_content),
        rationale=redact(draft.evidence)[:1000],
        fact=redact(draft.fact)[:1000],
        reason=draft.reason,
        subject=redact(draft.subject)[:300],
    )


def keep_lists_whole(drafts: list[Draft], units: list[Unit]) -> list[Draft]:
    """A numbered step is part of a procedure: it is merged never, and removed only with every other
    step of its list (a duplicated list goes whole; one step alone would leave a gap in the numbers)."""
    removed = {id(d.unit) for d in drafts if d.action == "REMOVE" and d.unit is not None}
    members: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.extras.get("ordered"):
            members.setdefault(str(unit.extras.get("list")), []).append(unit)
    for draft in drafts:
        steps = [u for u in [draft.unit, *draft.related] if u is not None and u.extras.get("ordered")]
        if not steps or draft.action not in ("REMOVE", "MERGE"):
            continue
        whole = all(id(u) in removed for u in members.get(str(steps[0].extras.get("list")), []))
        if draft.action == "MERGE" or not whole:
            draft.action, draft.confidence = "NONE", min(draft.confidence, 0.5)
            draft.evidence += "; it is a numbered step of a list that stays, so it is left for a person"
    return drafts
