"""Checks of the setup around memory: git ignores, guard lessons, the capture loop, auto-recall."""

from __future__ import annotations

import fnmatch
import re
from datetime import datetime, timedelta
from pathlib import Path

from ..capture.handoff import handoff_path
from ..transcripts import find_transcripts, last_activity
from .context import DoctorContext
from .guards import uncovered_rules
from .report import Check

SECRET_FILES = (".env", "secret.pem", "secret.key")  # stand-ins for `.env`, `*.pem`, `*.key`
SECRET_GLOBS = (".env", "*.pem", "*.key")
QUEUE_STUCK_DAYS = 7
HANDOFF_SLACK = timedelta(hours=1)
_HEADER = re.compile(r"^<!-- session: \S+ ended: (\S+) -->")


def gitignore_secrets(ctx: DoctorContext) -> Check:
    from ..gitrepo import GitRepo

    repo = GitRepo.find(ctx.layout.project)
    if repo is None:
        return Check.ok("gitignore-secrets", "not a git repository: nothing can be committed")

    def secret(path: str) -> bool:
        return any(fnmatch.fnmatch(Path(path).name, g) for g in SECRET_GLOBS)

    exposed = [p for p in repo.untracked_files if secret(p)]  # `git add -A` would commit these
    if exposed:
        globs = [g for g in SECRET_GLOBS if any(fnmatch.fnmatch(Path(p).name, g) for p in exposed)]
        return Check("gitignore-secrets", "fail", f"not ignored by git: {', '.join(exposed[:3])}",
                     f"add {' '.join(globs)} to .gitignore")  # fmt: skip
    tracked = [p for p in repo.tracked_files if secret(p)]
    if tracked:
        how = "ignored, but already tracked" if set(tracked) <= repo.ignored(tracked) else "tracked by git"
        return Check("gitignore-secrets", "warn", f"{how}: {', '.join(tracked[:3])}",
                     "if they hold real secrets: `git rm --cached` them and rotate what they held")  # fmt: skip
    if len(repo.ignored(SECRET_FILES)) < len(SECRET_FILES):  # nothing to commit by mistake: no defect yet
        return Check.ok("gitignore-secrets", "no .env, *.pem or *.key file that git would commit")
    return Check.ok("gitignore-secrets", ".env, *.pem and *.key are ignored by git")


def guard_lessons(ctx: DoctorContext) -> Check:
    rules, uncovered = uncovered_rules(ctx)
    if not rules:
        return Check.ok("guard-lessons", "no rule against a dangerous command in CLAUDE.md or memory")
    if not uncovered:
        return Check.ok(
            "guard-lessons", f"{len(rules)} dangerous-command rule(s), each enforced by a guard or deny rule"
        )
    first = uncovered[0]
    detail = f"{len(uncovered)} of {len(rules)} dangerous-command rule(s) only asked for, not enforced: {first.where} ({first.danger.name})"
    return Check("guard-lessons", "fail", detail, first.fix())


def queue_not_stuck(ctx: DoctorContext) -> Check:
    from ..capture.queue import QUEUE_FILE, Queue, bucket_for

    path = ctx.settings.state_dir / QUEUE_FILE
    if not path.exists():
        return Check.ok("queue-not-stuck", "capture queue: empty")
    try:
        with Queue(path) as queue:
            pending = queue.pending(bucket_for(ctx.repo))
    except Exception as exc:  # a broken queue is a finding, not a crash
        return Check(
            "queue-not-stuck",
            "fail",
            f"capture queue unreadable: {exc}",
            f"move {path} aside; `consolidate tick` starts a new one",
        )
    cutoff = ctx.now - timedelta(days=QUEUE_STUCK_DAYS)
    old = [item for item in pending if _parse(item["created_at"]) < cutoff]
    if not old:
        return Check.ok(
            "queue-not-stuck",
            f"capture queue: {len(pending)} pending, none older than {QUEUE_STUCK_DAYS} days",
        )
    return Check("queue-not-stuck", "fail", f"{len(old)} queued learning(s) older than {QUEUE_STUCK_DAYS} days (oldest {old[0]['created_at'][:10]})",
                 "run `consolidate dream`: it proposes each pending item and acks it once applied or rejected")  # fmt: skip


