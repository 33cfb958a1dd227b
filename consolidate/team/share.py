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

from ..discover.matcher import Matcher
from ..dream.drafts import Draft, plain
from ..dream.orient import Snapshot
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
from .stated import HELD_BACK, rules_of, stated_by

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
    texts: list[str] = field(default_factory=list)  # what teammates shared: each entry with its topic files

    def stating(self) -> Matcher:
        return Matcher.of_texts(self.texts)


def share_drafts(snapshot: Snapshot, request: ShareRequest) -> SharePlanDrafts:
    planner = _Planner(snapshot, request)
    result = SharePlanDrafts(notes=planner.notes)
    kept: set[str] = set()
    for unit in memory_units(snapshot.tree):
        kept.add(unit.key)
        draft = planner.share(unit)
        if draft is not None:
            result.drafts.append(draft)
    result.drafts += planner.removals(kept)
    setup = planner.setup(result.drafts)
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
            team.texts.append(unit_text(tree, unit))
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


class _Planner:
    """One share run's view: the sharer's memory, the team folder, and the notes of what stays back."""

    def __init__(self, snapshot: Snapshot, request: ShareRequest) -> None:
        folder = snapshot.settings.layout.team_dir
        assert folder is not None
        self.snapshot, self.request, self.folder = snapshot, request, folder
        self.tree = snapshot.tree
        self.team = _read_team(snapshot.team, request)
        self.roots = _roots(snapshot.settings.layout.git_root)
        self.notes: list[str] = []
        self._stated: Matcher | None = None  # read when a learning is first compared with the team's

    @property
    def index(self) -> str:
        return str(self.folder / INDEX)

    def share(self, unit: MemoryUnit) -> Draft | None:
        """The ADD or EDIT of one learning's team copy, or None with a note saying why not."""
        if unit.entry.kind.value == "bare":
            self.notes.append(
                f"not shared (a bare pointer says nothing; a dream rewrites it): {unit.summary}"
            )
            return None
        if any(provenance_of(self.tree.files[t].document) for t in unit.topics):
            return None  # it came from the team folder (onboard --seed): the team has it
        text = "\n".join([unit.entry.content, *(self._body(t) for t in unit.topics)])
        private = personal_reason(unit.section, memory_type(self.tree, unit), text)
        if private and not self.request.include_personal:
            self.notes.append(f"kept private ({private}; --include-personal shares it): {unit.summary}")
            return None
        own = self.team.own.get(unit.key)
        if own is None and self.team.texts:
            if self._stated is None:
                self._stated = self.team.stating()
            verdict = stated_by(self._stated, rules_of(self.tree, unit.entry, unit.topics))
            related = plain(verdict.related, 80)
            if verdict.category == "RECORDED":
                self.notes.append(f"already shared: {unit.summary} (the team has “{related}”)")
                return None
            if verdict.category in HELD_BACK:
                self.notes.append(
                    f"not shared (the team memory says otherwise: “{related}”; settle it with the team): "
                    f"{unit.summary}"
                )
                return None
        return self._copy(unit, own)

    def _body(self, topic: str) -> str:
        document = self.tree.files[topic].document
        return body_of(document) if document is not None else ""

    def _copy(self, unit: MemoryUnit, own: str | None) -> Draft | None:
        previous: dict[str, Any] = {}
        if own and self.team.tree is not None:
            document = self.team.tree.files[own].document
            previous = provenance_of(document)
            if document is not None and previous.get("digest") != content_digest(document):
                self.notes.append(
                    f"not updated (edited in the team folder since you shared it): {unit.summary}"
                )
                return None
        links = self._names(unit, own)
        files = {
            links[topic]: self._topic_copy(unit, topic, links, previous)
            for topic in unit.topics or (unit.key,)
        }
        entry = team_entry(unit, self.tree, links, self.roots)
        for name, content in [(INDEX, entry), *files.items()]:
            problem = refusal(name, content, Path.home())
            if problem:
                self.notes.append(
                    f"refused ({problem}): {unit.summary} — fix it in your memory and share again"
                )
                return None
        if own:
            return self._edit(unit, own, files, entry)
        changes: list[dict[str, Any]] = [
            {"op": "write_file", "file": str(self.folder / name), "content": content, "create_only": True}
            for name, content in files.items()
        ]
        changes.append({"op": "add_entry", "file": self.index, "section": _section(unit), "text": entry})
        return self._draft(
            "ADD",
            unit.summary,
            _section(unit),
            changes,
            f"{self._signal(unit)}; the team memory does not have it",
        )

    def _topic_copy(
        self, unit: MemoryUnit, topic: str, links: dict[str, str], previous: dict[str, Any]
    ) -> str:
        learned, signal = learned_on(self.tree, topic if unit.topics else unit.file)
        mark = provenance(learned, signal, self.request.user, self.request.today, topic)
        mark["memory_id"] = self.request.memory_id
        if previous:  # an update keeps when it was learned and first shared
            mark.update({k: previous[k] for k in ("learned", "shared") if k in previous})
            mark["updated"] = self.request.today.isoformat()
        if unit.topics:
            return team_topic(self.tree, topic, mark, links, self.roots)
        return note_topic(unit, mark, self.roots)

    def _names(self, unit: MemoryUnit, own: str | None) -> dict[str, str]:
        """Where each topic of the unit goes in the team folder: its own name unless another file has
        it (then `_2`, `_3`…); what I shared before keeps its place."""
        links = {}
        for topic in unit.topics or (unit.key,):
            if topic in self.team.own:
                links[topic] = self.team.own[topic]
                continue
            base = topic if unit.topics else note_name(unit)
            stem, number, name = base.removesuffix(".md"), 2, base
            while name in self.team.names or name == INDEX:
                name, number = f"{stem}_{number}.md", number + 1
            self.team.names.add(name)
            links[topic] = name
        if own is not None:
            links[unit.key] = own
        return links

    def _edit(self, unit: MemoryUnit, own: str, files: dict[str, str], entry: str) -> Draft | None:
        team = self.team.tree
        assert team is not None
        changes: list[dict[str, Any]] = []
        for name, content in files.items():
            current = team.files.get(name)
            if not _same_but_dates(current.data.decode("utf-8", "replace") if current else "", content):
                changes.append({"op": "write_file", "file": str(self.folder / name), "content": content})
        listed = [u for u in team_units(team) if own in u.topics]
        if listed and " ".join(listed[0].entry.content.split()) != " ".join(entry.split()):
            changes.append(
                {"op": "replace_entry", "file": self.index, "old": listed[0].entry.text, "new": entry}
            )
        if not listed:
            changes.append({"op": "add_entry", "file": self.index, "section": _section(unit), "text": entry})
        if not changes:
            return None
        return self._draft(
            "EDIT", unit.summary, _section(unit), changes, "your memory changed what you shared"
        )

    def _signal(self, unit: MemoryUnit) -> str:
        learned, signal = learned_on(self.tree, unit.topics[0] if unit.topics else unit.file)
        kind = memory_type(self.tree, unit) or "note"
        return f"{kind} learned {learned}" + (f" from a {signal}" if signal != "unknown" else "")

    def removals(self, kept: set[str]) -> list[Draft]:
        """What I shared that my memory no longer holds: REMOVE its team copy (its entries first)."""
        team = self.team.tree
        if team is None:
            return []
        drafts = []
        for source, name in sorted(self.team.own.items()):
            if source in kept or source in self.tree.files:
                continue
            entries = [u for u in team_units(team) if name in u.topics]
            changes: list[dict[str, Any]] = [
                {"op": "drop_entry", "file": self.index, "text": u.entry.text} for u in entries
            ]
            changes.append({"op": "trash_file", "file": str(self.folder / name)})
            shared = provenance_of(team.files[name].document).get("shared", "")
            why = f"you shared it on {shared}; your memory no longer holds {source}"
            summary, section = (
                (plain(entries[0].entry.content, 90), entries[0].section) if entries else (name, "")
            )
            drafts.append(self._draft("REMOVE", summary, section, changes, why))
        return drafts

    def setup(self, drafts: list[Draft]) -> Draft | None:
        """Create the team index and the CLAUDE.md import line when what the folder holds needs them."""
        team = self.team.tree
        adding = any(d.action in ("ADD", "EDIT") for d in drafts)
        changes: list[dict[str, Any]] = []
        if adding and (team is None or team.index is None):
            changes.append(
                {"op": "write_file", "file": self.index, "content": NEW_TEAM_INDEX, "create_only": True}
            )
        holds = team is not None and bool(team_units(team))
        if (adding or holds) and not imports_team(self.snapshot.project_claude_md):
            claude_md = str(self.snapshot.settings.layout.project_claude_md)
            changes.append(
                {"op": "add_entry", "file": claude_md, "section": IMPORT_SECTION, "text": IMPORT_ENTRY}
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
        why = "one `@` line makes Claude Code load the team index in every clone; applied with any entry"
        return self._draft("ADD", what, "", changes, why, category=SETUP)

    def _draft(
        self,
        action: str,
        summary: str,
        section: str,
        changes: list[dict[str, Any]],
        why: str,
        *,
        category: str = "SHARE",
    ) -> Draft:
        return Draft(
            action=action,
            summary=summary,
            layer=LAYER,
            file=self.index,
            section=section,
            rationale=why,
            category=category,
            confidence=1.0,
            sources=["share"],
            changes=changes,
        )


def _same_but_dates(current: str, new: str) -> bool:
    """The same copy apart from its `updated:` stamp: nothing to propose."""

    def strip(text: str) -> str:
        return "\n".join(line for line in text.splitlines() if not line.strip().startswith("updated:"))

    return strip(current) == strip(new)


def _section(unit: MemoryUnit) -> str:
    return unit.section or "Learnings"
