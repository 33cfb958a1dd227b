"""`consolidate share`, the planning half: which learnings of a person's memory go to the team folder.

Each learning becomes one reviewable proposal: an ADD of its team copy, an EDIT when the person's memory
changed what they shared, a REMOVE when it is gone from their memory. Personal preferences stay back
unless chosen; a copy that would carry a secret, a home path or transcript text is refused, saying why.
The proposals go through the same review and the same journaled apply engine as a dream.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from memory_layout import INDEX, MemoryTree, main_checkout

from ..dream.drafts import Draft, plain
from ..dream.orient import Snapshot
from ..dream.similarity import TextIndex
from .copies import (
    MemoryUnit,
    content_digest,
    learned_on,
    memory_type,
    memory_units,
    note_name,
    note_topic,
    provenance,
    team_entry,
    team_topic,
)
from .layer import (
    IMPORT_ENTRY,
    IMPORT_SECTION,
    LAYER,
    NEW_TEAM_INDEX,
    body_of,
    imports_team,
    provenance_of,
    team_units,
    unit_text,
)
from .privacy import personal_reason, refusal

DUPLICATE = 0.75  # as alike as the dream's duplicates
SETUP = "SETUP"  # the category of the proposal that creates the folder and its import line


@dataclass
class ShareRequest:
    user: str  # who shares: `git config user.name`
    today: date
    include_personal: bool = False
    memory_id: str = ""  # which memory dir shares: what it shared before is its own to edit or remove


@dataclass
class SharePlanDrafts:
    drafts: list[Draft] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # refused, kept private, already shared, …


@dataclass
class _Team:
    """What the team folder already holds, as the planner needs it."""

    tree: MemoryTree | None
    own: dict[str, str] = field(default_factory=dict)  # source in my memory → team topic, what I shared
    names: set[str] = field(default_factory=set)  # taken team file names (planned ones included)
    alike: TextIndex = field(default_factory=lambda: TextIndex([]))
    texts: list[str] = field(default_factory=list)


def share_drafts(snapshot: Snapshot, request: ShareRequest) -> SharePlanDrafts:
    layout = snapshot.settings.layout
    assert layout.team_dir is not None
    team = _read_team(snapshot.team, request)
    result = SharePlanDrafts()
    roots = _roots(layout.git_root)
    kept: set[str] = set()
    for unit in memory_units(snapshot.tree):
        kept.add(unit.key)
        draft = _share_unit(unit, snapshot, team, request, roots, result.notes)
        if draft is not None:
            result.drafts.append(draft)
    result.drafts += _removals(snapshot, team, kept, request)
    setup = _setup(snapshot, team, result.drafts)
    if setup is not None:
        result.drafts.insert(0, setup)
    return result


def _read_team(tree: MemoryTree | None, request: ShareRequest) -> _Team:
    team = _Team(tree)
    if tree is None:
        return team
    team.names = set(tree.files)
    for name, file in tree.files.items():
        mark = provenance_of(file.document) if file.is_topic else {}
        mine = mark.get("shared_by") == request.user and mark.get("memory_id") == request.memory_id
        if mine and mark.get("source"):
            team.own[str(mark["source"])] = name
    mine = set(team.own.values())
    for unit in team_units(tree):
        if mine.isdisjoint(unit.topics):  # what I shared is matched by its source, not by its words
            team.texts.append(plain(unit.entry.content, 80))
            team.alike.add(unit_text(tree, unit))
    return team


def _roots(git_root: Path | None) -> list[Path]:
    """Every spelling of the repository's root, so absolute paths into it become relative."""
    if git_root is None:
        return []
    found = {git_root, Path(os.path.realpath(git_root))}
    main = main_checkout(git_root)
    if main is not None:
        found |= {main, Path(os.path.realpath(main))}
    return sorted(found, key=lambda p: len(str(p)), reverse=True)


