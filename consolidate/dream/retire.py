"""Synthesis (a): every auditor finding becomes a concrete REMOVE, MERGE or EDIT — a run that only adds is
a failure mode. An entry is touched by one proposal at most, the strongest; weak removals are not proposed."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from memory_layout import INDEX
from memory_layout.document import split_lines
from memory_layout.pointers import LIST_MARKER, always_on_pointer

from ..models import EvidenceRef, Finding
from ..secrets import redact
from .drafts import (
    TYPE_SECTIONS,
    Draft,
    document,
    is_index_like,
    layer_of,
    locate_entry,
    plain,
    pointing_entries,
)
from .orient import Snapshot

STRENGTH = {"REMOVE": 3, "MERGE": 2, "EDIT": 1}
MIN_REMOVE_CONFIDENCE = 0.6


class _Claims:
    """Entries and files already given to a proposal."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, str]] = set()

    @staticmethod
    def key(file: str, text: str) -> tuple[str, str]:
        return file, " ".join(text.split()).lstrip("-*+ ")

    def taken(self, keys: list[tuple[str, str]]) -> bool:
        return any(k in self.keys for k in keys)


def retirements(findings: list[Finding], snapshot: Snapshot) -> tuple[list[Draft], list[str], _Claims]:
    claims, drafts, notes = _Claims(), [], []
    ordered = sorted(
        (f for f in findings if f.action in STRENGTH),
        key=lambda f: (-STRENGTH[f.action], -f.confidence, f.file, f.line),
    )
    for finding in ordered:
        if finding.action == "REMOVE" and finding.confidence < MIN_REMOVE_CONFIDENCE:
            notes.append(
                f"not removed (weak evidence, {finding.confidence:.2f}): {plain(finding.entry or finding.file)}"
            )
            continue
        keys = _keys(finding, snapshot)
        if claims.taken(keys):
            continue
        changes = _changes(finding, snapshot)
        if not changes:
            continue
        claims.keys.update(keys)
        drafts.append(_draft(finding, snapshot, changes))
    drafts.extend(_orphan_pointers(findings, snapshot, claims))
    notes += [
        f"check by hand ({f.category}, no safe change): {plain(f.entry or f.file)} — {f.evidence[:120]}"
        for f in findings
        if f.action == "NONE" and f.category in ("STALE", "CONTRADICT", "SUPERSEDED")
    ]
    return drafts, notes, claims


def _keys(finding: Finding, snapshot: Snapshot) -> list[tuple[str, str]]:
    if finding.category == "SECRET":  # one redaction per file covers every secret in it
        return [(finding.file, "<secrets>")]
    keys = [_Claims.key(finding.file, finding.entry)] + [
        _Claims.key(r.file, r.entry) for r in finding.related
    ]
    for topic in _retired_topics(finding, snapshot):
        keys.append((topic, ""))
        keys.extend(_Claims.key(name, entry.text) for name, entry in pointing_entries(snapshot, topic))
    return keys


def _retired_topics(finding: Finding, snapshot: Snapshot) -> list[str]:
    topics = [finding.topic_file] if finding.topic_file else []
    if finding.action == "REMOVE" and not finding.entry and not is_index_like(finding.file):
        topics.append(finding.file)
    return [t for t in dict.fromkeys(topics) if t in snapshot.tree.files and t != INDEX]


def _changes(finding: Finding, snapshot: Snapshot) -> list[dict[str, Any]]:
    if finding.category == "SECRET":
        return [{"op": "redact_secrets", "file": finding.file}]
    if finding.action == "REMOVE":
        return _remove(finding, snapshot)
    if not finding.replacement.strip():
        return []
    if finding.action == "EDIT":
        return _replace(finding.file, finding.entry, finding.replacement, snapshot)
    retired = _retired_topics(finding, snapshot)
    replacement = _keep_link(finding, snapshot, retired)
    survivor = _replace(finding.file, finding.entry, replacement, snapshot)
    if not survivor:
        return []
    absorbed: list[dict[str, Any]] = []
    for related in finding.related:
        absorbed.extend(_remove_text(related.file, related.entry, snapshot))
    absorbed.extend({"op": "trash_file", "file": t} for t in retired)
    return absorbed + survivor  # retire first, so the merged entry's own pointer is checked last


def _keep_link(finding: Finding, snapshot: Snapshot, retired: list[str]) -> str:
    """A merged entry must not point at a file the merge retires: keep the survivor's own link."""
    entry = locate_entry(snapshot, finding.file, finding.entry) if is_index_like(finding.file) else None
    own = [link.target for link in entry.links] if entry else []
    text = finding.replacement
    for topic in retired:
        for candidate in (topic, f"../{topic}"):
            if f"]({candidate})" in text and own and own[0] != candidate:
                text = text.replace(f"]({candidate})", f"]({own[0]})")
    return text


