"""The tick every hook that reads transcripts runs: bounded, and never waiting for another tick."""

from __future__ import annotations

from ..capture.tick import TickResult, TickScope, run_tick
from ..fsutil import sha1_hex
from .context import HookContext
from .dedup import SessionMarks

HOOK_BYTE_BUDGET = 8 * 1024 * 1024  # per hook; a large backlog is read over several prompts


def hook_tick(ctx: HookContext, *, speaks: bool = True) -> TickResult:
    """`speaks`: the hook's output reaches the model, so a due watchdog nudge is delivered (and spent)."""
    scope = TickScope(
        home=ctx.home,
        state_dir=ctx.state_dir,
        cwd=ctx.project_dir,
        transcripts_override=ctx.transcripts_dir,
        config=ctx.config,
        live_transcript=ctx.transcript_path,
        byte_budget=HOOK_BYTE_BUDGET,
        wait=False,
        deliver_nudge=speaks,
    )
    return run_tick(scope, ctx.now)


def tick_lines(ctx: HookContext) -> list[str]:
    """What a tick tells the model, each pending signal once per context: the session-start signal is
    not repeated by the first prompt, and a signal comes again only when it changes (or after clear)."""
    result = hook_tick(ctx)
    marks = SessionMarks(ctx.state_dir, ctx.session_id)
    result.signals = [s for s in result.signals if marks.claim("signal-" + sha1_hex(s.encode())[:16])]
    return result.lines()
