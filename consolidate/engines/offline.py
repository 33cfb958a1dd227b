"""The offline engine: the deterministic auditor and discoverer, no network, the default."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .base import AUDITOR, AgentOutput, AgentTask, Engine


class OfflineEngine(Engine):
    name = "offline"

    async def run_agent(self, task: AgentTask) -> AgentOutput:
        work = _audit if task.agent == AUDITOR else _discover
        report = await asyncio.to_thread(work, task)
        return AgentOutput(report)


def _audit(task: AgentTask) -> dict:
    from ..audit import audit

    snapshot = task.snapshot
    report = audit(snapshot.settings, progress=_adapt(task, "entries audited"), tree=snapshot.tree)
    return report.model_dump(mode="json")


def _discover(task: AgentTask) -> dict:
    from ..discover import discover

    snapshot = task.snapshot
    report = discover(
        snapshot.settings,
        [entry.text for entry in snapshot.known],
        since=task.since,
        extra_items=task.queue_items,
        progress=_adapt_labelled(task, "transcripts scanned"),  # subagents count too
        save_state=not task.read_only,
    )
    return report.model_dump(mode="json")


def _adapt_labelled(task: AgentTask, what: str) -> Callable[[int, int, str], None] | None:
    adapted = _adapt(task, what)
    return None if adapted is None else lambda done, total, _label: adapted(done, total)


def _adapt(task: AgentTask, what: str) -> Callable[[int, int], None] | None:
    if task.progress is None:
        return None
    progress = task.progress
    return lambda done, total: progress(what, done, total)
