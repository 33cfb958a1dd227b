"""Stop: tick (markers of the last turn are queued now) and refresh the handoff for the next session.

Prints nothing and never blocks; with `stop_hook_active` (another Stop hook made the model go on) it
does nothing at all.
"""

from __future__ import annotations

from ..capture.handoff import render_handoff, write_handoff
from .context import HookContext
from .ticking import hook_tick


def handle(ctx: HookContext) -> str:
    if ctx.payload.get("stop_hook_active") or ctx.transcript_path is None:
        return ""
    facts = hook_tick(ctx, speaks=False).live_facts  # Stop's output never reaches the model
    if facts and (facts["entries"] or facts["changed"]):
        write_handoff(
            ctx.state_dir, ctx.project, ctx.session_id, render_handoff(facts, ctx.project, ctx.now), ctx.now
        )
    return ""
