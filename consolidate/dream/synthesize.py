"""Phase 3, synthesise: turn the two reports into one reviewable plan.

Order of pressure: retirements first (every auditor finding becomes a REMOVE/MERGE/EDIT), then
clustering of what is still crowded, then the capped ADDs. Every proposal gets its diff from the same
code that will apply it, and none may carry a secret.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from ..models import AuditReport, Candidate, DiscoveryReport
from ..plan import ACTION_ORDER, L0_WARNING, Plan, PlanError, Proposal
from ..review import diff_of, proposed_files
from ..runs import write_scope
from ..secrets import has_secret, redact
from ..team.audit import team_retirements
from ..workspace import ChangeFailed, DiskReads
from .additions import MAX_ADD, additions
from .backlog import Backlog, learning_id
from .budget import budget_drafts
from .checks import check_proposal
from .drafts import Draft
from .gather import GatherResult, bare_reason
from .groups import MAX_DECISIONS, group_proposals
from .orient import Snapshot
from .pressure import cluster_drafts
from .retire import retirements
from .titles import title_of


@dataclass
class Synthesis:
    plan: Plan
    notes: list[str] = field(default_factory=list)
    recorded_queue_ids: list[str] = field(default_factory=list)
    settled: list[str] = field(default_factory=list)  # backlog learnings now recorded or dropped for good


def synthesize(
    snapshot: Snapshot,
    gathered: GatherResult,
    *,
    engine: str,
    max_add: int = MAX_ADD,
    backlog: Backlog | None = None,
    max_decisions: int | None = MAX_DECISIONS,
) -> Synthesis:
    """The plan of one run; at most `max_decisions` review decisions (None: every proposal found)."""
    audit = gathered.audit or AuditReport()
    discovery = gathered.discovery or DiscoveryReport()
    retired, notes, claims = retirements(audit.findings, snapshot)
    team, team_notes = team_retirements(gathered.team_audit, snapshot)
    retired, notes = retired + team, notes + team_notes
    added = additions(
        list(discovery.candidates), snapshot, claimed=claims.keys, max_add=max_add, backlog=backlog
    )
    drafts = retired + [d for d in added.drafts if d.action == "EDIT"]
    adds = [d for d in added.drafts if d.action == "ADD"]
    clusters = cluster_drafts(snapshot, drafts + adds)
    moves, over = budget_drafts(snapshot, drafts + clusters + adds)
    clusters += moves
    notes += over
    notes += [redact(note) for note in discovery.notes]  # what the discoverer left out, and why
    notes += added.notes + [f"meta: consider a skill or command for: {m}" for m in added.meta]
    ordered = sorted(
        drafts + clusters + adds, key=lambda d: ACTION_ORDER[d.action]
    )  # ids ascend in apply order
    plan = build_plan(snapshot, gathered, engine, ordered, notes, max_decisions=max_decisions)
    plan.backlog = [waiting_item(candidate, reason) for candidate, reason in added.waiting]
    plan.from_backlog = added.taken_up
    return Synthesis(plan, plan.notes, added.recorded_queue_ids, added.settled)


def _drop(plan: Plan, reason_of: Callable[[Proposal], str | None]) -> None:
    """Leave out the proposals `reason_of` finds a reason against, with a note each; renumber the rest."""
    reasons = {p.id: reason_of(p) for p in plan.proposals}
    if not any(reasons.values()):
        return
    plan.notes += [redact(f"dropped ({reasons[p.id]}): {p.summary}") for p in plan.proposals if reasons[p.id]]
    plan.proposals = [p for p in plan.proposals if not reasons[p.id]]
    for number, proposal in enumerate(plan.proposals, start=1):
        proposal.id = f"P{number}"


def waiting_item(candidate: Candidate, reason: str) -> dict[str, Any]:
    """A learning the plan leaves for the backlog, as the plan records it."""
    return {
        "learning_id": learning_id(candidate),
        "reason": reason,
        "title": title_of(candidate),
        "principle": candidate.principle,
        "learning": candidate.model_dump(mode="json", exclude_defaults=True),
    }


def build_plan(
    snapshot: Snapshot,
    gathered: GatherResult,
    engine: str,
    drafts: list[Draft],
    notes: list[str],
    *,
    max_decisions: int | None = None,
) -> Plan:
    """Proposals with their diffs, grouped for review; with `max_decisions`, what a review cannot
    take waits for the next run before any diff is computed for it."""
    layout = snapshot.settings.layout
    scope = write_scope(snapshot.settings)
    proposals: list[Proposal] = []
    for draft in drafts:
        data = draft.as_dict(f"P{len(proposals) + 1}")
        written = [{k: v for k, v in c.items() if k != "file"} for c in data["changes"]]  # content, not paths
        if has_secret(json.dumps(written, ensure_ascii=False)):
            notes.append(f"dropped (would write a secret): {redact(draft.summary)}")
            continue
        if draft.layer == "L0":
            data["warning"] = L0_WARNING
        try:
            proposal = Proposal.model_validate(data)
            for name in proposal.files:
                scope.resolve(name, proposal.id)
        except (ValidationError, PlanError) as exc:
            notes.append(f"dropped (invalid target): {redact(draft.summary)}: {str(exc).splitlines()[0]}")
            continue
        proposals.append(proposal)
    plan = Plan(
        engine=engine,
        project=str(layout.project),
        memory_dir=str(layout.memory_dir),
        claude_home=str(layout.claude_home),
        snapshot=snapshot.hashes,
        proposals=proposals,
        mark_consolidation=gathered.ran,
        notes=[
            redact(n)
            for n in notes
            + [f"{agent}: {bare_reason(agent, reason)}" for agent, reason in gathered.failures.items()]
        ],
    )
    if max_decisions is not None:
        group_proposals(plan, max_decisions=max_decisions)
    broken: dict[int, str | None] = {}
    disk = DiskReads()  # every preview starts from the files the snapshot read: none is read again
    for relative, file in snapshot.tree.files.items():
        if file.document is not None:
            disk.seed(layout.memory_dir / relative, file.data)
    for proposal in plan.proposals:
        try:
            files = proposed_files(plan, proposal, scope, disk=disk)
        except ChangeFailed as exc:
            proposal.diff = f"# cannot be applied as planned: {exc}\n"
            continue
        proposal.diff = diff_of(files)
        broken[id(proposal)] = check_proposal(proposal, files)
    _drop(plan, lambda p: None if p.diff.strip() else "no change")
    _drop(plan, lambda p: broken.get(id(p)))  # by object: the first drop renumbers the ids
    group_proposals(plan, max_decisions=len(plan.proposals))  # groups and ids of what is left
    plan.usage = {agent: usage.model_dump() for agent, usage in gathered.usage().items()}
    plan.gather = {
        "auditor_skipped": gathered.auditor_skipped,
        "fallback": gathered.fallback,
        "failures": gathered.failures,
    }
    return plan
