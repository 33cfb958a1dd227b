"""Synthesis (c): discovered learnings become ADDs (or EDITs of the entry they update), deduplicated
against every layer, ranked by impact, capped, and written in the pointer format with a topic file."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memory_layout import INDEX, render_frontmatter
from memory_layout.pointers import always_on_pointer, trigger_pointer

from ..models import Candidate
from ..secrets import has_secret, redact, without_secrets
from .drafts import TYPE_SECTIONS, Draft, locate_entry, plain
from .orient import Snapshot
from .similarity import TextIndex, tokens
from .topics import is_rule, section_type, subject_slug, title, when_it_matters

MAX_ADD = 7
DUPLICATE = 0.75
KIND_TYPE = {
    "correction": "feedback",
    "rejection": "feedback",
    "preference": "feedback",
    "remember": "project",
    "decision": "project",
    "error-fix": "reference",
    "marker": "feedback",
    "queue": "feedback",
}
_GENERIC = re.compile(
    r"\b(?:clean code|best practices?|be careful|double[- ]check|write (?:good|more) tests|tests are important|"
    r"keep (?:it|things) simple|read the docs|communicate clearly)\b",
    re.IGNORECASE,
)
_TRANSIENT = re.compile(
    r"\b(?:right now|for now|currently|at the moment|this session|temporarily|wip)\b", re.IGNORECASE
)
_SLUG = re.compile(r"[^a-z0-9]+")
_CONDITION = re.compile(
    r"^\*{0,2}(?:when|whenever|before|after)\s+(?P<cond>[^:*]{3,80}?)\*{0,2}:\*{0,2}\s+(?P<rule>.{3,})$",
    re.IGNORECASE | re.DOTALL,
)
MAX_POINTER = 150
_VACUOUS = re.compile(
    r"^(?:when\s+)?(?:working|anything|doing anything|coding)?\s*(?:in|on)?\s*(?:this|the)\s+(?:project|repo|repository|codebase)$",
    re.IGNORECASE,
)


@dataclass
class Additions:
    drafts: list[Draft] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    recorded_queue_ids: list[str] = field(default_factory=list)  # items already in memory: safe to ack
    meta: list[str] = field(default_factory=list)  # repeatable workflows: suggest a skill or command


def rank(candidate: Candidate) -> float:
    return 0.5 * candidate.impact + 0.3 * candidate.confidence + 0.2 * min(candidate.frequency, 3) / 3


def quality_problem(candidate: Candidate) -> str | None:
    """Why a candidate fails the content-quality rules, or None when it passes."""
    text = candidate.principle.strip()
    if len(text.split()) < 3 and not re.search(r"[\u3040-\u9fff]", text):
        return "too short to be a principle"
    if len(text) > 300:
        return "too long for an index entry"
    if _GENERIC.search(text) and not re.search(r"`[^`]+`|\w+\.\w+|/", text):
        return "generic best practice"
    if _TRANSIENT.search(text):
        return "transient state"
    if has_secret(" ".join([candidate.principle, candidate.trigger, candidate.detail])):
        return "contains a secret"
    return None


def normalize(candidate: Candidate) -> Candidate:
    """A principle written as `When X: Y` gives its condition to the trigger; a trigger that holds for
    every task ("working in this project") is no trigger, so the pointer becomes always-on."""
    match = _CONDITION.match(candidate.principle.strip())
    if match:
        candidate = candidate.model_copy(
            update={"trigger": match["cond"], "principle": match["rule"].strip()}
        )
    if _VACUOUS.match(candidate.trigger.strip()):
        candidate = candidate.model_copy(update={"trigger": ""})
    return candidate


def additions(
    candidates: list[Candidate], snapshot: Snapshot, *, claimed: set[tuple[str, str]], max_add: int = MAX_ADD
) -> Additions:
    result = Additions()
    index = TextIndex(entry.text for entry in snapshot.known)
    names = {name for name in snapshot.tree.files}
    for candidate, queue_ids in merge_alike(map(normalize, candidates)):
        if candidate.category == "NOISE":
            continue
        subject = redact(plain(candidate.principle, 70))
        problem = quality_problem(candidate)
        if problem:
            result.notes.append(f"dropped ({problem}): {subject}")
            continue
        if candidate.layer == "meta":
            result.meta.append(candidate.principle)
            continue
        score, _ = index.best(f"{candidate.trigger} {candidate.principle}")
        update = _update_target(candidate, snapshot, claimed)
        if update is not None and _says_the_same(candidate, update[1]):
            update, score = None, 1.0
        if score >= DUPLICATE and update is None:
            result.notes.append(f"already recorded: {subject}")
            result.recorded_queue_ids.extend(queue_ids)
            continue
        if len([d for d in result.drafts if d.action == "ADD"]) >= max_add and update is None:
            result.notes.append(f"left for a later run (ADD cap {max_add}): {subject}")
            continue
        draft = _edit(candidate, update) if update else _add(candidate, snapshot, names)
        draft.queue_ids = queue_ids
        index.add(f"{candidate.trigger} {candidate.principle}")
        result.drafts.append(draft)
    return result


def merge_alike(candidates: Iterable[Candidate]) -> list[tuple[Candidate, list[str]]]:
    """Candidates that say the same thing become one: the richest text, the summed frequency, the
    strongest confidence and impact, all the evidence and queue ids — then ranked by impact."""
    groups: list[list[Candidate]] = []
    index = TextIndex([])
    for candidate in candidates:
        score, position = index.best(f"{candidate.trigger} {candidate.principle}")
        if score >= DUPLICATE and candidate.layer == groups[position][0].layer:
            groups[position].append(candidate)
        else:  # the index holds one text per group, so positions match
            groups.append([candidate])
            index.add(f"{candidate.trigger} {candidate.principle}")
    merged = []
    for group in groups:
        best = max(group, key=lambda c: (bool(c.trigger.strip()), len(tokens(c.principle)), c.confidence))
        combined = best.model_copy(
            update={
                "frequency": sum(c.frequency for c in group),
                "confidence": max(c.confidence for c in group),
                "impact": max(c.impact for c in group),
                "evidence": [e for c in group for e in c.evidence][:5],
            }
        )
        merged.append((combined, [c.queue_id for c in group if c.queue_id]))
    return sorted(merged, key=lambda pair: rank(pair[0]), reverse=True)


def _update_target(
    candidate: Candidate, snapshot: Snapshot, claimed: set[tuple[str, str]]
) -> tuple[str, str] | None:
    """The index entry an UPDATE or CONTRADICT candidate rewrites, if it can be found and is free."""
    if candidate.category not in ("UPDATE", "CONTRADICT") or not candidate.related.strip():
        return None
    for name in [INDEX] + [n for n in snapshot.tree.cluster_files()]:
        entry = locate_entry(snapshot, name, candidate.related)
        if entry is not None and (name, " ".join(entry.text.split()).lstrip("-*+ ")) not in claimed:
            return name, entry.text
    return None


def _says_the_same(candidate: Candidate, entry: str) -> bool:
    """The candidate's takeaway adds no word the entry does not already have (trigger wording varies)."""
    return not tokens(candidate.principle) - tokens(entry)


