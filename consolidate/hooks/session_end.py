"""SessionEnd: when a dream is due (the reminder's hours and sessions), prepare one in the background.

The run is detached (it outlives this hook, which Claude Code kills within about 1.5 s) and applies
nothing: it leaves a pending plan that the next SessionStart announces. A pending plan still fresh —
younger than `[periodic] refresh_hours`, its files untouched — is not prepared again.
"""

from __future__ import annotations

from datetime import datetime

from ..capture.places import memory_dir
from ..periodic.store import files_changed, pending_dir, read_summary
from .context import HookContext
from .reminder import due_message


def handle(ctx: HookContext) -> str:
    config = ctx.config
    if not config.periodic_enabled:
        return ""
    memory = memory_dir(ctx.home, ctx.project_dir)
    if due_message(memory, ctx.transcripts_dir, config, ctx.now) is None:
        return ""
    summary = read_summary(pending_dir(ctx.state_dir, memory))
    if summary is not None and _fresh(summary, config.periodic_refresh_hours, ctx.now):
        return ""
    from ..periodic.launch import start_background  # subprocess: only when a run starts

    start_background(ctx.state_dir, memory, ctx.project_dir, ctx.home, ctx.env)
    return ""  # SessionEnd output is shown to nobody


def _fresh(summary: dict, refresh_hours: float, now: datetime) -> bool:
    try:
        created = datetime.fromisoformat(str(summary["created_at"]).replace("Z", "+00:00"))
    except ValueError:
        return False
    young = (now - created).total_seconds() < refresh_hours * 3600
    return young and not files_changed(summary)
