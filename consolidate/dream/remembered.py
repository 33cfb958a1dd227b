"""What is already remembered, as whole entries: the unit of deduplication and of the agents' task.

An index or cluster entry is its pointer line plus the topic files it links to (their body and
description); a topic file no entry links to stands alone; a CLAUDE.md rule is one block — a list item,
or a paragraph with the code that follows it — under its heading, on L0 or L1, imported files included.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..discover.units import markdown_blocks
from .orient import Snapshot


@dataclass(frozen=True)
class Remembered:
    layer: str  # L0, L1, L2 (index), L2c (cluster), L3 (a topic file no entry links to)
    file: str  # memory-relative, or the absolute path of a CLAUDE.md (or a file it imports)
    section: str
    text: str  # the entry as written: a pointer line, a CLAUDE.md block, a topic file's body
    topics: tuple[str, ...] = ()  # the topic files the entry links to
    body: str = ""  # their text, frontmatter left out

    @property
    def whole(self) -> str:
        """Everything the entry says: what is compared with a candidate."""
        return f"{self.text}\n{self.body}".strip()


def remembered(snapshot: Snapshot) -> list[Remembered]:
    """Every remembered entry on every layer, index entries first."""
    found: list[Remembered] = []
    linked: set[str] = set()
    for name, file in sorted(snapshot.tree.files.items(), key=lambda kv: (not kv[1].is_index, kv[0])):
        if file.document is None or file.is_topic:
            continue
        layer = "L2" if file.is_index else "L2c"
        for entry in file.document.entries():
            targets = [snapshot.tree.resolve_link(name, link.file) for link in entry.links]
            topics = tuple(dict.fromkeys(t for t in targets if t and _is_topic(snapshot, t)))
            linked.update(topics)
            found.append(
                Remembered(
                    layer,
                    name,
                    entry.section,
                    entry.text,
                    topics,
                    "\n\n".join(topic_body(snapshot, t) for t in topics),
                )
            )
    for name in snapshot.tree.topic_files():
        if name not in linked:
            found.append(Remembered("L3", name, "", topic_body(snapshot, name)))
    for layer, path, text in claude_md_files(snapshot):
        found.extend(Remembered(layer, str(path), section, block) for section, block in markdown_blocks(text))
    return found


def claude_md_files(snapshot: Snapshot) -> list[tuple[str, Path, str]]:
    """(layer, path, text) of both CLAUDE.md files and every file they import."""
    layout = snapshot.settings.layout
    files = [
        ("L0", layout.user_claude_md, snapshot.user_claude_md),
        ("L1", layout.project_claude_md, snapshot.project_claude_md),
    ]
    files += snapshot.imports
    return [(layer, path, text) for layer, path, text in files if text.strip()]


def _is_topic(snapshot: Snapshot, name: str) -> bool:
    file = snapshot.tree.files.get(name)
    return file is not None and file.is_topic


def topic_body(snapshot: Snapshot, name: str) -> str:
    """A topic file's text without its frontmatter."""
    file = snapshot.tree.files.get(name)
    if file is None or file.document is None:
        return ""
    return "".join(b.text for b in file.document.blocks if b.kind != "frontmatter").strip()


def topic_description(snapshot: Snapshot, name: str) -> str:
    file = snapshot.tree.files.get(name)
    matter = file.document.frontmatter if file is not None and file.document is not None else None
    return (matter.description or matter.name or "") if matter is not None else ""