def _remove(finding: Finding, snapshot: Snapshot) -> list[dict[str, Any]]:
    topics = _retired_topics(finding, snapshot)
    changes: list[dict[str, Any]] = [{"op": "trash_file", "file": t} for t in topics]
    if finding.entry:
        entry = locate_entry(snapshot, finding.file, finding.entry) if is_index_like(finding.file) else None
        links_retired = entry is not None and any(
            snapshot.tree.resolve_link(finding.file, ln.file) in topics for ln in entry.links
        )
        if not links_retired:
            changes.extend(_remove_text(finding.file, finding.entry, snapshot))
    return changes


def _remove_text(file: str, text: str, snapshot: Snapshot) -> list[dict[str, Any]]:
    if is_index_like(file):
        entry = locate_entry(snapshot, file, text)
        return [{"op": "drop_entry", "file": file, "text": entry.text}] if entry else []
    line = _whole_line(snapshot, file, text)
    return [{"op": "replace_text", "file": file, "old": line, "new": ""}] if line else []


def _whole_line(snapshot: Snapshot, file: str, text: str) -> str:
    """The one line of `file` that is exactly `text` (with its line ending), or '' — a removal never
    takes part of a line."""
    doc = document(snapshot, file)
    if doc is None or not text.strip():
        return ""
    matches = [line for line in split_lines(doc.render()) if line.strip() == text.strip()]
    return matches[0] if len(matches) == 1 and matches[0].endswith("\n") else ""


def _replace(file: str, old: str, new: str, snapshot: Snapshot) -> list[dict[str, Any]]:
    if is_index_like(file):
        entry = locate_entry(snapshot, file, old)
        if entry is None:
            return []
        marker = entry.text[: len(entry.text) - len(entry.content)]
        text = new if LIST_MARKER.match(new) else marker + new.strip()
        return [{"op": "replace_entry", "file": file, "old": entry.text, "new": text}]
    return [{"op": "replace_text", "file": file, "old": old, "new": new}] if old and old != new else []


def _section(snapshot: Snapshot, file: str, entry_text: str) -> str:
    entry = locate_entry(snapshot, file, entry_text) if is_index_like(file) else None
    return entry.section if entry else ""


def _draft(finding: Finding, snapshot: Snapshot, changes: list[dict[str, Any]]) -> Draft:
    subject = plain(finding.entry) if finding.entry else finding.file
    evidence = redact(finding.evidence)
    return Draft(
        action=finding.action,
        summary=f"{finding.category}: {subject}",
        layer=layer_of(finding.file, snapshot),
        file=finding.file,
        section=_section(snapshot, finding.file, finding.entry),
        rationale=evidence or finding.category,
        category=finding.category,
        confidence=finding.confidence,
        sources=["auditor"],
        changes=changes,
        evidence=[EvidenceRef(file=finding.file, quote=evidence[:300])] if evidence else [],
    )


def _orphan_pointers(findings: list[Finding], snapshot: Snapshot, claims: _Claims) -> list[Draft]:
    """An orphan topic file gets a pointer in MEMORY.md, written from its own frontmatter."""
    drafts = []
    for finding in findings:
        if finding.category != "HYGIENE" or finding.entry or is_index_like(finding.file):
            continue
        if "orphan" not in finding.evidence.lower() or (finding.file, "") in claims.keys:
            continue
        doc = document(snapshot, finding.file)
        if doc is None:
            continue
        matter = doc.frontmatter
        about = (matter.description or matter.name) if matter and not matter.error else None
        about = about or _first_sentence(doc.render())
        if not about:
            continue
        section = TYPE_SECTIONS.get((matter.type if matter else None) or "", "Reference")
        claims.keys.add((finding.file, ""))
        link = quote(Path(finding.file).as_posix())  # a space or `#` in the name would break the link
        drafts.append(
            Draft(
                action="EDIT",
                summary=f"HYGIENE: point to the orphan {finding.file}",
                layer="L2",
                file=INDEX,
                section=section,
                rationale="no pointer leads to this topic file, so it is never loaded",
                category="HYGIENE",
                confidence=0.7,
                sources=["auditor"],
                changes=[
                    {
                        "op": "add_entry",
                        "file": INDEX,
                        "section": section,
                        "text": always_on_pointer(about, link),
                    }
                ],
            )
        )
    return drafts


def _first_sentence(text: str) -> str:
    body = text.split("---", 2)[-1] if text.startswith("---") else text
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if len(line) > 10:
            return line.split(". ")[0][:140]
    return ""