def _pointer(candidate: Candidate, file: str | None) -> str:
    """The pointer line, its takeaway shortened (at a clause or word) to stay within 150 characters."""
    takeaway = candidate.principle.strip()
    while True:
        if candidate.trigger.strip():
            line = trigger_pointer(candidate.trigger, takeaway, file)
        else:
            line = always_on_pointer(takeaway, file)
        if len(line) + 2 <= MAX_POINTER or len(takeaway) < 40:
            return line
        takeaway = _shorter(takeaway)


def _shorter(text: str) -> str:
    """Drop the last clause, or else the last word."""
    body = text.rstrip(".")
    for mark in ("; ", ", so ", " so ", ", ", " — ", " because "):
        head, found, _ = body.rpartition(mark)
        if found and len(head) >= 30:
            return head
    return body.rsplit(" ", 1)[0]


def _edit(candidate: Candidate, target: tuple[str, str]) -> Draft:
    name, old = target
    links = re.findall(r"→ \[[^\]]*\]\([^)]*\)\s*$", old)
    new = "- " + _pointer(candidate, None) + (f" {links[0].strip()}" if links else "")
    return _draft(
        candidate,
        "EDIT",
        name,
        "",
        [{"op": "replace_entry", "file": name, "old": old, "new": new}],
        rationale=f"{candidate.category}: the sessions changed what this entry says",
    )


