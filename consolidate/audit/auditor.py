"""The offline memory auditor: every claim of every memory entry checked against the code and git,
plus duplicates, supersessions, contradictions, relative dates, generic advice, index hygiene and
secrets — as `Finding`s with the evidence and the action to take.

`audit(settings)` is what the dream calls; it never writes anything.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from memory_layout import MemoryTree, load_memory_tree

from ..gitrepo import GitRepo
from ..models import AuditReport
from ..secrets import find_secrets
from ..settings import Settings
from .claims import Claim
from .dates import find_relative_dates, wording
from .drafts import Draft, content_span, finalize, keep_lists_whole
from .hygiene import hygiene_findings
from .layers import count_findings, memory_files, read_claude_layers
from .lowvalue import low_value_findings
from .merge import topic_merges
from .pairs import pair_findings
from .stale import claim_findings
from .units import Unit, memory_units
from .verify import Check, Project, check_claims

Progress = Callable[[int, int], None]
_ORDER = [
    "SECRET",
    "STALE",
    "CONTRADICT",
    "SUPERSEDED",
    "REDUNDANT",
    "MERGE",
    "LOW-VALUE",
    "DATE_FIX",
    "HYGIENE",
]


def audit(
    settings: Settings, *, progress: Progress | None = None, tree: MemoryTree | None = None
) -> AuditReport:
    """Audit the memory dir of `settings` and both CLAUDE.md files (with their imports) against the
    project. `tree` is the memory as already read (the dream's snapshot), so it is not parsed twice."""
    tree = tree if tree is not None else load_memory_tree(settings.layout.memory_dir)
    root = settings.layout.git_root
    repo = GitRepo.find(root) if root is not None else None
    return audit_tree(
        tree,
        project_root=root or settings.layout.project,
        repo=repo,
        user_claude_md=settings.layout.user_claude_md,
        project_claude_md=settings.layout.project_claude_md,
        progress=progress,
        skip_imports=[p for p in [settings.layout.team_dir] if p is not None],
    )


def audit_tree(
    tree: MemoryTree,
    *,
    project_root: Path | None,
    repo: GitRepo | None,
    user_claude_md: Path | None = None,
    project_claude_md: Path | None = None,
    progress: Progress | None = None,
    skip_imports: list[Path] | None = None,
) -> AuditReport:
    """Audit an already loaded memory tree (the CLI, the dream and the benchmarks share this).
    Imports under `skip_imports` (the team memory folder, a layer audited on its own) are not followed."""
    notes = [f"skipped {path}: {reason}" for path, reason in sorted(tree.skipped.items())]
    notes += [f"skipped {p}: {f.error}" for p, f in sorted(tree.files.items()) if f.error]
    if tree.index is None:
        notes.append(f"no MEMORY.md in {tree.root}: only the CLAUDE.md files are audited")
    units = memory_units(tree)
    _date_memory(units, tree.root)
    claude = read_claude_layers(project_claude_md, user_claude_md, project_root, skip_imports)
    notes += claude.notes
    project_units, user_units = claude.project, claude.user
    _date_claude(project_units + user_units, repo)
    report = _progress(progress, len(units) + len(project_units) + len(user_units))
    project = Project(project_root, repo, _memory_excludes(tree.root, repo))
    checked = units + project_units
    checks = check_claims(project, (c for u in checked for c in u.claims))
    report(len(units) // 2)
    drafts = _claim_drafts(checked, checks, _topic_verdicts(units, checks))
    drafts += _date_drafts(checked + user_units) + _secret_drafts(checked + user_units)
    taken: set[int] = set()
    drafts += topic_merges(tree, units, taken)
    known = frozenset(c.value for c, k in checks.items() if c.kind == "version" and k.status != "unknown")
    drafts += pair_findings([u for u in units if id(u) not in taken], project_units + user_units, known)
    drafts += low_value_findings(units) + (
        hygiene_findings(tree, units, project_root) if tree.index is not None else []
    )
    findings = finalize(_dedupe(keep_lists_whole(drafts, units)))
    findings.sort(key=lambda f: (f.file, f.line, _ORDER.index(f.category)))
    files = count_findings(memory_files(units) + claude.files, findings)
    report(len(units) + len(project_units) + len(user_units))
    return AuditReport(
        findings=findings, entries_audited=sum(f.units for f in files), files=files, notes=notes
    )


def _progress(progress: Progress | None, total: int) -> Callable[[int], None]:
    def report(done: int) -> None:
        if progress is not None:
            progress(done, total)

    return report


def _date_memory(units: list[Unit], memory_dir: Path) -> None:
    """Date each unit by git blame of its line when the memory dir is in a repo, else by file mtime."""
    repo = GitRepo.find(memory_dir)
    by_file: dict[str, dict[int, datetime]] = {}
    for unit in units:
        if repo is not None and unit.file not in by_file:
            relative = os.path.relpath(memory_dir / unit.file, repo.root)
            by_file[unit.file] = repo.line_dates(relative)
        _set_date(unit, by_file.get(unit.file, {}), memory_dir / unit.file)


def _date_claude(units: list[Unit], repo: GitRepo | None) -> None:
    """Date CLAUDE.md lines by git blame when the file is in the project's repository, else by mtime."""
    by_file: dict[str, dict[int, datetime]] = {}
    for unit in units:
        if unit.file not in by_file:
            by_file[unit.file] = _blame(repo, Path(unit.file))
        _set_date(unit, by_file[unit.file], Path(unit.file))


def _blame(repo: GitRepo | None, path: Path) -> dict[int, datetime]:
    if repo is None:
        return {}
    relative = os.path.relpath(os.path.realpath(path), os.path.realpath(repo.root))
    return {} if relative.startswith("..") else repo.line_dates(relative)


def _set_date(unit: Unit, line_dates: dict[int, datetime], path: Path) -> None:
    lines = range(unit.line, unit.line + unit.text.count("\n") + 1)
    committed = [line_dates[n] for n in lines if n in line_dates]
    if committed and len(committed) == len(lines):
        unit.date, unit.date_source = max(committed), "git"
        return
    try:
        unit.date, unit.date_source = datetime.fromtimestamp(path.stat().st_mtime, UTC), "mtime"
    except OSError:
        unit.date, unit.date_source = None, ""


def _memory_excludes(memory_dir: Path, repo: GitRepo | None) -> list[str]:
    """Keep the memory's own files out of the code search when they live inside the project."""
    if repo is None:
        return []
    try:
        relative = Path(os.path.realpath(memory_dir)).relative_to(os.path.realpath(repo.root))
    except ValueError:
        return []
    return [f"{relative.as_posix()}/**"] if str(relative) != "." else ["**/*.md"]


def _topic_verdicts(units: list[Unit], checks: dict[Claim, Check]) -> Callable[[str], str]:
    """Per topic file: "stale" when something in it was deleted and nothing in it still holds."""
    statuses: dict[str, set[str]] = {}
    for unit in units:
        if unit.source == "topic":
            statuses.setdefault(unit.file, set()).update(checks[c].status for c in unit.claims if c in checks)
    return lambda path: (
        "stale"
        if {"stale"} <= statuses.get(path, set()) and not statuses[path] & {"valid", "contradicted"}
        else ""
    )


def _claim_drafts(
    units: list[Unit], checks: dict[Claim, Check], verdict: Callable[[str], str]
) -> list[Draft]:
    drafts: list[Draft] = []
    for unit in units:
        drafts.extend(claim_findings(unit, checks, verdict))
    return drafts


def _date_drafts(units: list[Unit]) -> list[Draft]:
    drafts = []
    for unit in units:
        if unit.date is None:
            continue
        found = find_relative_dates(unit.content, unit.date.date())
        if not found:
            continue
        before = unit.content
        spans = [content_span(unit, r.start, r.end, wording(r, before)) for r in found]
        anchor = "the line was committed" if unit.date_source == "git" else "the file was last modified"
        phrases = ", ".join(f"“{r.text}” means {r.when.isoformat()}" for r in found)
        evidence = f"a relative date is ambiguous once time passes: {phrases}; written as that date"
        draft = Draft("DATE_FIX", unit, evidence, "EDIT", 0.85 if unit.date_source == "git" else 0.6, spans)
        draft.reason, draft.fact = "relative-date", f"{anchor} on {unit.date:%Y-%m-%d}"
        drafts.append(draft)
    return drafts


def _secret_drafts(units: list[Unit]) -> list[Draft]:
    drafts = []
    for unit in units:
        matches = find_secrets(unit.text)
        if matches:
            spans = [(m.start, m.end, f"[REDACTED:{m.kind}]") for m in matches]
            kinds = ", ".join(sorted({m.kind for m in matches}))
            evidence = f"a secret sits in memory ({kinds}) at line {unit.line}: redact it, and rotate it if it is real"
            drafts.append(Draft("SECRET", unit, evidence, "EDIT", 0.9, spans, reason="secret"))
    return drafts


def _dedupe(drafts: list[Draft]) -> list[Draft]:
    """One draft per (category, unit), the strongest action first."""
    strength = {"REMOVE": 3, "MERGE": 2, "EDIT": 1, "CLUSTER": 1, "NONE": 0}
    best: dict[tuple[str, int, str, int, str], Draft] = {}
    for draft in drafts:
        kind = draft.reason if draft.category == "HYGIENE" else ""
        key = (
            draft.category,
            id(draft.unit) if draft.unit else 0,
            draft.file + draft.topic_file,
            draft.line,
            kind,
        )
        current = best.get(key)
        if current is None or strength[draft.action] > strength[current.action]:
            best[key] = draft
    return list(best.values())
