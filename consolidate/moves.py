"""The `move_section` change: a section of an index goes into a new topic file, verbatim, and the index
keeps its heading and one trigger pointer to it (plus the entries other proposals still need there).
This is how an index over what Claude Code loads is brought back within budget without losing a line."""

from __future__ import annotations

from pathlib import Path

from .plan import MoveSection
from .workspace import ChangeFailed, Workspace


def move_section(ws: Workspace, change: MoveSection, index_path: Path, topic_path: Path) -> list[str]:
    """Make the move in the workspace; returns the new index lines to check for links."""
    doc = ws.document(index_path, create=False)
    span = doc.section_span(change.heading, change.occurrence)
    if span is None:
        raise ChangeFailed(
            f"section {change.heading or '(before the first heading)'!r} not found in {change.file}"
        )
    start, end = span
    first = start + 1 if change.heading else start  # the heading stays in the index
    body = doc.blocks[first:end]
    keep = {_same(text) for text in change.keep}
    kept = [b for b in body if b.kind == "entry" and _same(b.text) in keep]
    moved = [b for b in body if not any(b is k for k in kept)]
    text = "".join(b.text for b in moved)
    if not text.strip():
        raise ChangeFailed(f"nothing left to move under {change.heading!r} in {change.file}")
    if ws.exists(topic_path):
        raise ChangeFailed(f"{change.topic_file} already exists")
    title = change.heading.lstrip("#").strip()
    heading = f"# {title}\n\n" if title else ""
    ws.write(topic_path, (change.frontmatter + heading + text.lstrip("\r\n")).encode("utf-8"))
    following = end < len(doc.blocks)
    lines = [change.pointer, *[b.text for b in kept]] + (["\n"] if following else [])
    doc.replace_blocks(first, end, lines)
    ws.save(index_path, doc)
    return [change.pointer]


def _same(text: str) -> str:
    return " ".join(text.split())
