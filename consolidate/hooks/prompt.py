"""UserPromptSubmit: tick (markers → queue, drain signal, watchdog) and the correction detector."""

from __future__ import annotations

from ..capture.corrections import REMINDER, find_correction
from .context import HookContext
from .output import additional_context
from .ticking import tick_lines


def handle(ctx: HookContext) -> str:
    lines = tick_lines(ctx)
    prompt = ctx.payload.get("prompt")
    if isinstance(prompt, str) and find_correction(prompt):
        lines.append(REMINDER)
    return additional_context("UserPromptSubmit", "\n".join(lines)) if lines else ""