def _share_unit(
    unit: MemoryUnit,
    snapshot: Snapshot,
    team: _Team,
    request: ShareRequest,
    roots: list[Path],
    notes: list[str],
) -> Draft | None:
    tree = snapshot.tree
    if unit.entry.kind.value == "bare":
        notes.append(f"not shared (a bare pointer says nothing; a dream rewrites it): {unit.summary}")
        return None
    if any(provenance_of(tree.files[t].document) for t in unit.topics):
        return None  # it came from the team folder (onboard --seed): the team has it
    text = "\n".join([unit.entry.content, *(_body(tree, t) for t in unit.topics)])
    private = personal_reason(unit.section, memory_type(tree, unit), text)
    if private and not request.include_personal:
        notes.append(f"kept private ({private}; --include-personal shares it): {unit.summary}")
        return None
    own = team.own.get(unit.key)
    if own is None and team.tree is not None:
        score, position = team.alike.best(text)
        if score >= DUPLICATE:
            notes.append(f"already shared: {unit.summary} (the team has “{team.texts[position]}”)")
            return None
    return _copy(unit, snapshot, team, request, roots, notes, own)


def _body(tree: MemoryTree, topic: str) -> str:
    document = tree.files[topic].document
    return body_of(document) if document is not None else ""


def _copy(
    unit: MemoryUnit,
    snapshot: Snapshot,
    team: _Team,
    request: ShareRequest,
    roots: list[Path],
    notes: list[str],
    own: str | None,
) -> Draft | None:
    """The ADD or EDIT of one learning's team copy, or None (unchanged, refused, edited by the team)."""
    tree, folder = snapshot.tree, snapshot.settings.layout.team_dir
    assert folder is not None
    previous = provenance_of(team.tree.files[own].document) if own and team.tree else {}
    if own and team.tree is not None:
        document = team.tree.files[own].document
        if document is not None and previous.get("digest") != content_digest(document):
            notes.append(f"not updated (edited in the team folder since you shared it): {unit.summary}")
            return None
    links = _names(unit, team, own)
    files: dict[str, str] = {}
    for topic in unit.topics or (unit.key,):
        learned, signal = learned_on(tree, topic if unit.topics else unit.file)
        mark = provenance(learned, signal, request.user, request.today, topic)
        mark["memory_id"] = request.memory_id
        if previous:
            mark.update({k: previous[k] for k in ("learned", "shared") if k in previous})
            mark["updated"] = request.today.isoformat()
        files[links[topic]] = (
            team_topic(tree, topic, mark, links, roots) if unit.topics else note_topic(unit, mark, roots)
        )
    entry = team_entry(unit, tree, links, roots)
    for name, content in [(INDEX, entry), *files.items()]:
        problem = refusal(name, content, Path.home())
        if problem:
            notes.append(f"refused ({problem}): {unit.summary} — fix it in your memory and share again")
            return None
    if own:
        return _edit(unit, team, folder, own, files, entry)
    changes: list[dict[str, Any]] = [
        {"op": "write_file", "file": str(folder / name), "content": content, "create_only": True}
        for name, content in files.items()
    ]
    changes.append({"op": "add_entry", "file": str(folder / INDEX), "section": _section(unit), "text": entry})
    return _draft("ADD", unit, folder, changes, f"{_signal(tree, unit)}; the team memory does not have it")


def _names(unit: MemoryUnit, team: _Team, own: str | None) -> dict[str, str]:
    """Where each topic of the unit goes in the team folder: its own name unless someone else's file
    has it (then `_2`, `_3`…); what I shared before keeps its place."""
    links = {}
    for topic in unit.topics or (unit.key,):
        if topic in team.own:
            links[topic] = team.own[topic]
            continue
        base = topic if unit.topics else note_name(unit)
        stem, number, name = base.removesuffix(".md"), 2, base
        while name in team.names or name == INDEX:
            name, number = f"{stem}_{number}.md", number + 1
        team.names.add(name)
        links[topic] = name
    if own is not None:
        links[unit.key] = own
    return links


def _edit(
    unit: MemoryUnit, team: _Team, folder: Path, own: str, files: dict[str, str], entry: str
) -> Draft | None:
    assert team.tree is not None
    changes: list[dict[str, Any]] = []
    for name, content in files.items():
        current = team.tree.files.get(name)
        if not _same_but_dates(current.data.decode("utf-8", "replace") if current else "", content):
            changes.append({"op": "write_file", "file": str(folder / name), "content": content})
    listed = [u for u in team_units(team.tree) if own in u.topics]
    if listed and " ".join(listed[0].entry.content.split()) != " ".join(entry.split()):
        changes.append(
            {"op": "replace_entry", "file": str(folder / INDEX), "old": listed[0].entry.text, "new": entry}
        )
    if not listed:
        changes.append(
            {"op": "add_entry", "file": str(folder / INDEX), "section": _section(unit), "text": entry}
        )
    if not changes:
        return None
    return _draft("EDIT", unit, folder, changes, "your memory changed what you shared")


