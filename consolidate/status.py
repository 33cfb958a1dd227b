"""`consolidate status`: the index against its budget, sections, defects, last consolidation."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from memory_layout import check_tree, load_memory_tree, measure_index

from .settings import Settings


def read_marker(memory_dir: Path) -> datetime | None:
    """The time of the last consolidation, or None when absent or unreadable."""
    try:
        text = (memory_dir / ".last-consolidation").read_text(encoding="utf-8").strip()
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def sessions_since(transcripts_dir: Path, since: datetime | None) -> int:
    """Main-session transcripts modified after `since` (all of them when None)."""
    if not transcripts_dir.is_dir():
        return 0
    threshold = since.timestamp() if since else 0.0
    count = 0
    for path in transcripts_dir.glob("*.jsonl"):
        try:
            if path.stat().st_mtime > threshold:
                count += 1
        except OSError:
            continue
    return count


def build_status(settings: Settings) -> dict[str, Any]:
    memory_dir = settings.memory_dir
    tree = load_memory_tree(memory_dir)
    index = tree.index
    budget = measure_index(index.data if index else b"")
    sections = []
    if index is not None and index.document is not None:
        sections = [{"name": s.name, "entries": len(s.entries)} for s in index.document.sections()]
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
        "transcripts_dir": str(settings.layout.transcripts_dir),
    }
