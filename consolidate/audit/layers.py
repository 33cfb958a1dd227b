"""The layers an audit reads beside the memory dir: the project's CLAUDE.md (L1) and the user's (L0),
each with what it imports through `@path`, and the per-file counts of what was audited and found."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..imports import resolve_imports
from ..models import AuditedFile, Finding
from .units import Source, Unit, claude_md_units

_LAYERS = {"index": "L2", "cluster": "L2c", "topic": "L3", "project-claude": "L1", "user-claude": "L0"}


@dataclass
class ClaudeLayers:
    project: list[Unit] = field(default_factory=list)  # L1 and its imports: checked against the project
    user: list[Unit] = field(default_factory=list)  # L0 and its imports: references, secrets, dates
    files: list[AuditedFile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_claude_layers(
    project_claude_md: Path | None,
    user_claude_md: Path | None,
    project_root: Path | None,
    skip: list[Path] | None = None,
) -> ClaudeLayers:
    """Units of both CLAUDE.md files and of every file they import (within the repository or the
    Claude config dir, and not under a `skip` folder such as the team memory), in reading order."""
    layers = ClaudeLayers()
    claude_home = user_claude_md.parent if user_claude_md is not None else None
    allowed = [p for p in (project_root, claude_home) if p is not None]
    sources: list[tuple[Path | None, Source]] = [
        (project_claude_md, "project-claude"),
        (user_claude_md, "user-claude"),
    ]
    for path, source in sources:
        if path is None:
            continue
        target = layers.project if source == "project-claude" else layers.user
        base = project_root if source == "project-claude" else None
        chain = [(path, "")] + [(i.path, str(i.by)) for i in resolve_imports(path, allowed, skip=skip or [])]
        for file, by in chain:
            units = _units(file, source, base, layers.notes)
            if units is None:
                continue
            target.extend(units)
            name = "L1" if source == "project-claude" else "L0"
            layers.files.append(AuditedFile(file=str(file), layer=name, imported_by=by, units=len(units)))
    return layers


def _units(path: Path, source: Source, base: Path | None, notes: list[str]) -> list[Unit] | None:
    units, problem = claude_md_units(path, source)
    if problem:
        notes.append(problem)
        return None
    if not units and not path.exists():
        return None
    folder = _relative_folder(path, base)
    for unit in units:
        unit.links_base = folder
    return units


def _relative_folder(path: Path, root: Path | None) -> str | None:
    """The file's folder from the project root ('' at the root); None outside the project."""
    if root is None:
        return None
    try:
        relative = Path(os.path.realpath(path.parent)).relative_to(os.path.realpath(root))
    except ValueError:
        return None
    return "" if str(relative) == "." else relative.as_posix()


def memory_files(units: list[Unit]) -> list[AuditedFile]:
    counts = Counter(u.file for u in units)
    layer = {u.file: _LAYERS[u.source] for u in units}
    return [AuditedFile(file=f, layer=layer[f], units=n) for f, n in counts.items()]


def count_findings(files: list[AuditedFile], findings: list[Finding]) -> list[AuditedFile]:
    """Each file with the number of findings about it; a finding about a file no unit came from
    (a whole-file finding) adds that file, so the counts always add up to the findings."""
    by_file = Counter(f.file for f in findings)
    known = {f.file for f in files}
    extra = [AuditedFile(file=name, layer=_layer_of(name)) for name in by_file if name not in known]
    result = files + extra
    for item in result:
        item.findings = by_file.get(item.file, 0)
    return result


def _layer_of(name: str) -> str:
    if Path(name).is_absolute():
        return ""
    return "L2" if name == "MEMORY.md" else "L2c" if name.startswith("clusters/") else "L3"
