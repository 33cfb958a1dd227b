"""The tick every hook that reads transcripts runs: bounded, and never waiting for another tick."""

from __future__ import annotations

from ..capture.tick import TickResult, TickScope, run_tick
from .context import HookContext

HOOK_BYTE_BUDGET = 8 * 1024 * 1024  # per hook; a large backlog is read over several prompts


def hook_tick(ctx: HookContext) -> TickResult:
    scope = TickScope(
        home=ctx.home,
        state_dir=ctx.state_dir,
        cwd=ctx.project_dir,
        transcripts_override=ctx.transcripts_dir,
        config=ctx.config,
        live_transcript=ctx.transcript_path,
        byte_budget=HOOK_BYTE_BUDGET,
        wait=False,
    )
    return run_tick(scope, ctx.now)
