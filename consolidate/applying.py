"""Apply a plan the way a person asked: review when on a terminal, then lock, apply, report."""

from __future__ import annotations

from typing import TextIO

from .apply import ApplyReport, apply_plan, l0_proposals
from .console import ask_on_terminal, is_terminal, print_table, warn
from .errors import UsageError
from .plan import Plan, Proposal
from .review import (
    Ask,
    ask_approval,
    preview_group_diff,
    show_backlog,
    show_plan,
    show_set_aside,
    summary_of,
)
from .runs import journal_dir, parts_dir, write_scope, writing_run
from .settings import Settings


def choose(
    plan: Plan,
    settings: Settings,
    *,
    only: list[str] | None,
    yes: bool,
    stdin: TextIO,
    out: TextIO,
    ask: Ask | None = None,
    rejected: list[str] | None = None,
) -> tuple[list[str] | None, bool]:
    """The ids to apply and whether L0 changes are confirmed, from flags or by asking (a reject fills
    `rejected`)."""
    if only is not None:
        plan.select(only)  # unknown ids are a usage error before anything else happens
        return plan.expand(only), True
    if yes:
        return None, False
    if ask is None and not is_terminal(stdin):
        raise UsageError("no terminal to confirm on: pass --yes to apply all, or --only P1,P3")
    scope = write_scope(settings)
    l0 = l0_proposals(plan, scope)
    # the diff from the changes themselves, never the plan's own text
    show_plan(plan, lambda proposals: preview_group_diff(plan, proposals, scope), out, l0)
    set_aside = [p for p in plan.proposals if p.skipped is not None]
    show_set_aside(plan, out)
    approved = ask_approval(
        plan.select(None), ask or ask_on_terminal, l0, plan.groups, set_aside=set_aside, rejected=rejected
    )
    return approved, True


def run_apply(
    plan: Plan,
    settings: Settings,
    *,
    only: list[str] | None,
    yes: bool,
    stdin: TextIO,
    out: TextIO,
    ask: Ask | None = None,
) -> ApplyReport | None:
    if not plan.proposals:
        out.write("nothing to apply: the plan has no proposals\n")
        return None
    rejected: list[str] = []
    ids, confirm_l0 = choose(
        plan, settings, only=only, yes=yes, stdin=stdin, out=out, ask=ask, rejected=rejected
    )
    if ids is not None and not ids:
        with writing_run(settings):
            _record_learnings(settings, plan, None, rejected)
        out.write("nothing approved; no file was changed\n")
        return None
    from .dream.backlog import backlog_file, read_bytes

    with writing_run(settings):
        before = read_bytes(backlog_file(settings))  # what undo puts back with the files
        report = apply_plan(
            plan,
            write_scope(settings),
            only=ids,
            confirm_l0=confirm_l0,
            journal_dir=journal_dir(settings),
            parts_dir=parts_dir(settings),
        )
        waiting = _record_learnings(settings, plan, report, rejected)
        if report.journal is not None:
            report.journal.attach(backlog_file(settings), before, "backlog")
    print_summary(report, out)
    show_backlog(waiting, out)
    ack_queue_items(settings, report, [q for p in plan.proposals if p.id in rejected for q in queue_ids(p)])
    return report


def reject_plan(plan: Plan, settings: Settings, ids: list[str] | None, out: TextIO) -> None:
    """Apply nothing; the learnings of the proposals `ids` (every proposal when None) and of the
    learnings set aside among `ids` (S1…) are rejected: remembered so that they are not proposed
    again, their capture-queue items settled."""
    from .dream.backlog import Backlog
    from .dream.run import retire_set_aside
    from .review import set_aside_learnings

    aside = {sid.casefold(): sid for sid, _ in set_aside_learnings(plan.backlog)}
    retired = [aside[i.casefold()] for i in ids or [] if i.casefold() in aside]
    chosen = (
        plan.select([i for i in ids if i.casefold() not in aside]) if ids is not None else plan.select(None)
    )
    rejected = [p.id for p in chosen]
    with writing_run(settings):
        _record_learnings(settings, plan, None, rejected)
        if retired:
            retire_set_aside(plan, retired, Backlog.load(settings), out)
    ack_queue_items(settings, None, [q for p in chosen for q in queue_ids(p)])
    if rejected or not retired:
        out.write(f"rejected {len(rejected)} proposal(s): nothing changed; {what_rejection_does(chosen)}\n")


def what_rejection_does(rejected: list[Proposal]) -> str:
    """What becomes of rejected proposals: a learning is retired for good; an audit finding (a REMOVE,
    EDIT, MERGE of what memory holds) is not a learning, and the next dream finds it again while the
    memory still says what it found."""
    learnings = [p.id for p in rejected if (p.model_extra or {}).get("learning_id")]
    findings = [p.id for p in rejected if p.id not in learnings]
    told = []
    if learnings:
        told.append(f"the rejected learnings ({', '.join(learnings)}) will not be proposed again")
    if findings:
        told.append(
            f"{', '.join(findings)} {'is an audit finding' if len(findings) == 1 else 'are audit findings'}"
            ", proposed again while the memory still holds what was found"
        )
    return "; ".join(told) or "nothing to retire"


def _record_learnings(settings: Settings, plan: Plan, report: ApplyReport | None, rejected: list[str]) -> int:
    """Settle, retire or keep the plan's learnings in the backlog; how many wait there now."""
    from .dream.backlog import Backlog

    backlog = Backlog.load(settings)
    done = {r.proposal.id for r in report.results if r.done} if report is not None else set()
    marked = report is not None and report.marker_written
    backlog.record(plan, done=done, rejected=set(rejected), marked=marked, settled=[])
    backlog.save()
    return len(backlog)


def queue_ids(proposal: Proposal) -> list[str]:
    """The capture-queue items a proposal carries (an extra field of the plan)."""
    return [str(q) for q in (proposal.model_extra or {}).get("queue_ids", [])]


def ack_queue_items(settings: Settings, report: ApplyReport | None, extra: list[str]) -> list[str]:
    """Ack queue items whose proposal was applied, plus `extra` (rejected or already recorded)."""
    ids = list(extra)
    if report is not None:
        ids += [q for r in report.results if r.done for q in queue_ids(r.proposal)]
    if not ids:
        return []
    from .capture.queue import ack

    try:
        return ack(
            settings.layout.git_root or settings.layout.project,
            dict.fromkeys(ids),
            home=settings.layout.claude_home,
        )
    except Exception as exc:  # the memory is written; a queue problem must not turn that into a failure
        warn(f"capture queue not updated: {exc}")
        return []


def print_summary(report: ApplyReport, out: TextIO) -> None:
    rows = []
    for result in report.results:
        proposal = result.proposal
        target = proposal.target.file + (f" → {proposal.target.section}" if proposal.target.section else "")
        rows.append([summary_of(proposal), proposal.action, target, result.status])
    if rows:  # a run that only marks the sessions as read has nothing to list
        print_table(["Learning", "Action", "Target", "Status"], rows, out)
    for problem in report.problems:
        out.write(f"verification: {problem}\n")
    for note in report.notes:
        out.write(f"{note}\n")
    if report.journal is not None:
        out.write(f"\njournaled as {report.journal.run_id}; `consolidate undo` restores the previous state\n")
    if report.marker_written:
        out.write("wrote .last-consolidation\n")
