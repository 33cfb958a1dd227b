"""The team copy of one learning of a person's memory: its index entry in trigger-pointer form and its
topic files with provenance — when it was learned, from which kind of signal, who shared it."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from memory_layout import INDEX, Document, Entry, MemoryTree, parse_document, render_frontmatter
from memory_layout.pointers import EntryKind, always_on_pointer, retarget_links

from ..dream.drafts import plain
from .layer import body_of
from .privacy import portable

_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class MemoryUnit:
    """One learning of the person's memory: an index or cluster entry and the topic files it links."""

    file: str  # MEMORY.md or clusters/<name>.md
    entry: Entry
    topics: tuple[str, ...]  # memory-relative, in link order

    @property
    def section(self) -> str:
        return self.entry.section

    @property
    def key(self) -> str:
        """What the team copy records as its source: the topic file, or the entry itself for a note."""
        if self.topics:
            return self.topics[0]
        return f"{self.file}#{hashlib.sha256(self.entry.text.encode()).hexdigest()[:12]}"

    @property
    def summary(self) -> str:
        return plain(self.entry.content, 90)


def memory_units(tree: MemoryTree) -> list[MemoryUnit]:
    """Every entry of MEMORY.md and the cluster files with its topic files; a pointer to a cluster
    file is not a learning itself (the cluster's entries are)."""
    units = []
    for name in [INDEX, *tree.cluster_files()]:
        file = tree.files.get(name)
        if file is None or file.document is None:
            continue
        for entry in file.document.entries():
            targets = [tree.resolve_link(name, link.file) for link in entry.links]
            if any(t is not None and tree.files[t].is_cluster for t in targets if t in tree.files):
                continue
            topics = tuple(dict.fromkeys(t for t in targets if t in tree.files and tree.files[t].is_topic))
            units.append(MemoryUnit(name, entry, topics))
    return units


def memory_type(tree: MemoryTree, unit: MemoryUnit) -> str | None:
    for topic in unit.topics:
        document = tree.files[topic].document
        matter = document.frontmatter if document is not None else None
        if matter is not None and not matter.error and matter.type:
            return matter.type
    return None


def learned_on(tree: MemoryTree, name: str) -> tuple[str, str]:
    """When a memory file's learning was made and from which kind of signal: what its frontmatter
    records (`metadata.learned`, `metadata.signal`), else the file's modification date."""
    document = tree.files[name].document if name in tree.files else None
    matter = document.frontmatter if document is not None else None
    metadata = matter.data.get("metadata") if matter is not None and not matter.error else None
    metadata = metadata if isinstance(metadata, dict) else {}
    learned = str(metadata.get("learned") or "")[:10]
    if not learned:
        try:
            stamp = (tree.root / name).stat().st_mtime
            learned = datetime.fromtimestamp(stamp, UTC).date().isoformat()
        except OSError:
            learned = ""
    return learned, str(metadata.get("signal") or "unknown")


def content_digest(document: Document) -> str:
    """A hash of what a topic file says (name, description, type and body), not of its provenance:
    it tells whether the team copy was edited since it was shared."""
    matter = document.frontmatter
    said = [matter.name, matter.description, matter.type] if matter is not None and not matter.error else []
    data = json.dumps([said, body_of(document)], ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]


def team_topic(
    tree: MemoryTree, topic: str, provenance: dict[str, Any], links: dict[str, str], roots: list[Path]
) -> str:
    """The team copy of a topic file: its name, description and type, its provenance, and its body
    with links moved to the team copies (or made plain text) and repository paths made relative."""
    document = tree.files[topic].document
    assert document is not None
    matter = document.frontmatter
    data: dict[str, Any] = {}
    if matter is not None and not matter.error:
        data.update({k: v for k, v in (("name", matter.name), ("description", matter.description)) if v})
        if matter.type:
            data["metadata"] = {"type": matter.type}
    body = portable(_relink(body_of(document), tree, topic, links), roots).lstrip("\n")
    return _with_provenance(data, provenance, body)


def note_topic(unit: MemoryUnit, provenance: dict[str, Any], roots: list[Path]) -> str:
    """A topic file for an index note that has none, so every shared learning carries provenance."""
    text = portable("\n".join(line.strip() for line in unit.entry.content.strip().splitlines()), roots)
    data = {"name": plain(text, 60), "description": plain(text, 140)}
    return _with_provenance(data, provenance, text + "\n")


def _with_provenance(data: dict[str, Any], provenance: dict[str, Any], body: str) -> str:
    draft = render_frontmatter(data) + body
    stamped = {**provenance, "digest": content_digest(parse_document(draft))}
    return render_frontmatter({**data, "provenance": stamped}) + body


def team_entry(unit: MemoryUnit, tree: MemoryTree, links: dict[str, str], roots: list[Path]) -> str:
    """The index line of the team copy: the entry with its links moved to the team copies (a note gets
    a pointer to its new topic file), repository paths made relative."""
    if unit.topics:
        return _relink(portable(unit.entry.content.strip(), roots), tree, unit.file, links)
    headline = portable(unit.entry.headline.strip(), roots)  # the note's other lines go to its topic file
    note = quote(links[unit.key])
    if unit.entry.kind is EntryKind.TRIGGER or headline.startswith("**"):
        return f"{headline.rstrip()} → [detail]({note})"
    return always_on_pointer(headline, note)


def note_name(unit: MemoryUnit) -> str:
    words = [w for w in _SLUG.sub(" ", plain(unit.entry.content).lower()).split() if len(w) > 2]
    return "note_" + ("_".join(words[:5])[:40].strip("_") or "learning") + ".md"


def _relink(text: str, tree: MemoryTree, source: str, links: dict[str, str]) -> str:
    def target_of(target: str) -> str | None:
        file, hash_, anchor = target.partition("#")
        resolved = tree.resolve_link(source, file)
        moved = links.get(resolved) if resolved else None
        return None if moved is None else quote(moved) + hash_ + anchor

    return retarget_links(text, target_of)


def provenance(learned: str, signal: str, user: str, today: date, source: str) -> dict[str, Any]:
    return {
        "learned": learned or today.isoformat(),
        "signal": signal,
        "shared_by": user,
        "shared": today.isoformat(),
        "source": source,
    }
