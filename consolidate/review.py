"""Review: show each proposal with its diff, and let a person approve all, some or none."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from .apply import apply_change  # the preview runs the same code as the real change
from .console import print_diff
from .discover.text import clip
from .errors import NoAnswer
from .plan import (
    CONTRADICT_WARNING,
    L0_WARNING,
    Plan,
    Proposal,
    ProposalGroup,
    WriteScope,
    check_scope,
    link_target,
)
from .secrets import redact
from .workspace import ChangeFailed, DiskReads, Workspace

Ask = Callable[[str], str]


def proposed_files(
    plan: Plan,
    proposal: Proposal,
    scope: WriteScope,
    *,
    after: Sequence[Proposal] = (),
    disk: DiskReads | None = None,
) -> list[tuple[str, str | None, str | None]]:
    """(name, text before, text after — None when removed) of each file the proposal would change, on
    the current files (or on what the proposals `after` make of them, when it is always applied with
    them). Raises ChangeFailed when one of its changes cannot be made. Previews of one plan may share
    `disk`, so each file is read once for all of them."""
    paths = check_scope(plan, [*after, proposal], scope, with_snapshot=False)
    workspace = Workspace(scope.memory_dir, disk)
    try:
        for change in (c for base in after for c in base.changes):
            apply_change(workspace, change, paths)
    except ChangeFailed:
        pass  # the base shows its own failure; this one is previewed on the files as they are
    base = workspace.contents()
    for change in proposal.changes:
        apply_change(workspace, change, paths)
    return _files_since(workspace, base)


def preview_diff(plan: Plan, proposal: Proposal, scope: WriteScope, *, after: Sequence[Proposal] = ()) -> str:
    """The unified diff this proposal would make on the current files (or on what the proposals
    `after` make of them, when it is always applied with them)."""
    try:
        return diff_of(proposed_files(plan, proposal, scope, after=after))
    except ChangeFailed as exc:
        return f"# cannot be applied as planned: {exc}\n"


def preview_group_diff(plan: Plan, proposals: list[Proposal], scope: WriteScope) -> str:
    """The unified diff these proposals make together, applied in order on the current files."""
    if len(proposals) == 1:
        return preview_diff(plan, proposals[0], scope)
    paths = check_scope(plan, proposals, scope, with_snapshot=False)
    workspace = Workspace(scope.memory_dir, DiskReads())  # each file read, and the index files listed, once
    try:
        for change in (c for proposal in proposals for c in proposal.changes):
            apply_change(workspace, change, paths)
    except ChangeFailed as exc:
        return f"# cannot be applied as planned: {exc}\n"
    return diff_of(_files_since(workspace, {}))


def _files_since(
    workspace: Workspace, base: dict[Path, bytes | None]
) -> list[tuple[str, str | None, str | None]]:
    """(name, before, after) of every file the workspace changed since `base` (the disk for files not
    in it)."""
    changed = {p: d for p, d in workspace.changes().items() if base.get(p, d) != d or p not in base}
    files: list[tuple[str, str | None, str | None]] = []
    for path, after_bytes in sorted(changed.items(), key=lambda item: str(item[0])):
        before_bytes = base[path] if path in base else (path.read_bytes() if path.is_file() else None)
        before = None if before_bytes is None else before_bytes.decode("utf-8", "replace")  # None: new
        name = workspace.name(path)
        real = link_target(path)
        if real is not None:
            name += f" (symlink to {real})"  # the reviewer sees which file really changes
        new = None if after_bytes is None else after_bytes.decode("utf-8", "replace")
        files.append((name, before, new))
    return files


def diff_of(files: list[tuple[str, str | None, str | None]]) -> str:
    """The unified diff of (name, before, after) files (None: the file does not exist), redacted."""
    parts: list[str] = []
    for name, before, after in files:
        parts.extend(
            difflib.unified_diff(
                (before or "").splitlines(keepends=True),
                (after or "").splitlines(keepends=True),
                fromfile=f"a/{name.lstrip('/')}"
                if before is not None
                else "/dev/null",  # an empty file is one
                tofile=f"b/{name.lstrip('/')}" if after is not None else "/dev/null",
            )
        )
    text = "".join(line if line.endswith("\n") else line + "\n" for line in parts)
    return redact(text)  # a diff is shown and stored: it never carries a secret, even one being removed


def render_proposal(proposal: Proposal, diff: str, *, l0: bool | None = None) -> str:
    """The block a reviewer reads for one proposal. Text that comes from the plan is put on one line
    and the diff in a fence longer than any backtick run inside it, so nothing in a plan can hide or
    fake what its changes do."""
    target = proposal.target.file + (f" → {proposal.target.section}" if proposal.target.section else "")
    lines = [
        f"### [{proposal.action}] Learning: {_one_line(summary_of(proposal))}  ({_one_line(proposal.id)})",
        f"**Target:** {_one_line(target)}",
        f"**Rationale:** {_one_line(proposal.rationale) or '—'}",
    ]
    if l0 if l0 is not None else proposal.layer == "L0":
        lines.append(f"**Warning:** {_warning(proposal)}")
    elif proposal.warning == CONTRADICT_WARNING:
        lines.append(f"**Warning:** {CONTRADICT_WARNING}")
    if proposal.evidence and proposal.evidence[0].quote.strip():
        lines.append(f"**Evidence:** “{_one_line(proposal.evidence[0].quote)[:160]}”")
    if note_of(proposal):
        lines.append(f"**Note (not written):** {note_of(proposal)}")
    return _with_diff(lines, diff)


def summary_of(proposal: Proposal) -> str:
    """A proposal's summary as a person reads it: without the category label it may start with
    ("MERGE: …", "STALE: …"), which the header and the plan's category field say already."""
    label = f"{proposal.category}: " if proposal.category else ""
    summary = proposal.summary
    return (
        summary[len(label) :]
        if label and summary.startswith(label) and summary[len(label) :].strip()
        else summary
    )


