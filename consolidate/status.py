"""`consolidate status`: the index against its budget, sections, defects, last consolidation."""

from __future__ import annotations

from typing import Any

from memory_layout import check_tree, load_memory_tree, measure_index

from .marker import read_marker, sessions_since
from .settings import Settings
from .team.layer import team_status


def pending_queue(settings: Settings) -> dict[str, int]:
    """Pending capture-queue items per channel; an absent queue is empty (and is not created)."""
    from .capture.queue import QUEUE_FILE, Queue, bucket_for

    path = settings.state_dir / QUEUE_FILE
    if not path.exists():
        return {}
    try:
        with Queue(path) as queue:
            return {k: v for k, v in queue.counts(bucket_for(settings.layout.project)).items() if v}
    except Exception:  # an unreadable queue must not break status
        return {}


def build_status(settings: Settings) -> dict[str, Any]:
    memory_dir = settings.memory_dir
    tree = load_memory_tree(memory_dir)
    index = tree.index
    budget = measure_index(index.data if index else b"")
    sections = []
    if index is not None and index.document is not None:
        sections = [
            {"name": s.name, "entries": len(s.entries)}
            for s in index.document.sections()
            if s.entries or s.level != 1  # the file's title (`# Project Memory`) is no section
        ]
    marker = read_marker(memory_dir)
    return {
        "memory_dir": str(memory_dir),
        "exists": index is not None,
        "index": budget.to_dict(),
        "sections": sections,
        "entries": sum(s["entries"] for s in sections),
        "topic_files": tree.topic_files(),
        "cluster_files": tree.cluster_files(),
        "defects": [d.to_dict() for d in check_tree(tree)],
        "last_consolidation": marker.strftime("%Y-%m-%dT%H:%M:%SZ") if marker else None,
        "sessions_since": sessions_since(settings.layout.transcripts_dir, marker),
        "pending_queue": pending_queue(settings),
        "transcripts_dir": str(settings.layout.transcripts_dir),
        "team": team_status(settings.layout),  # the team memory folder: a layer of its own
        "pending_plan": pending_plan(settings),
        "backlog": backlog_status(settings),
    }


def backlog_status(settings: Settings) -> dict[str, Any]:
    """The learnings that wait for a dream (past the ADD cap, not selected, set aside) and how many a
    review retired: what a person left undecided is visible without running a dream."""
    from .dream.backlog import Backlog

    backlog = Backlog.load(settings)
    waiting = sorted(backlog.waiting.values(), key=lambda w: w.since)
    return {
        "waiting": len(waiting),
        "rejected": len(backlog.rejected),
        "learnings": [
            {"principle": w.candidate.principle, "reason": w.reason, "since": w.since} for w in waiting
        ],
        **({"problem": backlog.problem} if backlog.problem else {}),
    }


def pending_plan(settings: Settings) -> dict[str, Any] | None:
    """The plan a background dream prepared and nobody reviewed yet, with the last failed run after it."""
    from .periodic.background import last_failure
    from .periodic.pending import status_of

    found = status_of(settings)
    failure = last_failure(settings)
    if failure and (found is None or failure[:20] > str(found.get("created_at", ""))):
        found = {**(found or {"proposals": None}), "last_failure": failure}
    return found
