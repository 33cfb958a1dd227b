"""SessionStart: the top lessons, the pending-queue signal, the consolidation reminder, the handoff."""

from __future__ import annotations

from ..capture.handoff import read_handoff
from ..capture.places import memory_dir
from ..learnings.lessons import live_lessons, render_lesson
from ..learnings.store import open_store
from ..periodic.store import announce_once, announcement, pending_dir, read_summary
from .context import HookContext
from .dedup import SessionMarks, prune_sessions
from .output import additional_context
from .reminder import due_message, remind
from .ticking import tick_lines

LESSONS_HEADER = "Lessons from earlier sessions in this project (consolidate):"


def handle(ctx: HookContext) -> str:
    source = str(ctx.payload.get("source") or "startup")
    if source in ("clear", "compact"):
        SessionMarks(ctx.state_dir, ctx.session_id).reset()  # the context lost what was injected
    if source == "startup":
        prune_sessions(ctx.state_dir)
        sync_guard_markers(ctx)
    parts = [
        top_lessons(ctx),
        "\n".join(tick_lines(ctx)),
        reminder(ctx),
        read_handoff(ctx.state_dir, ctx.project, ctx.session_id, ctx.now) if source != "resume" else "",
    ]
    text = "\n\n".join(part for part in parts if part)
    return additional_context("SessionStart", text) if text else ""


def sync_guard_markers(ctx: HookContext) -> None:
    """Stores written before guard markers existed get theirs (the launcher reads them without Python)."""
    for project in (ctx.project, None):
        store = open_store(ctx.state_dir, project)
        if store.path.exists():
            store.sync_guard_marker()


def top_lessons(ctx: HookContext) -> str:
    """The best-scored live lessons not yet promoted (promoted ones are in CLAUDE.md already)."""
    ranked = [e for _, e in live_lessons(ctx.state_dir, ctx.project, ctx.now) if e.status == "active"]
    chosen = ranked[: ctx.config.top_lessons]
    return "\n".join([LESSONS_HEADER, *(render_lesson(e) for e in chosen)]) if chosen else ""


def reminder(ctx: HookContext) -> str:
    """A pending plan is announced once, in place of the reminder (which it answers); else the reminder."""
    memory = memory_dir(ctx.home, ctx.project_dir)
    folder = pending_dir(ctx.state_dir, memory)
    summary = read_summary(folder)
    if summary is not None:
        return announcement(summary) if announce_once(folder, summary) else ""
    message = due_message(memory, ctx.transcripts_dir, ctx.config, ctx.now)
    return remind(ctx.state_dir, ctx.project, message, ctx.config, ctx.now) or ""
