"""Synthesis (a): every auditor finding becomes a concrete REMOVE, MERGE or EDIT — a run that only adds is
a failure mode. An entry is touched by one proposal at most, the strongest; weak removals are not proposed."""

from __future__ import annotations

import os
from collections.abc import Callable
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
    read_only = _read_only(snapshot)
    for finding in ordered:
        if read_only(finding.file):
            notes.append(
                f"check by hand ({finding.category}, {finding.file} is read-only here): {_where(finding)}"
            )
            continue
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
    drafts = fixed_together(drafts)
    drafts.extend(_orphan_pointers(findings, snapshot, claims))
    notes += [
        f"check by hand ({f.category}, no safe change): {_where(f)}"
        for f in findings
        if f.action == "NONE"
        and f.category in ("STALE", "CONTRADICT", "SUPERSEDED")
        and (f.file, "") not in claims.keys  # a file a proposal retires needs no check
    ]
    return drafts, notes, claims


def _where(finding: Finding) -> str:
    where = f"{finding.file}:{finding.line}" if finding.line else finding.file
    return f"{where} {plain(finding.entry)} — {(finding.rationale or finding.evidence)[:140]}".replace(
        "  ", " "
    )


def _read_only(snapshot: Snapshot) -> Callable[[str], bool]:
    """A file the audit read that no plan may change: one CLAUDE.md imports (inside the project or the
    Claude config dir, and not a CLAUDE.md itself). Anything else outside is refused as a target later."""
    layout = snapshot.settings.layout
    claude = {str(layout.user_claude_md), str(layout.project_claude_md)}
    roots = [Path(os.path.realpath(p)) for p in (layout.git_root or layout.project, layout.claude_home)]

    def read_only(name: str) -> bool:
        if not Path(name).is_absolute() or name in claude:
            return False
        real = Path(os.path.realpath(name))
        return any(root in real.parents for root in roots)

    return read_only


def fixed_together(drafts: list[Draft]) -> list[Draft]:
    """Renames of one path, found in several files, become one proposal that fixes every file."""
    renames = [d for d in drafts if d.reason == "renamed" and d.subject]
    groups: list[list[Draft]] = []
    for draft in renames:
        names = set(draft.subject.split(", "))
        joined = [g for g in groups if any(names & set(d.subject.split(", ")) for d in g)]
        merged = [draft] + [d for g in joined for d in g]
        groups = [g for g in groups if g not in joined] + [merged]
    result = [d for d in drafts if d not in renames]
    for group in groups:
        group.sort(key=lambda d: d.file)
        first = group[0]
        if len(group) > 1:
            files = list(
                dict.fromkeys(Path(d.file).name if Path(d.file).is_absolute() else d.file for d in group)
            )
            subject = ", ".join(sorted({n for d in group for n in d.subject.split(", ")}))
            first.summary = f"STALE: {subject} renamed — fixed in {', '.join(files)}"
            first.changes = [c for d in group for c in d.changes]
            first.rationale = f"{first.rationale}; every file that names it is fixed together"
            first.evidence = list({e.quote: e for d in group for e in d.evidence}.values())
            first.subject = subject
        result.append(first)
    return result


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
    return absorbed + _merged_topic(finding, snapshot, retired) + survivor  # the pointer checked last


def _merged_topic(finding: Finding, snapshot: Snapshot, retired: list[str]) -> list[dict[str, Any]]:
    """A MERGE of topic files writes the kept file with the new parts of the one it retires (the
    auditor's `topic_content`), so nothing that file said is left only in the index line."""
    if not finding.topic_content.strip() or not retired:
        return []
    entry = locate_entry(snapshot, finding.file, finding.entry) if is_index_like(finding.file) else None
    targets = [snapshot.tree.resolve_link(finding.file, link.file) for link in entry.links] if entry else []
    kept = next((t for t in targets if t and t not in retired and t in snapshot.tree.files), None)
    if kept is None or snapshot.tree.files[kept].data == finding.topic_content.encode("utf-8"):
        return []
    return [{"op": "write_file", "file": kept, "content": finding.topic_content}]


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
    """The rationale says what was found in words; the evidence is the fact behind it (a commit, a
    manifest line, the line elsewhere), only when there is one."""
    subject = plain(finding.entry) if finding.entry else finding.file
    rationale = redact(finding.rationale or finding.evidence)
    fact = redact(finding.fact)
    return Draft(
        action=finding.action,
        summary=f"{finding.category}: {subject}",
        layer=layer_of(finding.file, snapshot),
        file=finding.file,
        section=_section(snapshot, finding.file, finding.entry),
        rationale=rationale or finding.category,
        category=finding.category,
        confidence=finding.confidence,
        sources=["auditor"],
        changes=changes,
        evidence=[EvidenceRef(file=finding.file, quote=fact[:300])] if fact else [],
        reason=finding.reason,
        subject=finding.subject,
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
