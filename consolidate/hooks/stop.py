"""Stop: refresh the handoff note for the next session. Prints nothing and never blocks."""

from __future__ import annotations

from .context import HookContext
from .dedup import SESSIONS_DIR
from .handoff import render_handoff, update_facts, write_handoff


def handle(ctx: HookContext) -> str:
    if ctx.payload.get("stop_hook_active") or ctx.transcript_path is None or not ctx.session_id:
        return ""
    scan_file = ctx.state_dir / SESSIONS_DIR / ctx.session_id / "handoff-scan.json"
    facts = update_facts(ctx.transcript_path, scan_file)
    if facts["entries"] or facts["changed"]:
        write_handoff(
            ctx.state_dir, ctx.project, ctx.session_id, render_handoff(facts, ctx.project, ctx.now), ctx.now
        )
    return ""
