"""The consolidation reminder: enough time and enough sessions since `.last-consolidation`.

Defaults are 24 hours and 5 sessions (`[reminder]` in the config); once it fires it stays quiet for
`cooldown_hours`, so a burst of new sessions does not repeat it each time.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta
from pathlib import Path

from ..capture.config import Config
from ..capture.places import project_key
from ..fsutil import atomic_write
from ..marker import read_marker, sessions_since

REMINDERS_DIR = "reminders"


def due_message(memory_dir: Path, transcripts_dir: Path, config: Config, now: datetime) -> str | None:
    """The reminder text when both thresholds are met, else None."""
    marker = read_marker(memory_dir)
    hours = (now - marker).total_seconds() / 3600 if marker else math.inf
    if hours < config.reminder_hours:
        return None
    sessions = sessions_since(transcripts_dir, marker)
    if sessions < config.reminder_sessions:
        return None
    state = (
        f"has not been consolidated for {hours / 24:.1f} days" if marker else "has never been consolidated"
    )
    return (
        f"Memory {state} ({sessions} sessions since). When this task allows, suggest running "
        "`consolidate dream` to fold what was learned into memory."
    )


def remind(state_dir: Path, project: Path, message: str | None, config: Config, now: datetime) -> str | None:
    """`message`, unless a reminder for this project fired within the cooldown (then None)."""
    if message is None:
        return None
    path = state_dir / REMINDERS_DIR / (project_key(project) + ".json")
    try:
        last = datetime.fromisoformat(json.loads(path.read_text(encoding="utf-8"))["last"])
        if now - last < timedelta(hours=config.reminder_cooldown_hours):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        pass
    atomic_write(path, json.dumps({"last": now.isoformat()}).encode())
    return message