def _warning(proposal: Proposal) -> str:
    """Why a proposal is applied only when confirmed: it changes ~/.claude/CLAUDE.md, or it replaces a
    remembered statement with its opposite."""
    return _one_line(proposal.warning) if proposal.warning == CONTRADICT_WARNING else L0_WARNING


def note_of(proposal: Proposal) -> str:
    """What the discoverer said to the reviewer about the learning: shown, never written."""
    learning = (proposal.model_extra or {}).get("learning")
    return _one_line(str(learning.get("note", ""))) if isinstance(learning, dict) else ""


def _with_diff(lines: list[str], diff: str) -> str:
    """The header lines, then the diff in a fence longer than any backtick run inside it."""
    body = diff or "(no change)\n"
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", body)), default=0))
    return "\n".join(lines) + f"\n\n{fence}diff\n{body}{fence}\n"


def show_proposal(proposal: Proposal, diff: str, out: TextIO, *, l0: bool | None = None) -> None:
    """Print a proposal as plain text (never rendered as Markdown), its diff coloured on a terminal."""
    header, _, fenced = render_proposal(proposal, diff, l0=l0).partition("\n\n")
    out.write(header + "\n\n")
    print_diff(fenced, out)
    out.write("\n")


# -- groups: proposals of one kind and reason, decided as one ------------------------------------


def render_group(
    group: ProposalGroup, members: list[Proposal], diff: str, *, l0: set[str] | None = None
) -> str:
    """The block a reviewer reads for a group: what its items have in common, each item on one line
    (its id selects it alone), then every item's diff in one fence."""
    targets = ", ".join(f"{_one_line(name)} ({n})" for name, n in group.targets.items()) or "—"
    lines = [
        f"### [{group.action} ×{len(members)}] Learning: {_one_line(group.summary)}"
        f"  ({_one_line(group.id)}: all of them; or pick items by id)",
        f"**Targets:** {targets}",
        f"**Rationale:** {_one_line(group.rationale) or '—'}",
        "**Items:**",
    ]
    for member in members:
        what = (
            "contradicts a remembered statement"
            if member.warning == CONTRADICT_WARNING
            else "changes ~/.claude/CLAUDE.md"
        )
        warning = f" — {what}, confirmed one by one" if l0 and member.id in l0 else ""
        lines.append(f"- {_one_line(member.id)}: {_one_line(summary_of(member))}{warning}")
        if member.evidence and member.evidence[0].quote.strip():
            lines.append(f"  evidence: {_one_line(member.evidence[0].quote)[:160]}")
        if note_of(member):
            lines.append(f"  note (not written): {note_of(member)}")
    return _with_diff(lines, diff)


