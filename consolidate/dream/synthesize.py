"""Phase 3, synthesise: turn the two reports into one reviewable plan.

Order of pressure: retirements first (every auditor finding becomes a REMOVE/MERGE/EDIT), then
clustering of what is still crowded, then the capped ADDs. Every proposal gets its diff from the same
code that will apply it, and none may carry a secret.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pydantic import ValidationError

from ..models import AuditReport, DiscoveryReport
from ..plan import ACTION_ORDER, L0_WARNING, Plan, PlanError, Proposal
from ..review import preview_diff
from ..runs import write_scope
from ..secrets import has_secret, redact
from ..team.audit import team_retirements
from .additions import MAX_ADD, additions
from .budget import budget_drafts
from .drafts import Draft
from .gather import GatherResult, bare_reason
from .groups import MAX_DECISIONS, group_proposals
from .orient import Snapshot
from .pressure import cluster_drafts
from .retire import retirements


@dataclass
class Synthesis:
    plan: Plan
    notes: list[str] = field(default_factory=list)
    recorded_queue_ids: list[str] = field(default_factory=list)


def synthesize(
    snapshot: Snapshot,
    gathered: GatherResult,
    *,
    engine: str,
    max_add: int = MAX_ADD,
    max_decisions: int | None = MAX_DECISIONS,
) -> Synthesis:
    """The plan of one run; at most `max_decisions` review decisions (None: every proposal found)."""
    audit = gathered.audit or AuditReport()
    discovery = gathered.discovery or DiscoveryReport()
    retired, notes, claims = retirements(audit.findings, snapshot)
    team, team_notes = team_retirements(gathered.team_audit, snapshot)
    retired, notes = retired + team, notes + team_notes
    added = additions(list(discovery.candidates), snapshot, claimed=claims.keys, max_add=max_add)
    drafts = retired + [d for d in added.drafts if d.action == "EDIT"]
    adds = [d for d in added.drafts if d.action == "ADD"]
    clusters = cluster_drafts(snapshot, drafts + adds)
    moves, over = budget_drafts(snapshot, drafts + clusters + adds)
    clusters += moves
    notes += over
    notes += added.notes + [f"meta: consider a skill or command for: {m}" for m in added.meta]
    ordered = sorted(
        drafts + clusters + adds, key=lambda d: ACTION_ORDER[d.action]
    )  # ids ascend in apply order
    plan = build_plan(snapshot, gathered, engine, ordered, notes, max_decisions=max_decisions)
    return Synthesis(plan, plan.notes, added.recorded_queue_ids)


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
        if has_secret(json.dumps(data["changes"], ensure_ascii=False)):
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
    for proposal in plan.proposals:
        proposal.diff = preview_diff(plan, proposal, scope)
    unchanged = [p for p in plan.proposals if not p.diff.strip()]
    if unchanged:
        plan.notes += [f"dropped (no change): {redact(p.summary)}" for p in unchanged]
        plan.proposals = [p for p in plan.proposals if p.diff.strip()]
    group_proposals(plan, max_decisions=len(plan.proposals))  # groups and ids of what is left
    plan.usage = {agent: usage.model_dump() for agent, usage in gathered.usage().items()}
    plan.gather = {
        "auditor_skipped": gathered.auditor_skipped,
        "fallback": gathered.fallback,
        "failures": gathered.failures,
    }
    return plan
