"""UserPromptSubmit: tick (markers → queue, drain signal, watchdog) and the correction detector."""

from __future__ import annotations

from ..capture.corrections import REMINDER, find_correction
from ..capture.tick import TickScope, run_tick
from .context import HookContext
from .output import additional_context

HOOK_BYTE_BUDGET = 8 * 1024 * 1024  # per prompt; a large backlog is read over several prompts


def tick_lines(ctx: HookContext) -> list[str]:
    scope = TickScope(
        home=ctx.home,
        state_dir=ctx.state_dir,
        cwd=ctx.cwd,
        config=ctx.config,
        live_transcript=ctx.transcript_path,
        byte_budget=HOOK_BYTE_BUDGET,
        wait=False,
    )
    return run_tick(scope, ctx.now).lines()


def handle(ctx: HookContext) -> str:
    lines = tick_lines(ctx)
    prompt = ctx.payload.get("prompt")
    if isinstance(prompt, str) and find_correction(prompt):
        lines.append(REMINDER)
    return additional_context("UserPromptSubmit", "\n".join(lines)) if lines else ""
