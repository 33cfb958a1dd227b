"""`consolidate dream`: orient → gather → synthesise → review → apply, under the memory dir's lock."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from ..apply import ApplyReport, apply_plan, l0_proposals
from ..applying import ack_queue_items, print_summary, queue_ids, what_rejection_does
from ..console import ask_on_terminal, is_terminal, warn
from ..engines import Engine, get_engine
from ..errors import ConsolidateError, UsageError
from ..fsutil import atomic_write
from ..marker import read_marker
from ..periodic.store import discard_pending, pending_dir
from ..plan import Plan, Proposal, WriteScope, load_plan
from ..progress import Progress
from ..review import (
    Ask,
    ask_approval,
    ask_retirements,
    preview_group_diff,
    set_aside_learnings,
    show_backlog,
    show_plan,
    show_set_aside,
    show_waiting,
)
from ..runs import journal_dir, write_scope, writing_run
from ..settings import Settings
from .backlog import Backlog, candidate_of, read_bytes
from .gather import GatherResult, bare_reason, gather
from .orient import orient
from .synthesize import Synthesis, synthesize


@dataclass
class DreamOptions:
    engine: str | None = None
    yes: bool = False
    only: list[str] | None = None
    keep: list[str] | None = None  # proposals set aside as already recorded, to apply anyway
    retire: list[str] | None = None  # learnings set aside (S1…) to reject; None: ask on a terminal
    dry_run: bool = False
    json: bool = False
    plan_out: Path | None = None
    prepare: bool = False  # keep the plan as the pending plan, apply nothing
    since: datetime | None = None
    max_add: int = 7
    fallback: str | None = None  # "offline": run offline when the engine cannot run at all
    undecided: str = "or --plan-out FILE"  # how a review with no terminal to ask on is told to go on


@dataclass
class DreamResult:
    plan: Plan
    gathered: GatherResult | None  # None for a prepared plan reviewed later
    report: ApplyReport | None = None
    acked: list[str] | None = None
    decided: bool = False  # a person (or --yes / --only) decided: the plan is settled


@dataclass
class MadePlan:
    """A plan and what its review settles besides: the queue items it found recorded or noise, and
    the backlog learnings it found recorded (`settled`); `backlog` as read when it was made."""

    plan: Plan
    gathered: GatherResult | None
    settle_queue: list[str]
    settled: list[str] = field(default_factory=list)
    backlog: Backlog | None = None


@dataclass
class Decision:
    """What the review decided: the ids to apply (None: apply nothing), whether L0 is confirmed, the
    ids the person rejected, and the learnings set aside (S1…) they rejected."""

    ids: list[str] | None
    confirm_l0: bool = False
    rejected: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)


def run_dream(
    settings: Settings,
    options: DreamOptions,
    *,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    ask: Ask | None = None,
) -> DreamResult:
    engine = ready_engine(options)
    if options.plan_out:
        check_plan_out(options.plan_out, settings)  # before any work, not after the agents ran
    progress = Progress(err)
    shown = err if options.json else out
    with writing_run(settings, dry=options.dry_run):
        made = make_plan(settings, options, engine, progress, out=out)
        if options.prepare:
            from ..periodic.prepare import keep_pending

            keep_pending(settings, made, out=shown, engine=options.engine)
            return DreamResult(made.plan, made.gathered)
        return settle_plan(settings, made, options, out=shown, stdin=stdin, ask=ask)


def make_plan(
    settings: Settings, options: DreamOptions, engine: Engine, progress: Progress, *, out: TextIO
) -> MadePlan:
    """Orient, gather, synthesise — the backlog's waiting learnings first (the caller holds the lock);
    the plan written where it was asked."""
    started = engine.started_at() or datetime.now(UTC)  # sessions after this were never read
    snapshot = orient(settings)
    if snapshot.created_index:
        skipped = "the auditor is skipped this run" if snapshot.auditor_skipped else "CLAUDE.md is audited"
        progress.say(f"MEMORY.md does not exist yet: {skipped}")
    items = _queue_items(settings)
    since = options.since or read_marker(settings.memory_dir)
    backlog = Backlog.load(settings)
    if backlog.problem:
        warn(backlog.problem)
    gathered = asyncio.run(
        gather(engine, snapshot, since=since, queue_items=items, progress=progress, read_only=options.dry_run)
    )
    synthesis = synthesize(snapshot, gathered, engine=engine.name, max_add=options.max_add, backlog=backlog)
    _report_gather(gathered, synthesis, progress, dry=options.dry_run)
    plan = synthesis.plan
    # to the microsecond: a session written earlier in the second the dream began is no session since
    plan.gathered_at = started.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if options.plan_out:
        atomic_write(options.plan_out, plan.to_json().encode("utf-8"))
        progress.say(f"plan written to {options.plan_out}")
    if options.json:
        out.write(plan.to_json())
    queue = synthesis.recorded_queue_ids + _dropped(gathered)
    return MadePlan(plan, gathered, queue, settled=list(synthesis.settled), backlog=backlog)


def settle_plan(
    settings: Settings,
    made: MadePlan,
    options: DreamOptions,
    *,
    out: TextIO,
    stdin: TextIO,
    ask: Ask | None = None,
) -> DreamResult:
    """The review of a plan and what follows it: the approved part applied through the journaled
    engine, the backlog and the queue items settled. The dream and `consolidate review` both end here."""
    plan = made.plan
    backlog = made.backlog or _current_backlog(settings)
    before = read_bytes(backlog.path)  # what undo puts back with the files this review changes
    scope = write_scope(settings)
    l0 = l0_proposals(plan, scope)
    decision = review_plan(plan, options, out=out, stdin=stdin, ask=ask, l0=l0, scope=scope)
    if decision.retired and not options.dry_run:
        retire_set_aside(plan, decision.retired, backlog, out)
    if decision.ids is None:
        show_undecided_backlog(plan, len(backlog), out)
        settled = [] if options.dry_run else made.settle_queue
        return DreamResult(plan, made.gathered, acked=ack_queue_items(settings, None, settled))
    rejected_queue = [q for p in plan.proposals if p.id in decision.rejected for q in queue_ids(p)]
    report = None
    if decision.ids or (plan.mark_consolidation and not decision.rejected):
        report = apply_plan(
            plan, scope, only=decision.ids, confirm_l0=decision.confirm_l0, journal_dir=journal_dir(settings)
        )
    done = {r.proposal.id for r in report.results if r.done} if report is not None else set()
    marked = report is not None and report.marker_written
    backlog.record(plan, done=done, rejected=set(decision.rejected), marked=marked, settled=made.settled)
    backlog.save()
    if report is not None and report.journal is not None:
        report.journal.attach(backlog.path, before, "backlog")
    if report is not None:
        print_summary(report, out)
        if decision.rejected:  # turned down at the select prompt (-P2) beside what was applied
            out.write(
                f"rejected {', '.join(decision.rejected)}: not applied; "
                f"{what_rejection_does(plan.select(decision.rejected))}\n"
            )
    elif decision.rejected:
        out.write(
            f"rejected {len(decision.rejected)} proposal(s): nothing changed; "
            f"{what_rejection_does(plan.select(decision.rejected))}\n"
        )
    show_backlog(len(backlog), out)
    acked = ack_queue_items(settings, report, rejected_queue + made.settle_queue)
    discard_pending(pending_dir(settings.state_dir, settings.memory_dir))  # this review supersedes it
    return DreamResult(plan, made.gathered, report, acked, decided=True)


def show_undecided_backlog(plan: Plan, waiting: int, out: TextIO) -> None:
    """What a review that decided nothing (a dry run, no terminal) says of the backlog: the learnings
    this plan took up from it are in the plan already, and they keep waiting, since nobody decided."""
    taken = set(plan.from_backlog)
    if not waiting or not taken:
        show_backlog(waiting, out)
        return
    mine = [p for p in plan.proposals if (p.model_extra or {}).get("learning_id") in taken]
    where = f" ({', '.join(p.id for p in mine)})" if mine else ""
    proposed = len({(p.model_extra or {}).get("learning_id") for p in mine})
    if mine and proposed < waiting:  # the others are set aside or past the ADD cap again
        out.write(
            f"{proposed} of the {waiting} learning(s) waiting in the backlog come first in this plan{where}; "
            "nothing was decided, so all of them still wait there\n"
        )
        return
    out.write(
        f"{waiting} learning(s) of the backlog come first in this plan{where}; nothing was decided, "
        "so they still wait there\n"
    )


def retire_set_aside(plan: Plan, ids: list[str], backlog: Backlog, out: TextIO) -> None:
    """Reject learnings set aside (the remembered entry is right): retired like any rejected learning,
    whether or not the rest of the plan is applied."""
    chosen = dict(set_aside_learnings(plan.backlog))
    for sid in ids:
        learning = candidate_of(chosen[sid].get("learning"))
        if learning is not None:
            backlog.reject([learning])
            title = " ".join(str(chosen[sid].get("title", "")).split())
            out.write(
                f"rejected {sid}: {title} — the remembered entry stands; it will not be proposed again\n"
            )
    backlog.save()


def _current_backlog(settings: Settings) -> Backlog:
    """The backlog as it is now (a plan prepared earlier is reviewed against it)."""
    backlog = Backlog.load(settings)
    if backlog.problem:
        warn(backlog.problem)
    return backlog


def ready_engine(options: DreamOptions) -> Engine:
    """The engine asked for, refused in one line when it cannot run (unless --fallback offline)."""
    engine = get_engine(options.engine)
    reason = engine.unavailable()
    if reason is None:
        return engine
    if options.fallback != "offline":
        raise ConsolidateError(f"{reason}; or pass --fallback offline")
    warn(f"{reason}; running the offline engine instead (--fallback offline)")
    return get_engine("offline")


def review_plan(
    plan: Plan,
    options: DreamOptions,
    *,
    out: TextIO,
    stdin: TextIO,
    ask: Ask | None,
    l0: set[str],
    scope: WriteScope | None = None,
) -> Decision:
    """Which proposals to apply; a dry run never applies, whatever else is asked."""
    if not options.json:
        show_plan(plan, _diffs(plan, scope), out, l0)
        show_set_aside(plan, out)
        if not plan.select(None):
            out.write(_nothing_to_propose(plan))
    if plan.backlog:
        show_waiting(plan.backlog, out, dry=options.dry_run)
    keep = list(options.keep or [])
    if keep:
        plan.select(keep)  # unknown ids are a usage error before anything is applied
        keep = plan.expand(keep)
    aside = set_aside_learnings(plan.backlog)
    retired = _retired(options.retire or [], aside)
    if options.dry_run:
        return Decision(None)
    if options.only is not None:
        plan.select(options.only)
        return Decision(plan.expand(options.only), True, retired=retired)
    if options.yes:
        return Decision(
            [p.id for p in plan.select(None)]
            + [k for k in keep if k not in {p.id for p in plan.select(None)}],
            retired=retired,
        )
    if options.json or options.plan_out:
        return Decision(None, retired=retired)
    terminal = ask is not None or is_terminal(stdin)
    if not plan.proposals and not (terminal and aside and options.retire is None):
        return Decision([], retired=retired)
    if not terminal:
        warn(f"no terminal to confirm on: nothing applied (pass --yes, --only P1,P3, {options.undecided})")
        return Decision(None, retired=retired)
    rejected: list[str] = []
    set_aside = [p for p in plan.proposals if p.skipped is not None]
    approved = ask_approval(
        plan.select(None), ask or ask_on_terminal, l0, plan.groups, set_aside=set_aside, rejected=rejected
    )
    if options.retire is None and aside:
        retired = ask_retirements(aside, ask or ask_on_terminal)
    return Decision(approved, True, rejected, retired)


def _retired(ids: list[str], aside: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """The set-aside learnings named (any case); an unknown id is a usage error before anything is applied."""
    by_key = {sid.casefold(): sid for sid, _ in aside}
    unknown = [sid for sid in ids if sid.casefold() not in by_key]
    if unknown:
        known = ", ".join(by_key.values()) or "none"
        raise UsageError(f"--retire {','.join(unknown)}: no such learning set aside (set aside: {known})")
    return [by_key[sid.casefold()] for sid in ids]


def _diffs(plan: Plan, scope: WriteScope | None) -> Callable[[list[Proposal]], str]:
    """A proposal's own diff (made with the plan); a group's, computed from all its items together
    (or their own diffs one after another, without a write scope to compute it in)."""

    def diff(proposals: list[Proposal]) -> str:
        if len(proposals) == 1 or scope is None:
            return "".join(p.diff for p in proposals)
        return preview_group_diff(plan, proposals, scope)

    return diff


def _nothing_to_propose(plan: Plan) -> str:
    """Say "consistent" only when it is: an index over what Claude Code loads never is."""
    over = [n for n in plan.notes if n.startswith("over budget")]
    if over:
        return f"no proposals, but MEMORY.md is not consistent: {over[0]}\n"
    if plan.gather.get("auditor_skipped"):
        return "no proposals: nothing to write from the sessions, and no memory yet to audit (no MEMORY.md, no CLAUDE.md)\n"
    return "no proposals: memory is consistent with the sessions and the code\n"


def _dropped(gathered: GatherResult) -> list[str]:
    """Queue items the discoverer dropped as noise, secrets or already recorded: settled now."""
    return list(gathered.discovery.dropped_queue_ids) if gathered.discovery else []


def check_plan_out(path: Path, settings: Settings) -> None:
    """A plan is JSON: refuse a Markdown target or one inside the memory dir (a slip of the hand)."""
    real = Path(os.path.realpath(path))
    memory = Path(os.path.realpath(settings.memory_dir))
    if real.suffix.lower() == ".md" or real == memory or memory in real.parents:
        raise UsageError(f"--plan-out {path}: write the plan outside the memory dir, to a .json file")
    if real.exists() and not _is_plan(real):
        raise UsageError(f"--plan-out {path}: the file exists and is not a plan; refusing to overwrite it")


def _is_plan(path: Path) -> bool:
    try:
        load_plan(path)
    except ConsolidateError:
        return False
    return True


def _queue_items(settings: Settings) -> list[dict[str, Any]]:
    from ..capture.queue import QUEUE_FILE, pending_items

    if not (settings.state_dir / QUEUE_FILE).exists():
        return []  # no queue yet: opening it would create one
    try:
        return pending_items(
            settings.layout.git_root or settings.layout.project, home=settings.layout.claude_home
        )
    except Exception as exc:  # an unreadable queue must not stop the dream
        warn(f"capture queue not read: {exc}")
        return []


_WAITS = re.compile(r"^waits in the backlog \(ADD cap (\d+)\): ")


def _report_gather(
    gathered: GatherResult, synthesis: Synthesis, progress: Progress, dry: bool = False
) -> None:
    for agent, reason in gathered.failures.items():
        progress.say(f"{agent} failed: {bare_reason(agent, reason)}")
    if gathered.fallback:
        progress.say("discoverer fallback: scanned the most recent sessions deterministically")
    for agent, usage in gathered.usage().items():
        if usage.input_tokens or usage.output_tokens:
            progress.say(
                f"{agent}: {usage.input_tokens} input + {usage.output_tokens} output tokens, "
                f"${usage.cost_usd:.4f} ({usage.model or 'model'}, {usage.turns} turns)"
            )
    for note in synthesis.notes:
        if dry:  # a dry run saves no backlog: say what a real run would do
            note = _WAITS.sub(r"past the ADD cap (\1), a real run keeps it in the backlog: ", note)
        progress.say(f"note: {note}")


def check_options(options: DreamOptions) -> None:
    if options.yes and options.only:
        raise UsageError("--yes and --only are exclusive: --only already says what to apply")
    if options.prepare and (options.yes or options.only or options.retire or options.dry_run):
        raise UsageError("--prepare applies nothing: review the pending plan with `consolidate review`")
    if options.dry_run and options.retire:
        raise UsageError("--dry-run writes nothing, not even a rejection: drop --dry-run or --retire")
    if options.dry_run and options.plan_out:
        raise UsageError(
            "--dry-run writes nothing, not even a plan: drop --dry-run (with --plan-out nothing is applied)"
        )
