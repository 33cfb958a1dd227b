"""PreToolUse: the lessons whose trigger matches this call, before it runs; a guard lesson denies it."""

from __future__ import annotations

from ..learnings import manifest
from ..learnings.episodes import Episode
from ..learnings.guards import is_active_guard
from ..learnings.lessons import ToolCall, live_lessons, matches, render_lesson, select_lessons
from ..learnings.store import store_path
from .context import HookContext
from .dedup import SessionMarks
from .output import additional_context, deny

HEADER = "Lessons from earlier sessions for this {tool} call (consolidate):"


def matching_lessons(ctx: HookContext) -> list[Episode]:
    call = ToolCall.from_payload(ctx.payload)
    if not call.tool:
        return []
    project = str(ctx.project)
    for store in (store_path(ctx.state_dir, ctx.project), store_path(ctx.state_dir, None)):
        manifest.refresh(store)  # the next call that matches nothing is answered from it
    return [
        e for _, e in live_lessons(ctx.state_dir, ctx.project, ctx.now) if matches(e.trigger, call, project)
    ]


def handle(ctx: HookContext) -> str:
    lessons = matching_lessons(ctx)
    if not lessons:
        return ""
    tool = str(ctx.payload.get("tool_name"))
    guards = [
        e for e in lessons if is_active_guard(e)
    ]  # an assistant-written guard only advises until confirmed
    if guards:
        reason = "Blocked by a lesson from an earlier session:\n" + "\n".join(
            render_lesson(e) for e in guards
        )
        return deny(reason)
    marks = SessionMarks(ctx.state_dir, ctx.context_id)
    chosen = select_lessons(
        lessons,
        max_lessons=ctx.config.inject_max_lessons,
        max_bytes=ctx.config.inject_max_bytes,
        claim=marks.claim,
    )
    if not chosen:
        return ""
    return additional_context("PreToolUse", "\n".join([HEADER.format(tool=tool), *chosen]))
