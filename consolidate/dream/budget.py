"""Synthesis (c): an index over what Claude Code loads (200 lines, 25,000 bytes) is never "consistent".
Once retirements and clusters are counted, the largest sections move into topic files behind trigger
pointers (their heading stays, with one pointer), then the longest entries do, until the index fits with
room to spare. Every moved line is kept verbatim in the topic file; when nothing more can move, the plan
says so plainly."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from memory_layout import INDEX, Document, Entry, parse_document, render_frontmatter
from memory_layout.document import Block, split_lines
from memory_layout.health import BUDGET_BYTES, BUDGET_LINES, MAX_ENTRY_CHARS, measure_index
from memory_layout.pointers import trigger_pointer

from ..plan import ACTION_ORDER
from ..secrets import has_secret
from .drafts import Draft, document
from .orient import Snapshot
from .pointers_text import pointer_takeaway, pointer_topic
from .pressure import slug
from .projection import projected_index

MARGIN_LINES, MARGIN_BYTES = 20, 2_000  # room for what the next runs add
TARGET_LINES, TARGET_BYTES = BUDGET_LINES - MARGIN_LINES, BUDGET_BYTES - MARGIN_BYTES
MIN_SAVING_LINES = 3


@dataclass
class _Candidate:
    heading: str  # the heading line ("" for the text before the first heading)
    occurrence: int
    title: str
    blocks: list[Block]  # what moves (the heading excluded)
    keep: list[str]  # entries other proposals still change in the index

    @property
    def moved_text(self) -> str:
        keep = set(self.keep)
        return "".join(b.text for b in self.blocks if not (b.kind == "entry" and _same(b.text) in keep))

    @property
    def is_rules(self) -> bool:
        """Mostly list items: rules every session should see, the last thing to move out."""

        def lines(text: str) -> int:
            return sum(1 for line in split_lines(text) if line.strip())

        entries = sum(lines(b.text) for b in self.blocks if b.kind == "entry")
        return entries >= 0.5 * max(1, lines(self.moved_text))

    def saving(self) -> tuple[int, int]:
        """Lines and bytes the index loses: what moves, less the pointer line that replaces it."""
        text = self.moved_text
        return len(split_lines(text)) - 2, len(text.encode()) - 160


def budget_drafts(snapshot: Snapshot, drafts: list[Draft]) -> tuple[list[Draft], list[str]]:
    """Moves that bring MEMORY.md within budget once `drafts` are applied, and a note when they cannot."""
    if document(snapshot, INDEX) is None or _fits_anyway(snapshot, drafts):
        return [], []
    after = measure_index(projected_index(snapshot, drafts))
    if after.lines <= BUDGET_LINES and after.bytes <= BUDGET_BYTES:
        return [], []
    # The index as the moves will find it: retirements and clusters come first in apply order,
    # additions and edits after (so an entry an EDIT rewrites is still in its old words here).
    earlier = [d for d in drafts if ACTION_ORDER[d.action] <= ACTION_ORDER["CLUSTER"]]
    projected = parse_document(projected_index(snapshot, earlier).decode("utf-8", "replace"))
    touched = _touched(drafts, document(snapshot, INDEX))
    names = {n.casefold() for n in snapshot.tree.files} | {"memory.md"}
    moves: list[Draft] = []
    lines, size = after.lines, after.bytes
    moved: set[int] = set()
    for candidate in _candidates(projected, touched):
        if lines <= TARGET_LINES and size <= TARGET_BYTES:
            break
        saved_lines, saved_bytes = candidate.saving()
        if saved_lines < MIN_SAVING_LINES and saved_bytes < 400:
            continue
        moves.append(_move(candidate, names, after.lines, after.bytes))
        moved.update(id(b) for b in candidate.blocks)
        lines, size = lines - saved_lines, size - saved_bytes
    current = {_same(e.text) for e in document(snapshot, INDEX).entries()}  # type: ignore[union-attr]
    stays = [e for e in projected.entries() if id(e.block) not in moved and _same(e.text) in current]
    moves += _long_entries(stays, touched, names, (lines, size), (after.lines, after.bytes))
    final = measure_index(projected_index(snapshot, drafts + moves))
    notes = []
    if final.lines > BUDGET_LINES or final.bytes > BUDGET_BYTES:
        notes.append(
            f"over budget: MEMORY.md is {after.lines} lines / {after.bytes:,} bytes and would still be "
            f"{final.lines} lines / {final.bytes:,} bytes after this plan (Claude Code loads "
            f"{BUDGET_LINES} lines / {BUDGET_BYTES:,} bytes and drops the rest): what is left is in no "
            "section that can move — split it under headings, or apply this plan and dream again"
        )
    return moves, notes


def _fits_anyway(snapshot: Snapshot, drafts: list[Draft]) -> bool:
    """Within budget however the drafts are applied: the index now, plus everything they could add to
    it (no need to run them all to know)."""
    index = snapshot.tree.files[INDEX].data
    now = measure_index(index)
    added = [c for d in drafts for c in d.changes if c.get("file") == INDEX and c["op"] != "drop_entry"]
    more_lines = sum(
        len(split_lines(str(c.get("text") or c.get("new") or c.get("pointer") or ""))) + 2 for c in added
    )
    more_bytes = sum(
        len(str(c.get("text") or c.get("new") or c.get("pointer") or "").encode()) + 80 for c in added
    )
    return now.lines + more_lines <= BUDGET_LINES and now.bytes + more_bytes <= BUDGET_BYTES


def _touched(drafts: list[Draft], current: Document | None) -> dict[str, set[str]]:
    """What other proposals change in MEMORY.md: entries they edit (which must stay), sections they
    cluster, and the headings of sections holding a secret another proposal redacts later."""
    found: dict[str, set[str]] = {"edited": set(), "sections": set(), "secrets": set()}
    for draft in drafts:
        for change in draft.changes:
            if change.get("file") != INDEX:
                continue
            if change["op"] in ("replace_entry", "replace_text"):
                found["edited"].add(_same(change["old"]))
            elif change["op"] == "cluster_section":
                found["sections"].add(change["section"].casefold())
            elif change["op"] == "redact_secrets" and current is not None:
                found["secrets"] = _secret_headings(current)
    return found


def _secret_headings(doc: Document) -> set[str]:
    """Every heading (and "" for the text before the first) whose section holds a secret."""
    found: set[str] = set()
    heads: list[tuple[int, str]] = []  # the open headings: (level, line)
    for block in doc.blocks:
        if block.kind == "heading":
            heads = [h for h in heads if h[0] < block.level] + [(block.level, block.text.strip())]
        elif has_secret(block.text):
            found.update([h for _, h in heads] or [""])
    return found


def _candidates(doc: Document, touched: dict[str, set[str]]) -> list[_Candidate]:
    """Sections at the level the document is divided at, largest first; a section that cannot move
    whole offers its subsections instead."""
    level = _division_level(doc)
    found = [c for c in _sections(doc, level, touched) if c is not None]
    found.sort(key=lambda c: (c.is_rules, -len(c.moved_text.encode())))
    return found


def _division_level(doc: Document) -> int:
    levels = [b.level for b in doc.blocks if b.kind == "heading"]
    repeated = sorted({lv for lv in levels if levels.count(lv) > 1})
    return repeated[0] if repeated else (min(levels) if levels else 0)


def _sections(
    doc: Document, level: int, touched: dict[str, set[str]], lo: int = 0, hi: int | None = None
) -> list[_Candidate | None]:
    """Sections at `level` among blocks [lo, hi); one that cannot move whole offers its subsections.
    A heading's occurrence is counted over the whole document, as the change finds it."""
    hi = len(doc.blocks) if hi is None else hi
    headings = [i for i in range(lo, hi) if doc.blocks[i].kind == "heading" and doc.blocks[i].level == level]
    if not headings and lo == 0:
        span = doc.section_span("")
        return [_candidate(doc, "", 1, "notes", span, touched)] if span else []
    result: list[_Candidate | None] = []
    for index in headings:
        block = doc.blocks[index]
        heading = block.text.strip()
        occurrence = sum(
            1 for b in doc.blocks[: index + 1] if b.kind == "heading" and b.text.strip() == heading
        )
        span = doc.section_span(heading, occurrence)
        result.append(_candidate(doc, heading, occurrence, block.title, span, touched))
        if result[-1] is None and span is not None and level < 6:
            result += _sections(doc, level + 1, touched, span[0] + 1, span[1])
    return result


