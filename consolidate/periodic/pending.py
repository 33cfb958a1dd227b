"""The pending plan: a dream prepared without a person, kept until someone reviews it.

`dream --prepare` saves one per memory dir (a newer one replaces it) with what the review needs to
settle it the way the dream would have: the capture-queue items it found recorded or noise. `review`
loads it, rebuilds it when the files it was made from changed, and discards it once reviewed.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import ConsolidateError
from ..fsutil import digest_file
from ..plan import Plan, PlanError, Proposal, load_plan
from ..runs import write_scope
from ..settings import Settings
from . import store

VERSION = 1


@dataclass
class PendingPlan:
    plan: Plan
    summary: dict[str, Any]
    folder: Path

    @property
    def settle_queue(self) -> list[str]:
        return [str(q) for q in self.summary.get("settle_queue") or []]

    @property
    def extra(self) -> dict[str, Any]:
        """What the run that made the plan left for its review (see `save_pending`)."""
        return dict(self.summary.get("extra") or {})


@dataclass
class Staleness:
    """Why a pending plan no longer describes the memory: files changed, files added, new commits."""

    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    head_moved: bool = False

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.head_moved)

    def describe(self) -> str:
        parts = []
        if self.changed:
            parts.append(f"{_names(self.changed)} changed")
        if self.added:
            parts.append(f"{_names(self.added)} appeared")
        if self.head_moved:
            parts.append("the repository has new commits")
        return "; ".join(parts)


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def folder_of(settings: Settings) -> Path:
    return store.pending_dir(settings.state_dir, settings.memory_dir)


def to_decide(plan: Plan) -> tuple[list[Proposal], list[Proposal]]:
    """The proposals a person must decide, and those set aside as already recorded (applied only
    when kept): a plan of 13 proposals of which 10 are already recorded asks for 3 decisions."""
    recorded = [p for p in plan.proposals if p.skipped is not None]
    return [p for p in plan.proposals if p.skipped is None], recorded


def save_pending(
    settings: Settings, plan: Plan, *, settle_queue: list[str], extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Keep `plan` as the memory dir's pending plan, replacing any older one; returns its summary."""
    scope = write_scope(settings)
    files = {}
    for name in plan.snapshot:
        path = scope.snapshot_path(name)
        files[name] = {"path": str(path), "sha256": plan.snapshot[name], **_stat(path)}
    deciding, recorded = to_decide(plan)
    by_action = Counter(p.action for p in deciding)
    summary = {
        "version": VERSION,
        "created_at": plan.created_at,
        "engine": plan.engine,
        "project": plan.project,
        "memory_dir": plan.memory_dir,
        "proposals": len(deciding),
        "by_action": dict(sorted(by_action.items())),
        "already_recorded": len(recorded),
        "files": files,
        "memory_files": memory_files(settings.memory_dir),
        "git_head": git_head(settings),
        "usage": total_usage(plan),
        "settle_queue": list(dict.fromkeys(settle_queue)),
        "extra": extra or {},
    }
    return store.write_pending(folder_of(settings), plan.to_json(), summary)


def _stat(path: Path) -> dict[str, int | None]:
    try:
        stat = path.stat()
    except OSError:
        return {"size": None, "mtime_ns": None}
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def total_usage(plan: Plan) -> dict[str, Any] | None:
    """Tokens and cost of the agents that made the plan; None when no model ran (offline)."""
    usages = list(plan.usage.values())
    tokens_in = sum(int(u.get("input_tokens") or 0) for u in usages)
    tokens_out = sum(int(u.get("output_tokens") or 0) for u in usages)
    if not tokens_in and not tokens_out:
        return None
    cost = round(sum(float(u.get("cost_usd") or 0.0) for u in usages), 6)
    return {"input_tokens": tokens_in, "output_tokens": tokens_out, "cost_usd": cost}


def memory_files(memory_dir: Path) -> list[str]:
    """The Markdown files of the memory dir, relative: a new one makes a pending plan stale."""
    try:
        found = [p.relative_to(memory_dir).as_posix() for p in memory_dir.rglob("*.md") if p.is_file()]
    except OSError:
        return []
    return sorted(found)


def git_head(settings: Settings) -> str | None:
    from ..gitrepo import GitRepo

    repo = GitRepo.find(settings.layout.git_root or settings.layout.project)
    return repo.head() if repo is not None else None


def load_pending(settings: Settings) -> PendingPlan | None:
    """The memory dir's pending plan, or None; a plan that does not match its summary is an error."""
    folder = folder_of(settings)
    summary = store.read_summary(folder)
    if summary is None:
        return None
    try:
        plan = load_plan(store.plan_path(folder, summary))
    except PlanError as exc:
        raise ConsolidateError(
            f"the pending plan cannot be read ({exc}); run `consolidate dream --prepare`"
        ) from None
    if plan.created_at != summary["created_at"]:
        raise ConsolidateError(
            "the pending plan and its summary disagree (a write was interrupted); "
            "run `consolidate dream --prepare` again"
        )
    return PendingPlan(plan, summary, folder)


def staleness(pending: PendingPlan, settings: Settings) -> Staleness:
    """What changed since the plan was made: the hash of every file it read, the memory dir's file
    list, the repository's HEAD (the auditor verified the memory against that code)."""
    result = Staleness()
    for name, seen in (pending.summary.get("files") or {}).items():
        try:
            current = digest_file(Path(seen["path"]))
        except OSError:
            current = "unreadable"
        if current != seen.get("sha256"):
            result.changed.append(name)
    known = set(pending.summary.get("memory_files") or []) | set(pending.plan.snapshot)
    result.added = [name for name in memory_files(settings.memory_dir) if name not in known]
    recorded = pending.summary.get("git_head")
    result.head_moved = recorded is not None and git_head(settings) not in (recorded, None)
    return result


def status_of(settings: Settings) -> dict[str, Any] | None:
    """`status`'s `pending_plan`: when it was made, by which engine, proposals by action, whether the
    files it was made from changed since, tokens and cost."""
    try:
        pending = load_pending(settings)
    except ConsolidateError as exc:
        return {"error": str(exc)}
    if pending is None:
        return None
    stale = staleness(pending, settings)
    summary = pending.summary
    return {
        "created_at": summary["created_at"],
        "age_hours": round(_age_hours(summary["created_at"]), 1),
        "engine": summary.get("engine"),
        "proposals": summary.get("proposals", 0),
        "by_action": summary.get("by_action", {}),
        "already_recorded": summary.get("already_recorded", 0),
        "changed_since": bool(stale),
        "changes": stale.describe(),
        "usage": summary.get("usage"),
        "file": os.fspath(store.plan_path(pending.folder, summary)),
    }


def _age_hours(stamp: str) -> float:
    try:
        created = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    return max(0.0, (datetime.now(UTC) - created).total_seconds() / 3600)
