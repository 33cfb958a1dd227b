"""The team folder is audited like any layer: the offline auditor checks it against the code and git,
and its findings become proposals against the shared files (a path renamed in the code gets an EDIT
of the team copy that names it). The dream runs this beside its own auditor."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from memory_layout import MemoryTree, ProjectLayout

from ..dream.drafts import Draft
from ..dream.orient import Snapshot
from ..dream.retire import retirements
from ..models import AuditReport
from .layer import LAYER, load_team


def audit_team(snapshot: Snapshot) -> AuditReport | None:
    """The auditor's report on the team folder, or None when there is none to audit."""
    return _audit(snapshot.team, snapshot.settings.layout)


def _audit(team: MemoryTree | None, layout: ProjectLayout) -> AuditReport | None:
    if team is None or team.index is None or layout.git_root is None:
        return None
    from ..audit.auditor import audit_tree
    from ..gitrepo import GitRepo

    return audit_tree(team, project_root=layout.git_root, repo=GitRepo.find(layout.git_root))


def with_team_findings(report: AuditReport, layout: ProjectLayout) -> AuditReport:
    """`consolidate audit`'s report with the team folder's findings added, named by absolute path."""
    team = load_team(layout)
    found = _audit(team, layout)
    if found is None or team is None:
        return report
    for finding in found.findings:
        finding.file = str(team.root / finding.file) if not Path(finding.file).is_absolute() else finding.file
        for related in finding.related:
            related.file = (
                str(team.root / related.file) if not Path(related.file).is_absolute() else related.file
            )
    report.findings += found.findings
    report.entries_audited += found.entries_audited
    for item in found.files:  # the per-file counts keep adding up to the totals
        item.file = str(team.root / item.file) if not Path(item.file).is_absolute() else item.file
        item.layer = LAYER
    report.files += found.files
    report.notes.append(f"team memory: {found.entries_audited} entries audited in {team.root}")
    return report


def team_retirements(report: AuditReport | None, snapshot: Snapshot) -> tuple[list[Draft], list[str]]:
    """The team findings as REMOVE / MERGE / EDIT drafts, their files named by absolute path."""
    if report is None or snapshot.team is None:
        return [], []
    drafts, notes, _ = retirements(report.findings, dataclasses.replace(snapshot, tree=snapshot.team))
    for draft in drafts:
        _relocate(draft, snapshot.team.root)
    return drafts, [f"team memory: {note}" for note in notes]


def _relocate(draft: Draft, folder: Path) -> None:
    def place(name: str) -> str:
        return name if Path(name).is_absolute() else str(folder / name)

    draft.file = place(draft.file)
    draft.layer = LAYER
    draft.summary = f"team memory: {draft.summary}"
    for change in draft.changes:
        _move(change, place)
    for evidence in draft.evidence:
        evidence.file = place(evidence.file) if evidence.file else evidence.file


def _move(change: dict[str, Any], place: Any) -> None:
    for key in ("file", "cluster_file"):
        if key in change:
            change[key] = place(change[key])