def _candidate(
    doc: Document,
    heading: str,
    occurrence: int,
    title: str,
    span: tuple[int, int] | None,
    touched: dict[str, set[str]],
) -> _Candidate | None:
    if span is None or title.casefold() in touched["sections"]:
        return None
    blocks = doc.blocks[span[0] + (1 if heading else 0) : span[1]]
    text = "".join(b.text for b in blocks)
    if not text.strip() or heading in touched["secrets"] or (not heading and "" in touched["secrets"]):
        return None
    keep = [_same(b.text) for b in blocks if b.kind == "entry" and _same(b.text) in touched["edited"]]
    return _Candidate(heading, occurrence, title or "notes", blocks, keep)


def _move(candidate: _Candidate, names: set[str], lines: int, size: int) -> Draft:
    file = _unique(slug(candidate.title)[:50] or "notes", names)
    text = candidate.moved_text
    takeaway = pointer_takeaway(candidate.title, text)
    label = re.sub(r"[\[\]]", "", candidate.title)[:60] or "detail"
    pointer = "- " + trigger_pointer(pointer_topic(candidate.title), takeaway, file, label=label)
    matter = render_frontmatter({"name": candidate.title[:60], "description": takeaway, "type": "reference"})
    moved = len(split_lines(text))
    change = {
        "op": "move_section",
        "file": INDEX,
        "heading": candidate.heading,
        "occurrence": candidate.occurrence,
        "topic_file": file,
        "pointer": pointer,
        "frontmatter": matter,
        "keep": candidate.keep,
    }
    summary = f"move “{candidate.title}” ({moved} lines) into {file}"
    return _budget_draft(summary, candidate.title, _why(lines, size), 0.9, [change])


