"""Shared pieces of synthesis: a draft proposal, where an entry lives, and plain text for summaries."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_layout import CLUSTER_DIR, INDEX, Document, Entry

from ..models import Candidate, EvidenceRef
from .backlog import learning_id
from .orient import Snapshot

TYPE_SECTIONS = {"feedback": "Feedback", "project": "Project", "reference": "Reference", "user": "User"}
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"\*\*|__|^\s*[-*+]\s+|\s*(?:→|->)\s*$")
_SPAN = re.compile(r"`([^`\n]+)`")
# a code span that does not read as a word without its backticks: it opens or closes with punctuation
# or spaces (`, vX.Y.Z`, `-R .`), so a summary keeps them
_NEEDS_TICKS = re.compile(r"^[\s,;:!?)\]]|[\s,;:.!?(\[]$|\s[.,;:!?]")


@dataclass
class Draft:
    """A proposal before it gets an id and a diff."""

    action: str
    summary: str
    layer: str
    file: str
    section: str
    rationale: str
    category: str
    confidence: float
    sources: list[str]
    changes: list[dict[str, Any]]
    evidence: list[EvidenceRef] = field(default_factory=list)
    queue_ids: list[str] = field(default_factory=list)
    learning: Candidate | None = None  # the learning a discoverer draft carries (for the backlog)
    skipped: dict[str, Any] | None = None  # set aside as already recorded: {"reason", "matched"}
    reason: str = ""  # the kind of finding within its category: proposals of one kind are reviewed as a group
    subject: str = ""  # what it is about (a renamed path): found in several files, fixed together
    warning: str = ""  # applied only when confirmed explicitly (a learning that contradicts an entry)

    def as_dict(self, pid: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": pid,
            "action": self.action,
            "summary": self.summary,
            "layer": self.layer,
            "target": {"file": self.file, "section": self.section},
            "rationale": self.rationale,
            "category": self.category,
            "confidence": round(self.confidence, 2),
            "sources": self.sources,
            "evidence": [e.model_dump(exclude_defaults=True) for e in self.evidence],
            "changes": self.changes,
        }
        if self.queue_ids:
            data["queue_ids"] = self.queue_ids
        if self.learning is not None:
            data["learning_id"] = learning_id(self.learning)
            data["learning"] = self.learning.model_dump(mode="json", exclude_defaults=True)
        if self.skipped is not None:
            data["skipped"] = self.skipped
        if self.reason:
            data["reason"] = self.reason
        if self.warning:
            data["warning"] = self.warning
        return data


def plain(text: str, limit: int = 90) -> str:
    """Entry text without Markdown decoration, shortened for a summary line."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    flat = _MARKUP.sub("", _LINK.sub(r"\1", first)).strip()
    flat = _without_ticks(flat)
    if _LINK.search(first):  # the pointer's "→ [detail](file)" tail, not an arrow of the rule itself
        flat = re.sub(r"\s*→\s*\S*$", "", flat).strip()
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rstrip()
    return (cut if cut.count("`") % 2 == 0 else cut.replace("`", "")) + "…"


def _without_ticks(text: str) -> str:
    """`text` with the backticks of its code spans gone, except around a span that would not read
    without them; a stray backtick goes too."""
    if "`" not in text:
        return text
    parts = _SPAN.split(text)  # prose, span, prose, span, …
    return "".join(
        part.replace("`", "") if index % 2 == 0 else f"`{part}`" if _NEEDS_TICKS.search(part) else part
        for index, part in enumerate(parts)
    )


def is_index_like(name: str) -> bool:
    return name == INDEX or name.startswith(f"{CLUSTER_DIR}/")


def layer_of(name: str, snapshot: Snapshot) -> str:
    layout = snapshot.settings.layout
    if Path(name).is_absolute():
        return "L0" if Path(name) == layout.user_claude_md else "L1"
    if name == INDEX:
        return "L2"
    return "L2c" if name.startswith(f"{CLUSTER_DIR}/") else "L3"


def document(snapshot: Snapshot, name: str) -> Document | None:
    file = snapshot.tree.files.get(name)
    return file.document if file is not None else None


def locate_entry(snapshot: Snapshot, name: str, text: str) -> Entry | None:
    """The entry of an index-like file that `text` quotes (with or without its list marker)."""
    doc = document(snapshot, name)
    if doc is None or not text.strip():
        return None
    for candidate in (text, f"- {text.strip()}"):
        found = doc.find_entry(candidate)
        if found is not None:
            return found
    wanted = text.strip().lstrip("-*+ ").strip()
    return next(
        (e for e in doc.entries() if e.headline.strip() == wanted or e.content.strip() == wanted), None
    )


def pointing_entries(snapshot: Snapshot, topic: str) -> list[tuple[str, Entry]]:
    """Index and cluster entries that link to the topic file `topic`."""
    return snapshot.pointers_to.get(topic, [])