def _same_but_dates(current: str, new: str) -> bool:
    """The same copy apart from its `updated:` stamp: nothing to propose."""

    def strip(text: str) -> str:
        return "\n".join(line for line in text.splitlines() if not line.strip().startswith("updated:"))

    return strip(current) == strip(new)


def _section(unit: MemoryUnit) -> str:
    return unit.section or "Learnings"


def _signal(tree: MemoryTree, unit: MemoryUnit) -> str:
    learned, signal = learned_on(tree, unit.topics[0] if unit.topics else unit.file)
    kind = memory_type(tree, unit) or "note"
    return f"{kind} learned {learned}" + (f" from a {signal}" if signal != "unknown" else "")


def _removals(snapshot: Snapshot, team: _Team, kept: set[str], request: ShareRequest) -> list[Draft]:
    """What I shared that my memory no longer holds: REMOVE its team copy (its index entries first)."""
    if team.tree is None:
        return []
    folder = snapshot.settings.layout.team_dir
    assert folder is not None
    drafts = []
    for source, name in sorted(team.own.items()):
        if source in kept or source in snapshot.tree.files:
            continue
        entries = [u for u in team_units(team.tree) if name in u.topics]
        changes: list[dict[str, Any]] = [
            {"op": "drop_entry", "file": str(folder / INDEX), "text": u.entry.text} for u in entries
        ]
        changes.append({"op": "trash_file", "file": str(folder / name)})
        summary = plain(entries[0].entry.content, 90) if entries else name
        shared = provenance_of(team.tree.files[name].document).get("shared", "")
        drafts.append(
            Draft(
                action="REMOVE",
                summary=summary,
                layer=LAYER,
                file=str(folder / INDEX),
                section=entries[0].section if entries else "",
                rationale=f"you shared it on {shared}; your memory no longer holds {source}",
                category="SHARE",
                confidence=0.9,
                sources=["share"],
                changes=changes,
            )
        )
    return drafts


def _setup(snapshot: Snapshot, team: _Team, drafts: list[Draft]) -> Draft | None:
    """Create the team index and the CLAUDE.md import line when what the folder will hold needs them."""
    layout = snapshot.settings.layout
    folder = layout.team_dir
    assert folder is not None
    adding = any(d.action in ("ADD", "EDIT") for d in drafts)
    holds = team.tree is not None and bool(team_units(team.tree))
    changes: list[dict[str, Any]] = []
    if adding and (team.tree is None or team.tree.index is None):
        changes.append(
            {"op": "write_file", "file": str(folder / INDEX), "content": NEW_TEAM_INDEX, "create_only": True}
        )
    if (adding or holds) and not imports_team(snapshot.project_claude_md):
        changes.append(
            {
                "op": "add_entry",
                "file": str(layout.project_claude_md),
                "section": IMPORT_SECTION,
                "text": IMPORT_ENTRY,
            }
        )
    if not changes:
        return None
    what = "Create the team memory folder and load it from CLAUDE.md"
    if len(changes) == 1:
        what = (
            "Load the team memory from CLAUDE.md"
            if changes[0]["op"] == "add_entry"
            else "Create the team index"
        )
    return Draft(
        action="ADD",
        summary=what,
        layer=LAYER,
        file=str(folder / INDEX),
        section="",
        rationale="one `@` line makes Claude Code load the team index in every clone; applied with any entry",
        category=SETUP,
        confidence=1.0,
        sources=["share"],
        changes=changes,
    )


def _draft(action: str, unit: MemoryUnit, folder: Path, changes: list[dict[str, Any]], why: str) -> Draft:
    return Draft(
        action=action,
        summary=unit.summary,
        layer=LAYER,
        file=str(folder / INDEX),
        section=unit.section,
        rationale=why,
        category="SHARE",
        confidence=1.0,
        sources=["share"],
        changes=changes,
    )