def _budget_draft(
    summary: str, section: str, rationale: str, confidence: float, changes: list[dict[str, Any]]
) -> Draft:
    return Draft(
        action="CLUSTER",
        summary=summary,
        layer="L3",
        file=INDEX,
        section=section,
        rationale=rationale,
        category="HYGIENE",
        confidence=confidence,
        sources=["synthesis"],
        changes=changes,
        reason="over-budget",
    )


def _long_entries(
    stays: list[Entry],
    touched: dict[str, set[str]],
    names: set[str],
    now: tuple[int, int],
    before: tuple[int, int],
) -> list[Draft]:
    """The longest entries that stay in the index (and that no other proposal changes), each into a
    topic file behind a trigger pointer, until the index fits."""
    drafts: list[Draft] = []
    lines, size = now
    entries = sorted(
        (e for e in stays if len(e.text) > MAX_ENTRY_CHARS and _same(e.text) not in touched["edited"]),
        key=lambda e: -len(e.text),
    )
    for entry in entries:
        if lines <= TARGET_LINES and size <= TARGET_BYTES:
            break
        if has_secret(entry.text):
            continue
        file = _unique(slug(entry.section or "notes")[:30] + "_" + slug(entry.headline)[:30], names)
        takeaway = pointer_takeaway(entry.section, entry.content)
        pointer = trigger_pointer(pointer_topic(entry.section or "this project"), takeaway, file)
        matter = render_frontmatter({"name": takeaway[:60], "description": takeaway, "type": "reference"})
        changes: list[dict[str, Any]] = [
            {
                "op": "write_file",
                "file": file,
                "content": matter + entry.content.strip() + "\n",
                "create_only": True,
            },
            {"op": "replace_entry", "file": INDEX, "old": entry.text, "new": f"- {pointer}"},
        ]
        summary = f"move a {len(entry.text)}-character entry into {file}"
        drafts.append(_budget_draft(summary, entry.section, _why(*before), 0.85, changes))
        size -= len(entry.text.encode()) - len(pointer.encode())
        lines -= len(split_lines(entry.block.text)) - 1
    return drafts


def _why(lines: int, size: int) -> str:
    return (
        f"MEMORY.md is {lines} lines / {size:,} bytes after this plan's other changes; Claude Code loads "
        f"only the first {BUDGET_LINES} lines / {BUDGET_BYTES:,} bytes and silently drops the rest. The "
        "moved text is kept word for word in the topic file, behind a pointer that says when to read it"
    )


def _unique(stem: str, names: set[str]) -> str:
    name, number = f"{stem}.md", 2
    while name.casefold() in names:
        name, number = f"{stem}-{number}.md", number + 1
    names.add(name.casefold())
    return name


def _same(text: str) -> str:
    return " ".join(text.split())
