"""Synthesis (b): consolidation pressure. Only after retirements, a MEMORY.md section still over 25 entries
moves into `clusters/<section>.md`, leaving one trigger pointer; rule bodies found inline on the way are
extracted into topic files so a cluster stays a pure trigger index."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from memory_layout import CLUSTER_DIR, INDEX, Entry, EntryKind, render_frontmatter
from memory_layout.health import MAX_ENTRY_CHARS, MAX_SECTION_ENTRIES
from memory_layout.pointers import rebase_links, trigger_pointer

from ..secrets import without_secrets
from .drafts import Draft, document, pointing_entries
from .orient import Snapshot
from .titles import write_title

_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    return _SLUG.sub("-", without_secrets(text).lower()).strip("-") or "section"


def section_sizes(snapshot: Snapshot, drafts: list[Draft]) -> Counter[str]:
    """Entries per MEMORY.md section once every draft is applied."""
    doc = document(snapshot, INDEX)
    sizes: Counter[str] = Counter()
    where: dict[str, str] = {}
    if doc is not None:
        for entry in doc.entries():
            sizes[entry.section] += 1
            where[" ".join(entry.text.split())] = entry.section
    for draft in drafts:
        for change in draft.changes:
            if change.get("file") != INDEX and change["op"] != "trash_file":
                continue
            if change["op"] == "add_entry":
                sizes[_match_section(sizes, change.get("section", ""))] += 1
            elif change["op"] == "drop_entry":
                sizes[where.get(" ".join(change["text"].split()), "")] -= 1
            elif change["op"] == "trash_file":
                for name, entry in pointing_entries(snapshot, change["file"]):
                    if name == INDEX:
                        sizes[entry.section] -= 1
    return sizes


def _match_section(sizes: Counter[str], name: str) -> str:
    return next((s for s in sizes if s.casefold() == name.casefold()), name)


def cluster_drafts(snapshot: Snapshot, drafts: list[Draft]) -> list[Draft]:
    """CLUSTER proposals for crowded sections; ADDs aimed at a clustered section are sent to its file."""
    sizes = section_sizes(snapshot, drafts)
    clusters: list[Draft] = []
    routes = _existing_clusters(snapshot)
    doc = document(snapshot, INDEX)
    for section, size in sizes.items():
        if size <= MAX_SECTION_ENTRIES or not section or doc is None or section.casefold() in routes:
            continue
        target = doc.section(section)
        if target is None:
            continue
        cluster_file = f"{CLUSTER_DIR}/{slug(section)}.md"
        routes[section.casefold()] = cluster_file
        changes = _extract_bodies(target.entries, set(snapshot.tree.files))
        changes.append(
            {
                "op": "cluster_section",
                "file": INDEX,
                "section": section,
                "cluster_file": cluster_file,
                "preamble": f"The {section} entries of MEMORY.md, moved here when the section outgrew "
                f"{MAX_SECTION_ENTRIES} entries. Open the file whose trigger matches the task.",
                "pointer": trigger_pointer(
                    _cluster_trigger(section, target.entries),
                    f"open the {section} index",
                    cluster_file,
                    label=section,
                ),
            }
        )
        clusters.append(
            Draft(
                action="CLUSTER",
                summary=f"move {size} {section} entries into {cluster_file}",
                layer="L2c",
                file=INDEX,
                section=section,
                rationale=f"{size} entries after retirements (> {MAX_SECTION_ENTRIES}); "
                "MEMORY.md keeps one pointer so every session loads less",
                category="CLUSTER",
                confidence=0.9,
                sources=["synthesis"],
                changes=changes,
            )
        )
    _reroute(drafts, routes)
    return clusters


def _existing_clusters(snapshot: Snapshot) -> dict[str, str]:
    """Sections of MEMORY.md that are already a pointer to a cluster file."""
    doc = document(snapshot, INDEX)
    routes: dict[str, str] = {}
    for entry in doc.entries() if doc is not None else []:
        for link in entry.links:
            target = snapshot.tree.resolve_link(INDEX, link.file)
            if target and target.startswith(f"{CLUSTER_DIR}/") and entry.section:
                routes[entry.section.casefold()] = target
    return routes


def _reroute(drafts: list[Draft], routes: dict[str, str]) -> None:
    for draft in drafts:
        for change in draft.changes:
            if change["op"] == "add_entry" and change["file"] == INDEX:
                cluster = routes.get(change.get("section", "").casefold())
                if cluster:
                    change.update(
                        file=cluster, section="", text=rebase_links(change["text"], "", CLUSTER_DIR)
                    )
                    draft.file, draft.layer = cluster, "L2c"


def _cluster_trigger(section: str, entries: list[Entry]) -> str:
    """`working on http client, database, app factory or another reference topic`."""
    conditions = [e.pointer.trigger or "" for e in entries]
    topics = [
        c.split(None, 1)[1] if c.lower().startswith("when ") and " " in c else c for c in conditions if c
    ][:3]
    if not topics:
        return f"the task touches {section.lower()}"
    words = [topic.split() for topic in topics]
    shared = 0
    while all(len(w) > shared + 1 for w in words) and len({w[shared].lower() for w in words}) == 1:
        shared += 1
    head = " ".join(words[0][:shared])
    rest = [" ".join(w[shared:]) for w in words]
    return f"{head + ' ' if head else ''}{', '.join(rest)} or another {section.lower()} topic"


def _extract_bodies(entries: list[Entry], taken: set[str]) -> list[dict[str, Any]]:
    """Long inline notes become a topic file plus a pointer to it."""
    changes: list[dict[str, Any]] = []
    for entry in entries:
        if entry.kind is not EntryKind.NOTE:
            continue
        body = entry.content.strip()
        if len(entry.headline) <= MAX_ENTRY_CHARS and "\n" not in body:
            continue
        name, number = f"{slug(entry.section)}_{slug(entry.headline)[:40]}.md", 2
        while name in taken:
            name, number = f"{slug(entry.section)}_{slug(entry.headline)[:40]}_{number}.md", number + 1
        taken.add(name)
        first = write_title(entry.headline)  # a whole phrase, never a line cut mid-clause
        matter = render_frontmatter({"name": first, "description": first, "type": "reference"})
        changes.append(
            {"op": "write_file", "file": name, "content": matter + body + "\n", "create_only": True}
        )
        pointer = entry.pointer
        text = (
            trigger_pointer(pointer.trigger, first, name)
            if pointer.trigger
            else f"{first}. → [detail]({name})"
        )
        changes.append({"op": "replace_entry", "file": INDEX, "old": entry.text, "new": f"- {text}"})
    return changes
