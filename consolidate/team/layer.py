"""The team memory folder as a memory layer: `.claude/team-memory/` in the repository, an index in
trigger-pointer form plus topic files that carry their provenance, and the one `@` line of the project
CLAUDE.md that makes Claude Code load the index in every clone.

The folder is found through git (this checkout's root), never through a remembered path, so a second
clone or a linked worktree finds its own copy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from memory_layout import INDEX, TEAM_DIR, Document, Entry, MemoryTree, ProjectLayout, load_memory_tree

LAYER = "team"  # the layer's name in plans, the dream's known entries and `status`
IMPORT_TARGET = f"{TEAM_DIR}/{INDEX}"
IMPORT_SECTION = "Team memory"
IMPORT_ENTRY = (
    f"What the team learned, shared through git; its topic files sit beside it in `{TEAM_DIR}/`: "
    f"@{IMPORT_TARGET}"
)
NEW_TEAM_INDEX = (
    "# Team Memory\n\n"
    "What this project's team learned, shared with `consolidate share` and reviewed like code. Each entry "
    f"says when to open its topic file; the topic files sit beside this index in `{TEAM_DIR}/`.\n"
)
_IMPORT = re.compile(r"(?<![\w`@./-])@(?:\./)?" + re.escape(IMPORT_TARGET) + r"(?![\w./-])")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)[^`\n]+?\1")


@dataclass(frozen=True)
class TeamUnit:
    """One shared learning: an index entry and the topic files it points to (folder-relative)."""

    entry: Entry
    topics: tuple[str, ...]

    @property
    def section(self) -> str:
        return self.entry.section


def load_team(layout: ProjectLayout) -> MemoryTree | None:
    """The team folder, read once; None when the project has none (or is not in git)."""
    folder = layout.team_dir
    if folder is None or not folder.is_dir():
        return None
    return load_memory_tree(folder)


def imports_team(claude_md: str) -> bool:
    """Whether a CLAUDE.md text imports the team index with `@` (outside code, where Claude Code
    would not follow it)."""
    masked = _CODE_SPAN.sub(" ", _FENCE.sub(" ", claude_md))
    return bool(_IMPORT.search(masked))


def team_units(tree: MemoryTree) -> list[TeamUnit]:
    """Every entry of the team index with the topic files its links reach, in index order."""
    index = tree.index
    if index is None or index.document is None:
        return []
    units = []
    for entry in index.document.entries():
        topics = [tree.resolve_link(INDEX, link.file) for link in entry.links]
        units.append(TeamUnit(entry, tuple(dict.fromkeys(t for t in topics if t and t in tree.files))))
    return units


def body_of(document: Document) -> str:
    """A topic file's text without its frontmatter."""
    return "".join(block.text for block in document.blocks if block.kind != "frontmatter")


def provenance_of(document: Document | None) -> dict[str, Any]:
    """The `provenance:` mapping of a topic file's frontmatter ({} when there is none)."""
    matter = document.frontmatter if document is not None else None
    value = matter.data.get("provenance") if matter is not None and not matter.error else None
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def unit_text(tree: MemoryTree, unit: TeamUnit) -> str:
    """An entry with its topic files, compared as one text (an entry is its pointer and its file)."""
    parts = [unit.entry.text]
    for topic in unit.topics:
        document = tree.files[topic].document
        if document is not None:
            parts.append(body_of(document))
    return "\n".join(parts)


def known_texts(tree: MemoryTree) -> list[tuple[str, str]]:
    """(absolute file, text) of everything the team shares: each entry with its topic files, and
    each topic file alone — what the dream deduplicates new learnings against."""
    found = [(str(tree.root / INDEX), unit_text(tree, unit)) for unit in team_units(tree)]
    for name, file in sorted(tree.files.items()):
        if file.is_topic and file.document is not None:
            found.append((str(tree.root / name), file.document.render()))
    return found


def team_status(layout: ProjectLayout) -> dict[str, Any] | None:
    """The team layer as `status` shows it: its size against the index budget, who shared, whether
    CLAUDE.md imports it, its defects. None outside git."""
    from memory_layout import check_tree, measure_index

    folder = layout.team_dir
    if folder is None:
        return None
    claude_md = layout.project_claude_md
    imported = (
        imports_team(claude_md.read_text(encoding="utf-8", errors="replace"))
        if claude_md.is_file()
        else False
    )
    tree = load_team(layout)
    status: dict[str, Any] = {"dir": str(folder), "exists": tree is not None, "imported": imported}
    if tree is None:
        return status
    sharers = {provenance_of(f.document).get("shared_by") for f in tree.files.values() if f.is_topic}
    status.update(
        entries=len(team_units(tree)),
        topic_files=len(tree.topic_files()),
        index=measure_index(tree.index.data if tree.index else b"").to_dict(),
        sharers=sorted(str(s) for s in sharers if s),
        defects=[d.to_dict() for d in check_tree(tree)],
    )
    return status
