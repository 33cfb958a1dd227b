"""`consolidate eval`: the dream in dry run over labeled scenarios, scored per phase.

For each seeded scenario: orient and gather with the offline engine, score the discoverer and the
auditor against their labels, synthesise the plan and score its proposals (false REMOVEs, leaked
secrets), apply it to the scenario's own copy to check the index budget, then dream again to check
that nothing is proposed twice.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_layout import measure_index

from ..apply import apply_plan
from ..discover.matcher import Matcher
from ..dream.gather import gather
from ..dream.orient import orient
from ..dream.synthesize import synthesize
from ..engines.offline import OfflineEngine
from ..plan import Proposal
from ..runs import journal_dir, write_scope
from .audit_devset import CATEGORIES, Score, score
from .discover_devset import KINDS
from .discover_score import Evaluation, evaluate
from .proposals import RETIREMENT_CATEGORIES, ProposalScore, score_plan
from .scenarios import Scenario, build_scenario, variation

EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
TARGETS = {"discoverer_precision": 0.9, "discoverer_recall": 0.8, "auditor_recall": 0.9}
MAX_ADD = 7


def _dream(scenario: Scenario) -> Any:
    snapshot = orient(scenario.settings, create=False)
    gathered = asyncio.run(gather(OfflineEngine(), snapshot, since=EPOCH))
    # every proposal found, before the review's cap on decisions per run: what the dream finds, not what one review shows
    return gathered, synthesize(
        snapshot, gathered, engine="offline", max_add=MAX_ADD, max_decisions=None
    ).plan


def run_scenario(scenario: Scenario) -> dict[str, Any]:
    gathered, plan = _dream(scenario)
    discovery = evaluate(gathered.discovery, scenario.sessions)
    audit = score(gathered.audit, scenario.case.labels) if gathered.audit else Score()
    proposals = score_plan(plan, scenario.case.labels, scenario.sessions, MAX_ADD)
    report = apply_plan(plan, write_scope(scenario.settings), journal_dir=journal_dir(scenario.settings))
    budget = measure_index((scenario.settings.memory_dir / "MEMORY.md").read_bytes())
    _, again = _dream(scenario)
    second = {
        action: sum(p.action == action for p in again.proposals)
        for action in ("ADD", "REMOVE", "MERGE", "EDIT")
    }
    applied = [r.proposal for r in report.results if r.done]
    second["duplicate_ADD"] = _duplicate_adds(applied, again.proposals)
    second["repeated_REMOVE"] = _repeated_removes(applied, again.proposals)
    return {
        "discovery": discovery,
        "audit": audit,
        "proposals": proposals,
        "applied": sum(r.done for r in report.results),
        "failed": sum(r.status.startswith(("failed", "unverified")) for r in report.results),
        "skipped": sum(r.status.startswith("skipped") for r in report.results),
        "within_budget": not budget.over_budget,
        "second_run": second,
        "idempotent": second["duplicate_ADD"] == 0 and second["repeated_REMOVE"] == 0,
    }


def _duplicate_adds(applied: list[Proposal], again: list[Proposal]) -> int:
    """ADDs of the second run that say what the first run already added (text or evidence)."""
    stated = Matcher.of_texts([p.summary for p in applied if p.action == "ADD"])
    quotes = {e.quote for p in applied if p.action == "ADD" for e in p.evidence if e.quote}
    return sum(
        1
        for p in again
        if p.action == "ADD"
        and (
            stated.judge(p.summary).category == "RECORDED"
            or any(e.quote in quotes for e in p.evidence if e.quote)
        )
    )


def _repeated_removes(applied: list[Proposal], again: list[Proposal]) -> int:
    """REMOVEs of the second run aimed at what the first run already removed."""
    done = {(p.target.file, p.summary) for p in applied if p.action == "REMOVE"}
    return sum(1 for p in again if p.action == "REMOVE" and (p.target.file, p.summary) in done)


def run_eval(
    seeds: list[int], *, progress: Callable[[str], None] | None = None, workdir: Path | None = None
) -> dict[str, Any]:
    discovery, audit, proposals = Evaluation(), Score(), ProposalScore()
    scenarios: list[dict[str, Any]] = []
    root = Path(tempfile.mkdtemp(prefix="consolidate-eval-", dir=workdir))
    started = time.monotonic()
    try:
        for seed in seeds:
            chosen = variation(seed)
            if progress:
                progress(chosen.describe())
            result = run_scenario(build_scenario(root / f"s{seed}", chosen))
            _merge_discovery(discovery, result["discovery"])
            audit.add(result["audit"])
            proposals.add(result["proposals"])
            scenarios.append(
                {
                    "seed": seed,
                    "variation": chosen.describe(),
                    "applied": result["applied"],
                    "failed": result["failed"],
                    "skipped_l0": result["skipped"],
                    "within_budget": result["within_budget"],
                    "second_run": result["second_run"],
                    "idempotent": result["idempotent"],
                }
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return _summary(discovery, audit, proposals, scenarios, time.monotonic() - started)


def _merge_discovery(total: Evaluation, part: Evaluation) -> None:
    for name in (
        "true_positives",
        "false_positives",
        "found",
        "planted",
        "found_by_language",
        "planted_by_language",
        "noise_hits",
    ):
        getattr(total, name).update(getattr(part, name))
    total.layer_hits += part.layer_hits
    total.layer_total += part.layer_total


def _ratio(numerator: float, denominator: float) -> float | None:
    return round(numerator / denominator, 3) if denominator else None


def _summary(
    discovery: Evaluation,
    audit: Score,
    proposals: ProposalScore,
    scenarios: list[dict[str, Any]],
    seconds: float,
) -> dict[str, Any]:
    d_precision, d_recall = discovery.overall()
    audit_tp = sum(audit.tp.values())
    auditor_recall = _ratio(audit_tp, audit_tp + sum(audit.fn.values()))
    result = {
        "scenarios": scenarios,
        "seconds": round(seconds, 1),
        "discoverer": {
            "precision": round(d_precision, 3),
            "recall": round(d_recall, 3),
            "by_kind": {
                k: {
                    "precision": _ratio(
                        discovery.true_positives[k],
                        discovery.true_positives[k] + discovery.false_positives[k],
                    ),
                    "recall": _ratio(discovery.found[k], discovery.planted[k]),
                }
                for k in KINDS
            },
        },
        "auditor": {
            "precision": _ratio(audit_tp, audit_tp + sum(audit.fp.values())),
            "recall": auditor_recall,
            "by_category": {
                c: {"precision": audit.precision(c), "recall": audit.recall(c)} for c in CATEGORIES
            },
        },
        "proposals": {
            "by_category": {
                c: {
                    "precision": _ratio(proposals.tp[c], proposals.tp[c] + proposals.fp[c]),
                    "recall": _ratio(proposals.found[c], proposals.planted[c]),
                }
                for c in RETIREMENT_CATEGORIES
            },
            "add_precision": _ratio(proposals.adds_true, proposals.adds_true + proposals.adds_false),
            "add_recall_within_cap": _ratio(proposals.adds_true, proposals.adds_possible),
        },
        "false_removes": len(proposals.false_removes) + len(audit.false_removes),
        "false_remove_examples": (proposals.false_removes + audit.false_removes)[:5],
        "secrets_leaked": proposals.secrets_leaked,
        "within_budget": all(s["within_budget"] for s in scenarios),
        "idempotent": all(s["idempotent"] for s in scenarios),
    }
    result["targets"] = {
        "discoverer_precision>=0.9": d_precision >= TARGETS["discoverer_precision"],
        "discoverer_recall>=0.8": d_recall >= TARGETS["discoverer_recall"],
        "auditor_recall>=0.9": (auditor_recall or 0) >= TARGETS["auditor_recall"],
        "false_removes==0": result["false_removes"] == 0,
        "secrets_leaked==0": result["secrets_leaked"] == 0,
    }
    return result