def consolidation_recent(ctx: DoctorContext) -> Check:
    from ..hooks.reminder import due_message
    from ..marker import read_marker

    message = due_message(ctx.settings.memory_dir, ctx.layout.transcripts_dir, ctx.config, ctx.now)
    if message is None:
        marker = read_marker(ctx.settings.memory_dir)
        when = f"last on {marker:%Y-%m-%d}" if marker else "never, but few sessions so far"
        return Check.ok("consolidation-recent", f"consolidation within the reminder window ({when})")
    # a dream overdue is a reminder, not a broken set-up: a warning, never a failing doctor
    return Check("consolidation-recent", "warn", message.split(". When")[0], "run `consolidate dream`")


def handoff_fresh(ctx: DoctorContext) -> Check:
    from .hooks_check import our_wirings

    sessions = [f for f in find_transcripts(ctx.layout.transcripts_dir) if not f.is_subagent]
    if not sessions:
        return Check.ok("handoff-fresh", "no sessions yet: nothing to hand off")
    newest = datetime.fromtimestamp(max(last_activity(f.path) for f in sessions), ctx.now.tzinfo)
    text = ctx.read(handoff_path(ctx.settings.state_dir, ctx.repo)) or ""
    match = _HEADER.match(text)
    ended = _parse(match.group(1)) if match is not None else None
    if ended is not None and ended + HANDOFF_SLACK >= newest:
        return Check.ok("handoff-fresh", f"handoff from {ended:%Y-%m-%d %H:%M}, after the newest session")
    found = (
        f"handoff from {ended:%Y-%m-%d %H:%M}, the newest session ran until {newest:%Y-%m-%d %H:%M}"
        if ended is not None
        else f"no handoff, though the newest session ran on {newest:%Y-%m-%d %H:%M}"
    )
    stop = [w for w in our_wirings(ctx) if w.event == "Stop"]
    if not stop:  # the cause is hooks-installed-once's finding: advice here, not a second failure
        return Check("handoff-fresh", "warn", f"{found}: the Stop hook that writes it is not installed",
                     "run `consolidate install`, or enable the plugin")  # fmt: skip
    wired = _wired_at(ctx, [w.source for w in stop])
    if wired is not None and newest <= wired:
        return Check.ok(
            "handoff-fresh",
            f"no session has run since the hooks were wired ({wired:%Y-%m-%d %H:%M}): the next one writes the handoff",
        )
    log = ctx.settings.state_dir / "hooks.log"
    return Check("handoff-fresh", "fail", f"{found}, though the Stop hook is wired",
                 f"the Stop hook did not write it: see hooks-runnable and {log}")  # fmt: skip


def _wired_at(ctx: DoctorContext, sources: list[str]) -> datetime | None:
    """When the settings file that wires the Stop hook last changed (None for the plugin)."""
    times = []
    for path in filter(None, map(ctx.settings_paths.get, sources)):
        try:
            times.append(path.stat().st_mtime)
        except OSError:
            continue
    return datetime.fromtimestamp(min(times), ctx.now.tzinfo) if times else None


def config_valid(ctx: DoctorContext) -> Check:
    problems = ctx.config.problems
    if not problems:
        return Check.ok("config-valid", "config files parse (or there are none)")
    return Check(
        "config-valid",
        "fail",
        f"{len(problems)} config problem(s): {problems[0]}",
        "fix the file named (hooks skip what they cannot read)",
    )


def recall_index(ctx: DoctorContext) -> Check:
    from ..recall.api import index_scope
    from ..recall.store import STAMP_FILE, probe_capabilities

    if not ctx.config.recall_auto:
        return Check.ok("recall-index", "auto-recall is off ([recall] auto = true turns it on)")
    if not probe_capabilities().fts5:
        return Check(
            "recall-index",
            "fail",
            "auto-recall is on, but this Python's SQLite has no FTS5",
            "use a Python whose sqlite3 has FTS5",
        )
    index = index_scope(ctx.settings).index
    if not index.exists():
        return Check(
            "recall-index",
            "fail",
            "auto-recall is on, but there is no index yet",
            "run `consolidate recall --update`",
        )
    stamp = index.parent / STAMP_FILE
    updated = datetime.fromtimestamp(
        stamp.stat().st_mtime if stamp.exists() else index.stat().st_mtime, ctx.now.tzinfo
    )
    age = ctx.now - updated
    if age > timedelta(days=1) and age.total_seconds() > ctx.config.recall_refresh_minutes * 120:
        return Check("recall-index", "warn", f"the recall index was last updated {updated:%Y-%m-%d %H:%M}",
                     "run `consolidate recall --update` (and see the hook log if that keeps happening)")  # fmt: skip
    return Check.ok("recall-index", f"auto-recall on; index updated {updated:%Y-%m-%d %H:%M}")


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
