"""Phase 1, orient: read everything once and record what the plan is made from.

The snapshot holds the memory tree, both CLAUDE.md files, the recent git log, the verification targets
the memories name, and a content hash of every file read — apply refuses a plan whose files changed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from memory_layout import INDEX, Entry, MemoryTree, load_memory_tree
from memory_layout.document import MAX_DOCUMENT_BYTES

from ..discover.units import rule_lines
from ..fsutil import ABSENT, atomic_write, digest_file, read_regular
from ..gitrepo import GitRepo
from ..imports import imported_texts
from ..settings import Settings
from ..team.layer import LAYER, known_texts, load_team

NEW_INDEX = "# Project Memory\n"
_TARGET = re.compile(r"`([^`\n]{2,120})`|(?<![\w/.])((?:[\w.-]+/)+[\w.-]+\.\w{1,8})\b")


@dataclass(frozen=True)
class KnownEntry:
    """One thing already remembered, on any layer, for deduplication."""

    layer: str  # L0, L1, L2 (index), L2c (cluster), L3 (topic), team (the team memory folder)
    file: str
    text: str


@dataclass
class Snapshot:
    settings: Settings
    tree: MemoryTree
    created_index: bool  # MEMORY.md does not exist yet: the first applied proposal creates it
    hashes: dict[str, str]
    user_claude_md: str
    project_claude_md: str
    git_log: list[str]
    targets: list[str] = field(default_factory=list)
    known: list[KnownEntry] = field(default_factory=list)
    team: MemoryTree | None = None  # the repository's team memory folder, when it has one
    # (L0 or L1, a file that CLAUDE.md imports): read for deduplication, never written
    imports: list[tuple[str, Path, str]] = field(default_factory=list)

    @property
    def memory_dir(self) -> Path:
        return self.settings.memory_dir

    @property
    def auditor_skipped(self) -> bool:
        """Nothing to audit: MEMORY.md was just created and the project has no CLAUDE.md."""
        return self.created_index and not self.settings.layout.project_claude_md.is_file()

    @cached_property
    def pointers_to(self) -> dict[str, list[tuple[str, Entry]]]:
        """For each memory file, the index and cluster entries that link to it."""
        found: dict[str, list[tuple[str, Entry]]] = defaultdict(list)
        for name, file in self.tree.files.items():
            if file.document is None or file.is_topic:
                continue
            for entry in file.document.entries():
                targets = {self.tree.resolve_link(name, link.file) for link in entry.links}
                for target in targets - {None}:
                    found[str(target)].append((name, entry))
        return dict(found)


def _read_text(path: Path) -> str:
    try:
        return read_regular(path, MAX_DOCUMENT_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""


def verification_targets(texts: list[str], limit: int = 200) -> list[str]:
    """Paths, symbols and commands the memories name (backticked items and path-like words)."""
    found: dict[str, None] = {}
    for text in texts:
        for match in _TARGET.finditer(text):
            found[(match.group(1) or match.group(2)).strip()] = None
            if len(found) >= limit:
                return list(found)
    return list(found)


def known_entries(
    tree: MemoryTree,
    user_md: str,
    project_md: str,
    user_path: Path,
    project_path: Path,
    layer_dirs: tuple[Path, ...] = (),
) -> list[KnownEntry]:
    """Every entry memory holds, by layer; what a CLAUDE.md imports counts as that CLAUDE.md's, except
    files of a folder read as a layer of its own (`layer_dirs`: the team memory)."""
    known: list[KnownEntry] = []
    for name, file in sorted(tree.files.items()):
        if file.document is None:
            continue
        layer = "L2" if file.is_index else "L2c" if file.is_cluster else "L3"
        if file.is_topic:
            known.append(KnownEntry(layer, name, file.document.render()))
        else:
            known.extend(KnownEntry(layer, name, entry.text) for entry in file.document.entries())
    for layer, text, path in (("L0", user_md, user_path), ("L1", project_md, project_path)):
        imported = [(p, t) for p, t in imported_texts(path) if not _inside(p, layer_dirs)] if text else []
        for source, content in [(path, text), *imported]:  # what a CLAUDE.md imports is remembered too
            known.extend(
                KnownEntry(layer, str(source), line.strip())
                for line in rule_lines(content)  # never a line a fence quotes (a message template)
                if len(line.strip()) > 8
            )
    return known


def claude_md_imports(
    user_path: Path, user_md: str, project_path: Path, project_md: str, layer_dirs: tuple[Path, ...] = ()
) -> list[tuple[str, Path, str]]:
    """(layer, file, text) of what each CLAUDE.md `@`-imports (read for deduplication, never written),
    files of a folder read as a layer of its own left out."""
    return [
        (layer, imported, content)
        for layer, path, text in (("L0", user_path, user_md), ("L1", project_path, project_md))
        if text
        for imported, content in imported_texts(path)
        if not _inside(imported, layer_dirs)
    ]


def _inside(path: Path, folders: tuple[Path, ...]) -> bool:
    resolved = path.resolve()
    return any(resolved.is_relative_to(folder.resolve()) for folder in folders)


def _encodable(name: str) -> bool:
    """A file name that is not valid UTF-8 cannot go into a plan; such a file is only read, never changed."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def create_index(settings: Settings, index: Path) -> None:
    """Write a new MEMORY.md as a journaled run of its own, so that `consolidate undo` removes it
    even when the dream fails (or is killed) right after."""
    from ..journal import COMPLETE, Journal
    from ..runs import journal_dir

    data = NEW_INDEX.encode()
    journal = Journal.begin(journal_dir(settings), {index: data}, "created MEMORY.md")
    atomic_write(index, data)
    journal.mark(COMPLETE)


def orient(settings: Settings, *, create: bool = False) -> Snapshot:
    """Read the memory dir, both CLAUDE.md files and git. Nothing is written: a missing MEMORY.md is
    created by the first proposal applied to it (`create` only for callers that want it now, as a
    journaled run of its own)."""
    layout = settings.layout
    index = layout.memory_dir / INDEX
    created = not index.exists()
    if created and create:
        create_index(settings, index)
    tree = load_memory_tree(layout.memory_dir)
    hashes = {
        name: file.digest
        for name, file in sorted(tree.files.items())
        if file.error is None and _encodable(name)
    }
    hashes.setdefault(INDEX, digest_file(index))
    user_md, project_md = _read_text(layout.user_claude_md), _read_text(layout.project_claude_md)
    for path in (layout.user_claude_md, layout.project_claude_md):
        try:
            hashes[str(path)] = digest_file(path) if path.exists() else ABSENT
        except OSError:
            continue  # a FIFO or an unreadable file: read as empty, and a change to it fails alone
    repo = GitRepo.find(layout.git_root or layout.project)
    git_log = repo.recent(20) if repo is not None else []
    texts = [f.document.render() for f in tree.files.values() if f.document is not None]
    team = load_team(layout)
    teams = (layout.team_dir,) if layout.team_dir else ()
    imports = claude_md_imports(layout.user_claude_md, user_md, layout.project_claude_md, project_md, teams)
    known = known_entries(tree, user_md, project_md, layout.user_claude_md, layout.project_claude_md, teams)
    if team is not None:  # the team layer: read for dedup and audit, written only through a plan
        hashes.update(
            {str(team.root / n): f.digest for n, f in sorted(team.files.items()) if f.error is None}
        )
        known += [KnownEntry(LAYER, file, text) for file, text in known_texts(team)]
    return Snapshot(
        settings,
        tree,
        created,
        hashes,
        user_md,
        project_md,
        git_log,
        targets=verification_targets(texts),
        known=known,
        team=team,
        imports=imports,
    )
