"""Which sessions to mine: those active after the last consolidation, or after `--since`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from ..transcripts.session import TranscriptFile, find_transcripts, last_activity


def timestamp_after(stamp: str, since: datetime | None) -> bool:
    """Whether an ISO timestamp is after `since` (an unreadable or missing timestamp counts as after)."""
    if since is None or not stamp:
        return True
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return True
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment > since


def select_transcripts(
    directory: Path, since: datetime | None = None, sessions: Iterable[str] | None = None
) -> list[TranscriptFile]:
    """The transcripts (main and subagent) of sessions active after `since`, or of the named sessions."""
    files = find_transcripts(directory)
    if sessions is not None:
        wanted = {str(s) for s in sessions}
        return [f for f in files if f.session_id in wanted or str(f.path) in wanted or f.path.name in wanted]
    if since is None:
        return files
    threshold = since.timestamp()
    return [f for f in files if last_activity(f.path) > threshold]


def most_recent_sessions(directory: Path, limit: int) -> list[TranscriptFile]:
    """The `limit` most recently active main sessions, with their subagent transcripts."""
    files = find_transcripts(directory)
    mains = [f for f in files if not f.is_subagent]
    mains.sort(key=lambda f: (last_activity(f.path), f.path.name), reverse=True)
    chosen = {f.session_id for f in mains[:limit]}
    return [f for f in files if f.session_id in chosen]
