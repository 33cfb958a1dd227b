"""`consolidate onboard --seed`: copy what the team shared into the newcomer's own memory dir — what
they do not have yet, stale entries left out — as reviewable ADDs through the journaled apply engine."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from memory_layout import INDEX, TEAM_DIR, MemoryTree
from memory_layout.pointers import retarget_links

from ..discover.matcher import Matcher
from ..dream.drafts import Draft, plain
from ..dream.orient import Snapshot
from .layer import LAYER, provenance_of, team_units
from .stated import HELD_BACK, rules_of, stated_by


def seed_drafts(snapshot: Snapshot, stale: set[tuple[str, int]]) -> tuple[list[Draft], list[str]]:
    """One ADD per team entry the memory dir lacks; `stale` holds the (file, line) of the team entries
    the auditor flagged (as the brief names them), which are left out."""
    team = snapshot.team
    if team is None:
        return [], ["no team memory to seed from"]
    mine: Matcher | None = None  # what the memory dir and both CLAUDE.md files state, read when needed
    have = _provenances(snapshot.tree)
    names = set(snapshot.tree.files)
    drafts, notes = [], []
    for unit in team_units(team):
        summary = plain(unit.entry.content, 90)
        marks = [provenance_of(team.files[t].document) for t in unit.topics]
        where = (
            (f"{TEAM_DIR}/{unit.topics[0]}", 0) if unit.topics else (f"{TEAM_DIR}/{INDEX}", unit.entry.line)
        )
        if where in stale:
            notes.append(f"not seeded (the auditor finds it stale): {summary}")
            continue
        if any(_identity(m) in have for m in marks if m):
            notes.append(f"already in your memory: {summary}")
            continue
        if mine is None:
            mine = Matcher.of_texts([k.text for k in snapshot.known if k.layer != LAYER])
        verdict = stated_by(mine, rules_of(team, unit.entry, unit.topics))
        if verdict.category == "RECORDED":
            notes.append(f"already in your memory (in other words): {summary}")
            continue
        if verdict.category in HELD_BACK:
            notes.append(
                f"not seeded (your memory says otherwise: “{plain(verdict.related, 80)}”): {summary}"
            )
            continue
        drafts.append(_seed(unit.entry.content, unit.section, unit.topics, team, names, summary, marks))
    return drafts, notes


def _provenances(tree: MemoryTree) -> set[tuple[str, str]]:
    return {_identity(provenance_of(f.document)) for f in tree.files.values() if f.is_topic} - {("", "")}


def _identity(mark: dict[str, Any]) -> tuple[str, str]:
    return str(mark.get("source") or ""), str(mark.get("shared_by") or "")


def _seed(
    content: str,
    section: str,
    topics: tuple[str, ...],
    team: MemoryTree,
    names: set[str],
    summary: str,
    marks: list[dict[str, Any]],
) -> Draft:
    moved: dict[str, str] = {}
    for topic in topics:
        stem, number, name = topic.removesuffix(".md"), 2, topic
        while name in names:
            name, number = f"{stem}_{number}.md", number + 1
        names.add(name)
        moved[topic] = name

    def target_of(target: str) -> str | None:
        file, hash_, anchor = target.partition("#")
        resolved = team.resolve_link(INDEX, file)
        return quote(moved[resolved]) + hash_ + anchor if resolved in moved else None

    changes: list[dict[str, Any]] = [
        {
            "op": "write_file",
            "file": moved[topic],
            "content": team.files[topic].data.decode("utf-8", "replace"),
            "create_only": True,
        }
        for topic in topics
    ]
    text = retarget_links(content.strip(), target_of)
    changes.append({"op": "add_entry", "file": INDEX, "section": section or "Team", "text": text})
    who = next((str(m.get("shared_by")) for m in marks if m.get("shared_by")), "the team")
    return Draft(
        action="ADD",
        summary=summary,
        layer="L2",
        file=INDEX,
        section=section or "Team",
        rationale=f"shared by {who}: seeds your own memory from the team folder",
        category="SEED",
        confidence=1.0,
        sources=["onboard"],
        changes=changes,
    )