def show_plan(plan: Plan, diff_for: Callable[[list[Proposal]], str], out: TextIO, l0: set[str]) -> None:
    """Every proposal of `plan`, a group as one block with the diff of all its items together; then
    how many proposals wait for the next run."""
    by_id = {p.id: p for p in plan.proposals}
    shown: set[str] = set()
    groups = {item: g for g in plan.groups for item in g.items}
    for proposal in plan.select(None):
        if proposal.id in shown:
            continue
        group = groups.get(proposal.id)
        if group is None:
            show_proposal(proposal, diff_for([proposal]), out, l0=proposal.id in l0)
            shown.add(proposal.id)
            continue
        members = [by_id[i] for i in group.items]
        shown.update(group.items)
        header, _, fenced = render_group(group, members, diff_for(members), l0=l0).partition("\n\n")
        out.write(header + "\n\n")
        print_diff(fenced, out)
        out.write("\n")
    if plan.waiting:
        out.write(f"{plan.waiting} more proposal(s) wait for the next run, so this review stays short\n")


def decision_count(plan: Plan) -> int:
    """How many decisions the review asks for: one per group, one per proposal outside a group."""
    grouped = {item for g in plan.groups for item in g.items}
    return len(plan.groups) + sum(p.id not in grouped for p in plan.proposals)


def _one_line(text: str) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def ask_approval(
    proposals: list[Proposal],
    ask: Ask,
    l0: set[str] | None = None,
    groups: list[ProposalGroup] | None = None,
    *,
    set_aside: list[Proposal] | None = None,
    rejected: list[str] | None = None,
) -> list[str]:
    """Approve all / select / reject; L0 proposals are confirmed one by one. Returns approved ids.
    At the select prompt a group id (G1) takes all of its items, a proposal id (P3) one of them, and a
    proposal `set_aside` (already recorded) may be named too; an id after a minus (-P2, -G1) is turned
    down. A reject, or a turned-down id, fills `rejected` with every id it turned down. Leaving the prompt (end of input, Ctrl-C) raises NoAnswer: nothing is applied and
    nothing counts as rejected."""
    try:
        return _ask_approval(proposals, ask, l0, groups or [], set_aside or [], rejected)
    except EOFError:
        raise NoAnswer("no answer at the prompt (end of input): nothing applied") from None
    except KeyboardInterrupt:
        raise NoAnswer("interrupted at the prompt: nothing applied", exit_code=130) from None


def _ask_approval(
    proposals: list[Proposal],
    ask: Ask,
    l0: set[str] | None,
    groups: list[ProposalGroup],
    set_aside: list[Proposal],
    rejected: list[str] | None,
) -> list[str]:
    if not proposals and not set_aside:
        return []
    ids = [p.id for p in proposals]
    members = {g.id: g.items for g in groups}
    in_groups = f" in {len(groups)} group(s)" if groups else ""
    while True:
        answer = (
            ask(f"Apply {len(proposals)} proposal(s){in_groups}? [a]ll / [s]elect / [r]eject: ")
            .strip()
            .lower()
        )
        if answer in ("a", "all", "y", "yes"):
            chosen = ids
            break
        if answer in ("r", "reject", "n", "no", "q", ""):
            if rejected is not None:
                rejected.extend(ids)
            return []
        if answer in ("s", "select"):
            chosen, unknown = _select(proposals, groups, set_aside, ask, "")
            while unknown:
                problem = f"unknown id(s): {', '.join(unknown)}\n"
                chosen, unknown = _select(proposals, groups, set_aside, ask, problem)
            named = [item for pid in chosen if pid[:1] != "-" for item in members.get(pid, [pid])]
            turned_down = [  # "-P2": rejected, like a reject of the whole plan but for that one
                item
                for pid in chosen
                if pid[:1] == "-"
                for item in members.get(pid[1:], [pid[1:]])
                if item in ids
            ]
            chosen = [pid for pid in named if pid not in turned_down]
            if rejected is not None:
                rejected.extend(turned_down)
            break
    approved = []
    every = proposals + set_aside
    for proposal in every:
        if proposal.id not in chosen:
            continue
        if proposal.id in (l0 if l0 is not None else {p.id for p in every if p.layer == "L0"}):
            reply = ask(f"{proposal.id}: {_warning(proposal)} Confirm? [y/N]: ").strip().lower()
            if reply not in ("y", "yes"):
                continue
        approved.append(proposal.id)
    return approved


