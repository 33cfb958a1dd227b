"""UserPromptSubmit: tick (markers → queue, drain signal, watchdog), the correction detector, and
auto-recall when it is switched on."""

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
    if ctx.config.recall_auto:
        from ..recall.auto import auto_recall

        if recalled := auto_recall(ctx):
            lines.append(recalled)
    return additional_context("UserPromptSubmit", "\n".join(lines)) if lines else ""