def _add(candidate: Candidate, snapshot: Snapshot, names: set[str]) -> Draft:
    layout = snapshot.settings.layout
    if candidate.layer in ("L0", "L1"):
        path = layout.user_claude_md if candidate.layer == "L0" else layout.project_claude_md
        section = "Preferences" if candidate.layer == "L0" else (candidate.section or "Gotchas")
        change = {"op": "add_entry", "file": str(path), "section": section, "text": _pointer(candidate, None)}
        why = (
            "universal preference: every session of every project"
            if candidate.layer == "L0"
            else "project convention"
        )
        return _draft(candidate, "ADD", str(path), section, [change], rationale=why)
    kind = KIND_TYPE.get(candidate.kind, "feedback")
    if candidate.kind == "remember":
        kind = "feedback" if is_rule(candidate.principle) else "project"
    section = _section(candidate, kind, snapshot)
    kind = section_type(section, kind)  # the type matches the section the entry lands in
    topic = _topic_name(kind, candidate, names)
    names.add(topic)
    changes: list[dict[str, Any]] = [
        {"op": "write_file", "file": topic, "content": _topic_body(candidate, kind), "create_only": True},
        {"op": "add_entry", "file": INDEX, "section": section, "text": _pointer(candidate, topic)},
    ]
    why = (
        "working note with its detail on demand"
        if candidate.layer != "L3"
        else "detailed reference, loaded on demand"
    )
    return _draft(candidate, "ADD", INDEX, section, changes, rationale=why)


def _section(candidate: Candidate, kind: str, snapshot: Snapshot) -> str:
    """An existing MEMORY.md section when one fits; else the section of the memory type."""
    index = snapshot.tree.index
    doc = index.document if index is not None else None
    for name in (candidate.section, TYPE_SECTIONS[kind]):
        found = doc.section(name) if doc is not None and name else None
        if found is not None:
            return found.name
    if candidate.kind == "remember" and candidate.section.strip():
        return candidate.section.strip()  # asked for by name: a new section
    return TYPE_SECTIONS[kind]


def _draft(
    candidate: Candidate,
    action: str,
    file: str,
    section: str,
    changes: list[dict[str, Any]],
    *,
    rationale: str,
) -> Draft:
    seen = f"seen {candidate.frequency}× " if candidate.frequency > 1 else ""
    return Draft(
        action=action,
        summary=plain(candidate.principle, 90),
        layer=candidate.layer if action == "ADD" else "L2",
        file=file,
        section=section,
        rationale=f"{candidate.kind} {seen}— {rationale}",
        category=candidate.category,
        confidence=candidate.confidence,
        sources=["discoverer"],
        changes=changes,
        evidence=candidate.evidence[:3],
        queue_ids=[candidate.queue_id] if candidate.queue_id else [],
    )


def _topic_name(kind: str, candidate: Candidate, taken: set[str]) -> str:
    source = candidate.trigger if candidate.trigger.strip() else candidate.principle
    source = without_secrets(source)  # a file name is written too: redact before slugging
    words = [
        w for w in _SLUG.sub(" ", source.lower()).split() if len(w) > 2 and w not in ("when", "the", "and")
    ]
    slug = "_".join(words[:5])[:40].strip("_") or "learning"
    if candidate.kind == "remember":
        slug = subject_slug(candidate.trigger, candidate.principle)
    name, number = f"{kind}_{slug}.md", 2
    while name in taken:
        name, number = f"{kind}_{slug}_{number}.md", number + 1
    return name


def _topic_body(candidate: Candidate, kind: str) -> str:
    session = next((e.session for e in candidate.evidence if e.session), "")
    learned = min((e.timestamp[:10] for e in candidate.evidence if e.timestamp[:4].isdigit()), default="")
    metadata: dict[str, Any] = {"type": kind, "signal": candidate.kind}  # the signal: what `share` records
    if learned:
        metadata["learned"] = learned
    if session:
        metadata["originSessionId"] = session
    name, description = plain(candidate.principle, 60), plain(candidate.principle, 140)
    if candidate.kind == "remember":
        name = title(plain(candidate.principle, 200))
        description = when_it_matters(
            candidate.trigger, plain(candidate.principle, 200), candidate.layer == "L0"
        )
    matter = render_frontmatter({"name": name, "description": description, "metadata": metadata})
    lines = [candidate.principle.strip(), ""]
    quote = next((e.quote for e in candidate.evidence if e.quote), "")
    if candidate.detail.strip():
        lines += [candidate.detail.strip(), ""]
    if quote and TextIndex([candidate.principle]).best(quote)[0] < DUPLICATE:
        lines += [f"**Why:** “{' '.join(quote.split())[:240]}”", ""]
    if candidate.trigger.strip():
        lines += [
            f"**How to apply:** when {candidate.trigger.strip().removeprefix('When ').removeprefix('when ')}.",
            "",
        ]
    return matter + "\n".join(lines).rstrip("\n") + "\n"
