"""`consolidate share`: plan what to share, review it like a dream, apply it through the journaled engine.

It writes the team folder and the project CLAUDE.md's import line, and never commits or pushes: the
change is reviewed like code.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TextIO

from ..apply import ApplyReport, apply_plan
from ..applying import print_summary
from ..dream.gather import GatherResult
from ..dream.orient import orient
from ..dream.run import DreamOptions, review_plan
from ..dream.synthesize import build_plan
from ..errors import UsageError
from ..fsutil import atomic_write
from ..gitrepo import GitRepo
from ..plan import Plan, Proposal
from ..review import Ask, preview_diff
from ..runs import journal_dir, write_scope, writing_run
from ..settings import Settings
from .share import SETUP, ShareRequest, share_drafts


@dataclass
class ShareOptions:
    yes: bool = False
    only: list[str] | None = None
    dry_run: bool = False
    json: bool = False
    include_personal: bool = False


SET_NAME = 'git config user.name "Your Name"'
UNNAMED = "(git config user.name not set)"  # who shares, in a dry run's preview only


def sharer(settings: Settings, dry_run: bool = False) -> str:
    """Who shares: `git config user.name` of the checkout, which the team copies record. A dry run
    writes nothing, so it needs no name: its preview says it is not set."""
    root = settings.layout.git_root
    if root is None:
        raise UsageError(
            f"{settings.layout.project} is not in a git repository: the team memory folder lives in one"
        )
    repo = GitRepo.find(root)
    name = repo.user_name() if repo is not None else ""
    if not name and dry_run:
        return UNNAMED
    if not name:
        raise UsageError(
            f"git config user.name is not set (each shared entry records who shared it): run {SET_NAME}"
        )
    return name


def memory_id(settings: Settings, keep: bool = True) -> str:
    """A random id of this memory dir, kept in our state dir: what was shared from it is recognised
    as its own (to edit or remove later), and nothing about the machine or its paths leaves with it.
    Not `keep`: a dry run makes one for the plan it shows and writes nothing."""
    path = settings.run_dir("share") / "memory-id"
    try:
        known = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        known = ""
    if len(known) == 16 and all(c in "0123456789abcdef" for c in known):
        return known
    fresh = uuid.uuid4().hex[:16]
    if keep:
        atomic_write(path, fresh.encode("ascii"))
    return fresh


def plan_share(settings: Settings, options: ShareOptions) -> Plan:
    """The share plan on the current files; the caller holds the run lock."""
    who = sharer(settings, dry_run=options.dry_run)
    request = ShareRequest(
        who,
        datetime.now(UTC).date(),
        options.include_personal,
        memory_id(settings, keep=not options.dry_run),
    )
    snapshot = orient(settings, create=False)
    planned = share_drafts(snapshot, request)
    notes = list(planned.notes)
    if who == UNNAMED:
        notes.append(f"git config user.name is not set: a real share needs it ({SET_NAME})")
    plan = build_plan(snapshot, GatherResult(), "share", planned.drafts, notes)
    setup = setup_of(plan)
    if setup is not None:  # every other proposal is applied with it, so it is shown on top of it
        scope = write_scope(settings)
        for proposal in plan.proposals:
            if proposal is not setup:
                proposal.diff = preview_diff(plan, proposal, scope, after=[setup])
    return plan


def setup_of(plan: Plan) -> Proposal | None:
    """The proposal that creates the team index and the CLAUDE.md import line, when one is needed."""
    return next((p for p in plan.proposals if p.category == SETUP), None)


def run_share(
    settings: Settings,
    options: ShareOptions,
    *,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    ask: Ask | None = None,
) -> ApplyReport | None:
    shown = err if options.json else out
    with writing_run(settings, dry=options.dry_run):
        plan = plan_share(settings, options)
        for note in plan.notes:
            shown.write(f"{note}\n")
        if options.json:
            out.write(plan.to_json())
        if not plan.proposals:
            shown.write("nothing to share: the team memory already has what your memory can share\n")
            return None
        review = DreamOptions(yes=options.yes, only=options.only, dry_run=options.dry_run, json=options.json)
        ids = review_plan(plan, review, out=shown, stdin=stdin, ask=ask, l0=set()).ids
        if ids is None:
            return None
        ids = with_setup(plan, ids, shown)
        if not ids:
            shown.write("nothing approved; no file was changed\n")
            return None
        report = apply_plan(plan, write_scope(settings), only=ids, journal_dir=journal_dir(settings))
    print_summary(report, shown)
    if any(r.done for r in report.results):
        shown.write(
            "nothing was committed: review the change with `git status` and `git diff`, "
            "then commit .claude/team-memory/ and CLAUDE.md\n"
        )
    return report


def with_setup(plan: Plan, ids: list[str], out: TextIO) -> list[str]:
    """The approved ids, with the proposal that creates the folder and its import line whenever an
    entry is approved: without it the entries would not be loaded."""
    setup = setup_of(plan)
    wanted = {i.casefold() for i in ids}
    if setup is None or setup.id.casefold() in wanted:
        return ids
    if any(p.id.casefold() in wanted and p.action in ("ADD", "EDIT") for p in plan.proposals):
        out.write(f"{setup.id} ({setup.summary}) is applied with them\n")
        return [setup.id, *ids]
    return ids
