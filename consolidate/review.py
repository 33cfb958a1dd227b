"""Review: show each proposal with its diff, and let a person approve all, some or none."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import TextIO

from .apply import apply_change  # the preview runs the same code as the real change
from .console import print_diff
from .errors import NoAnswer
from .plan import L0_WARNING, Plan, Proposal, WriteScope, check_scope, link_target
from .secrets import redact
from .workspace import ChangeFailed, Workspace

Ask = Callable[[str], str]


def preview_diff(plan: Plan, proposal: Proposal, scope: WriteScope, *, after: Sequence[Proposal] = ()) -> str:
    """The unified diff this proposal would make on the current files (or on what the proposals
    `after` make of them, when it is always applied with them)."""
    paths = check_scope(plan, [*after, proposal], scope, with_snapshot=False)
    workspace = Workspace(scope.memory_dir)
    try:
        for change in (c for base in after for c in base.changes):
            apply_change(workspace, change, paths)
    except ChangeFailed:
        pass  # the base shows its own failure; this one is previewed on the files as they are
    base = workspace.contents()
    try:
        for change in proposal.changes:
            apply_change(workspace, change, paths)
    except ChangeFailed as exc:
        return f"# cannot be applied as planned: {exc}\n"
    parts: list[str] = []
    changed = {p: d for p, d in workspace.changes().items() if base.get(p, d) != d or p not in base}
    for path, after_bytes in sorted(changed.items(), key=lambda item: str(item[0])):
        before_bytes = base[path] if path in base else (path.read_bytes() if path.is_file() else None)
        before = (before_bytes or b"").decode("utf-8", "replace")
        name = workspace.name(path)
        real = link_target(path)
        if real is not None:
            name += f" (symlink to {real})"  # the reviewer sees which file really changes
        new = "" if after_bytes is None else after_bytes.decode("utf-8", "replace")
        parts.extend(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"a/{name.lstrip('/')}" if before else "/dev/null",
                tofile=f"b/{name.lstrip('/')}" if after_bytes is not None else "/dev/null",
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
        f"### [{proposal.action}] Learning: {_one_line(proposal.summary)}  ({_one_line(proposal.id)})",
        f"**Target:** {_one_line(target)}",
        f"**Rationale:** {_one_line(proposal.rationale) or '—'}",
    ]
    if l0 if l0 is not None else proposal.layer == "L0":
        lines.append(f"**Warning:** {L0_WARNING}")
    if proposal.evidence and proposal.evidence[0].quote.strip():
        lines.append(f"**Evidence:** “{_one_line(proposal.evidence[0].quote)[:160]}”")
    body = diff or "(no change)\n"
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", body)), default=0))
    return "\n".join(lines) + f"\n\n{fence}diff\n{body}{fence}\n"


def show_proposal(proposal: Proposal, diff: str, out: TextIO, *, l0: bool | None = None) -> None:
    """Print a proposal as plain text (never rendered as Markdown), its diff coloured on a terminal."""
    header, _, fenced = render_proposal(proposal, diff, l0=l0).partition("\n\n")
    out.write(header + "\n\n")
    print_diff(fenced, out)
    out.write("\n")


def _one_line(text: str) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def ask_approval(proposals: list[Proposal], ask: Ask, l0: set[str] | None = None) -> list[str]:
    """Approve all / select / reject; L0 proposals are confirmed one by one. Returns approved ids.
    Leaving the prompt (end of input, Ctrl-C) raises NoAnswer: nothing is applied and nothing counts
    as rejected."""
    try:
        return _ask_approval(proposals, ask, l0)
    except EOFError:
        raise NoAnswer("no answer at the prompt (end of input): nothing applied") from None
    except KeyboardInterrupt:
        raise NoAnswer("interrupted at the prompt: nothing applied", exit_code=130) from None


def _ask_approval(proposals: list[Proposal], ask: Ask, l0: set[str] | None) -> list[str]:
    if not proposals:
        return []
    known = [p.id for p in proposals]
    while True:
        answer = ask(f"Apply {len(proposals)} proposal(s)? [a]ll / [s]elect / [r]eject: ").strip().lower()
        if answer in ("a", "all", "y", "yes"):
            chosen = known
            break
        if answer in ("r", "reject", "n", "no", "q", ""):
            return []
        if answer in ("s", "select"):
            chosen, unknown = _select(proposals, ask, "")
            while unknown:
                chosen, unknown = _select(proposals, ask, f"unknown id(s): {', '.join(unknown)}\n")
            break
    approved = []
    for proposal in proposals:
        if proposal.id not in chosen:
            continue
        if proposal.id in (l0 if l0 is not None else {p.id for p in proposals if p.layer == "L0"}):
            reply = ask(f"{proposal.id}: {L0_WARNING} Confirm? [y/N]: ").strip().lower()
            if reply not in ("y", "yes"):
                continue
        approved.append(proposal.id)
    return approved


def _select(proposals: list[Proposal], ask: Ask, problem: str) -> tuple[list[str], list[str]]:
    """The ids picked (any case) from a list that shows each id with its summary; (chosen, unknown)."""
    listing = "".join(f"  {p.id}  [{p.action}] {_one_line(p.summary)[:100]}\n" for p in proposals)
    picked = ask(f"{problem}{listing}Which ids (comma-separated): ")
    by_key = {p.id.casefold(): p.id for p in proposals}
    typed = [pid.strip() for pid in picked.replace(" ", ",").split(",") if pid.strip()]
    chosen = [by_key.get(pid.casefold(), pid) for pid in typed]
    return chosen, [pid for pid in chosen if pid not in by_key.values()]