def _select(
    proposals: list[Proposal], groups: list[ProposalGroup], set_aside: list[Proposal], ask: Ask, problem: str
) -> tuple[list[str], list[str]]:
    """The ids picked (any case) from a list that shows each id (a group's, then each proposal's, then
    each set-aside one's) with its summary; (chosen, unknown)."""
    rows = [(g.id, f"{g.action} ×{len(g.items)}", g.summary) for g in groups]
    rows += [(p.id, p.action, summary_of(p)) for p in proposals]
    rows += [(p.id, f"{p.action}, already recorded", summary_of(p)) for p in set_aside]
    listing = "".join(f"  {pid}  [{action}] {_one_line(summary)[:100]}\n" for pid, action, summary in rows)
    picked = ask(
        f"{problem}{listing}Which ids (comma-separated; -P2 rejects P2 so it is not proposed again): "
    )
    by_key = {pid.casefold(): pid for pid, _, _ in rows}
    typed = [pid.strip() for pid in picked.replace(" ", ",").split(",") if pid.strip()]
    chosen = [
        ("-" if pid[:1] == "-" else "") + by_key.get(pid.lstrip("-").casefold(), pid.lstrip("-"))
        for pid in typed
    ]
    return chosen, [pid for pid in chosen if pid.lstrip("-") not in by_key.values()]


def show_set_aside(plan: Plan, out: TextIO) -> None:
    """One line per proposal set aside as already recorded: the entry it matched, and how to keep it."""
    for proposal in plan.proposals:
        skipped = proposal.skipped
        if skipped is None:
            continue
        matched = skipped.get("matched") or {}
        where = f" ({_one_line(str(matched.get('file', '')))})" if matched.get("file") else ""
        out.write(
            f"skipped {proposal.id}: already recorded as “{clip(_one_line(str(matched.get('entry', ''))), 200)}”"
            f"{where} — {_one_line(summary_of(proposal))}; keep it anyway with --keep {proposal.id}\n"
        )


def set_aside_learnings(backlog: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The learnings a plan sets aside for a reason of their own (a contradiction, say; not the ADD
    cap), each with the id the review names it by: S1, S2, … in the plan's order."""
    aside = [item for item in backlog if not str(item.get("reason", "")).startswith("ADD cap")]
    return [(f"S{number}", item) for number, item in enumerate(aside, start=1)]


def show_waiting(backlog: list[dict[str, Any]], out: TextIO, dry: bool = False) -> None:
    """The learnings a plan leaves in the backlog: each one set aside for a reason of its own (a
    contradiction, say) on its own line with its id, then how many wait. A dry run saves no backlog:
    it says what a real run would keep there."""
    aside = set_aside_learnings(backlog)
    waits, wait = ("a real run keeps it", "a real run keeps them") if dry else ("it waits", "wait")
    for sid, item in aside:
        title, reason = _one_line(str(item.get("title", ""))), _one_line(str(item.get("reason", "")))
        out.write(
            f"set aside {sid}: {title} — {reason}; {waits} in the backlog "
            f"(reject it with --retire {sid} if the remembered entry is right)\n"
        )
    capped = len(backlog) - len(aside)
    if dry:
        out.write(
            f"{len(backlog)} more learning(s) "
            + (
                "past the ADD cap: "
                if not aside
                else f"({capped} past the ADD cap, {len(aside)} set aside): "
            )
            + f"{wait} in the backlog for the next dream (this dry run saves none)\n"
        )
        return
    out.write(
        f"{capped} more learning(s) past the ADD cap wait in the backlog for the next dream\n"
        if not aside
        else f"{len(backlog)} more learning(s) wait in the backlog for the next dream "
        f"({capped} past the ADD cap, {len(aside)} set aside)\n"
    )


def ask_retirements(aside: list[tuple[str, dict[str, Any]]], ask: Ask) -> list[str]:
    """Which learnings set aside to reject (retire): ids, or nothing to let them all wait. Leaving the
    prompt raises NoAnswer, as at the approval prompt."""
    by_key = {sid.casefold(): sid for sid, _ in aside}
    problem = ""
    try:
        while True:
            picked = ask(
                f"{problem}Reject set-aside learning(s) ({', '.join(by_key.values())}) because the remembered "
                "entry is right? ids, or Enter to let them wait: "
            )
            typed = [pid.strip() for pid in picked.replace(" ", ",").split(",") if pid.strip()]
            unknown = [pid for pid in typed if pid.casefold() not in by_key]
            if not unknown:
                return [by_key[pid.casefold()] for pid in typed]
            problem = f"unknown id(s): {', '.join(unknown)}\n"
    except EOFError:
        raise NoAnswer("no answer at the prompt (end of input): nothing applied") from None
    except KeyboardInterrupt:
        raise NoAnswer("interrupted at the prompt: nothing applied", exit_code=130) from None


def show_backlog(waiting: int, out: TextIO) -> None:
    if waiting:
        out.write(f"{waiting} learning(s) wait in the backlog: the next dream proposes them first\n")
