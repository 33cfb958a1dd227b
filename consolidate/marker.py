"""`.last-consolidation` and the sessions since: standard library only (status and the hooks read it)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

MARKER = ".last-consolidation"


def read_marker(memory_dir: Path) -> datetime | None:
    """The time of the last consolidation, or None when absent or unreadable."""
    try:
        text = (memory_dir / MARKER).read_text(encoding="utf-8").strip()
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def sessions_since(transcripts_dir: Path, since: datetime | None) -> int:
    """Main-session transcripts modified after `since` (all of them when None)."""
    threshold = since.timestamp() if since else 0.0
    try:
        paths = list(transcripts_dir.glob("*.jsonl"))
    except OSError:
        return 0
    count = 0
    for path in paths:
        try:
            count += path.stat().st_mtime > threshold
        except OSError:
            continue
    return count
