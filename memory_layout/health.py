"""Health checks of a memory dir: the index budget, pointer defects, orphans, crowded sections."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .pointers import EntryKind, find_links
from .tree import INDEX, MemoryTree

BUDGET_LINES = 200
BUDGET_BYTES = 25_000
MAX_ENTRY_CHARS = 150
MAX_SECTION_ENTRIES = 25


@dataclass(frozen=True)
class Defect:
    kind: str  # over-budget-lines | over-budget-bytes | long-entry | bare-pointer | dangling-pointer
    #            | orphan-topic | crowded-section | broken-frontmatter | unclosed-fence | unreadable
    file: str
    line: int
    detail: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class IndexBudget:
    lines: int
    bytes: int
    budget_lines: int = BUDGET_LINES
    budget_bytes: int = BUDGET_BYTES

    @property
    def over_budget(self) -> bool:
        return self.lines > self.budget_lines or self.bytes > self.budget_bytes

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "over_budget": self.over_budget}


def measure_index(data: bytes) -> IndexBudget:
    """Lines and bytes of MEMORY.md as Claude Code counts them."""
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return IndexBudget(lines, len(data))


def check_tree(tree: MemoryTree) -> list[Defect]:
    """Every defect of the tree, ordered by file and line."""
    defects: list[Defect] = []
    index = tree.index
    if index is not None:
        budget = measure_index(index.data)
        if budget.lines > BUDGET_LINES:
            defects.append(
                Defect(
                    "over-budget-lines",
                    INDEX,
                    BUDGET_LINES + 1,
                    f"{budget.lines} lines; Claude Code loads the first {BUDGET_LINES}",
                )
            )
        if budget.bytes > BUDGET_BYTES:
            defects.append(
                Defect(
                    "over-budget-bytes",
                    INDEX,
                    0,
                    f"{budget.bytes} bytes; Claude Code loads at most {BUDGET_BYTES}",
                )
            )
    for path, file in sorted(tree.files.items()):
        if file.error:
            defects.append(Defect("unreadable", path, 0, file.error))
            continue
        doc = file.document
        assert doc is not None
        for warning in doc.warnings:
            kind = "broken-frontmatter" if warning.startswith("broken frontmatter") else "unclosed-fence"
            defects.append(Defect(kind, path, 1, warning))
        if file.is_topic:
            continue
        defects.extend(_check_index_like(tree, path))
    for path, reason in sorted(tree.skipped.items()):
        defects.append(Defect("unreadable", path, 0, reason))
    defects.extend(_orphans(tree))
    return sorted(defects, key=lambda d: (d.file, d.line, d.kind))


def _check_index_like(tree: MemoryTree, path: str) -> list[Defect]:
    doc = tree.files[path].document
    assert doc is not None
    found: list[Defect] = []
    for section in doc.sections() if path == INDEX else []:
        if len(section.entries) > MAX_SECTION_ENTRIES:
            found.append(
                Defect(
                    "crowded-section",
                    path,
                    section.line,
                    f"section '{section.name}' has {len(section.entries)} entries (> {MAX_SECTION_ENTRIES}): cluster it",
                )
            )
    for entry in doc.entries():
        pointer = entry.pointer
        if len(entry.headline) > MAX_ENTRY_CHARS:
            found.append(
                Defect(
                    "long-entry", path, entry.line, f"{len(entry.headline)} characters (> {MAX_ENTRY_CHARS})"
                )
            )
        if pointer.kind is EntryKind.BARE:
            found.append(
                Defect(
                    "bare-pointer",
                    path,
                    entry.line,
                    f"'{entry.headline[:80]}' names a file but not when to open it",
                )
            )
        for link in pointer.links:
            if tree.resolve_link(path, link.file) is None:
                found.append(Defect("dangling-pointer", path, entry.line, f"{link.file} does not exist"))
    return found


def linked_files(tree: MemoryTree) -> set[str]:
    """Files reachable by links from MEMORY.md (through clusters and topic files)."""
    seen: set[str] = set()
    pending = [INDEX] if INDEX in tree.files else []
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        doc = tree.files[current].document if current in tree.files else None
        if doc is None:
            continue
        for link in find_links(doc.render()):
            target = tree.resolve_link(current, link.file)
            if target and target in tree.files and target not in seen:
                pending.append(target)
    return seen


def _orphans(tree: MemoryTree) -> list[Defect]:
    if tree.index is None:
        return []
    reachable = linked_files(tree)
    return [
        Defect("orphan-topic", path, 0, "no pointer in MEMORY.md or a cluster file leads here")
        for path in tree.topic_files() + tree.cluster_files()
        if path not in reachable
    ]
