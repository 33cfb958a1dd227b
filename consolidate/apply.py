"""Phase 4: apply approved proposals — REMOVE, MERGE, CLUSTER, then ADD/EDIT — safely.

Every change is first computed on an in-memory workspace; a proposal whose change cannot be made
fails alone and leaves nothing behind. Then the journal records the previous bytes of every file,
removals go to the trash, writes are atomic, and the result is verified against the disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote

from send2trash import send2trash

from memory_layout import CLUSTER_DIR, INDEX, parse_document
from memory_layout.pointers import find_links, has_broken_link, rebase_links, unlink
from memory_layout.tree import link_candidates

from .errors import ConsolidateError
from .fsutil import atomic_write
from .journal import COMPLETE, Journal
from .moves import move_section
from .parts import applied_before, record_part
from .plan import (
    CONTRADICT_WARNING,
    AddEntry,
    Change,
    ClusterSection,
    DropEntry,
    MoveSection,
    Plan,
    PlanError,
    Proposal,
    RedactSecrets,
    ReplaceEntry,
    ReplaceText,
    TrashFile,
    WriteFile,
    WriteScope,
    check_scope,
)
from .secrets import only_secret, redact
from .workspace import ChangeFailed, Workspace

StepHook = Callable[[str], None]


@dataclass
class ProposalResult:
    proposal: Proposal
    status: str = "pending"

    @property
    def done(self) -> bool:
        return self.status == "done"


@dataclass
class ApplyReport:
    results: list[ProposalResult]
    journal: Journal | None = None
    marker_written: bool = False
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and all(
            not r.status.startswith(("failed", "unverified")) for r in self.results
        )


def apply_plan(
    plan: Plan,
    scope: WriteScope,
    *,
    only: list[str] | None = None,
    confirm_l0: bool = False,
    journal_dir: Path,
    on_step: StepHook | None = None,
    parts_dir: Path | None = None,
) -> ApplyReport:
    """Apply the selected proposals of `plan`; the caller holds the run lock. With `parts_dir` the plan
    may be applied in parts: what earlier parts applied is skipped, and their changes are expected."""
    selected = plan.select(only)
    paths = check_scope(plan, selected, scope.fresh())  # walked again: links may have changed since review
    earlier = applied_before(plan, paths, parts_dir)
    workspace = Workspace(scope.memory_dir)
    results = [ProposalResult(p) for p in selected]
    for result in results:
        if result.proposal.id in earlier:
            result.status = "skipped: already applied"
            continue
        if _needs_confirmation(result.proposal, paths, scope) and not confirm_l0:
            what = (
                "contradicts a remembered statement"
                if _contradicts(result.proposal)
                else "changes ~/.claude/CLAUDE.md"
            )
            result.status = (
                f"skipped: {what}; confirm it on a terminal or name it with --only {result.proposal.id}"
            )
            continue
        checkpoint = workspace.checkpoint()
        try:
            for change in result.proposal.changes:
                apply_change(workspace, change, paths)
            result.status = "planned"
        except ChangeFailed as exc:
            workspace.rollback(checkpoint)
            result.status = f"failed: {exc}"
    changes = workspace.changes()
    report = ApplyReport(results)
    # A skipped learning waits in the backlog (the caller keeps it there): the sessions may be marked.
    waiting = [
        r.proposal.id
        for r in results
        if r.status.startswith("skipped") and not (r.proposal.model_extra or {}).get("learning_id")
    ]
    failed = [r.proposal.id for r in results if r.status.startswith("failed")]
    if plan.mark_consolidation and (waiting or failed):
        why = [f"{', '.join(waiting)} await confirmation"] if waiting else []
        why += [f"{', '.join(failed)} failed"] if failed else []
        report.notes.append(
            f"not marked as consolidated: {' and '.join(why)}, so the next dream reads those sessions "
            "again and proposes them again"
        )
    elif plan.mark_consolidation:
        marker = scope.memory_dir / ".last-consolidation"
        changes[marker] = (_gathered_at(plan) + "\n").encode()
        report.marker_written = True
    if changes:
        summary = ", ".join(r.proposal.id for r in results if r.status == "planned")
        report.journal = Journal.begin(journal_dir, changes, summary or "marker")
        _execute(changes, on_step or (lambda step: None))
        report.journal.mark(COMPLETE)
    _verify(report, workspace, changes, paths)
    if parts_dir is not None and changes:
        done = earlier | {r.proposal.id for r in results if r.done}
        record_part(plan, paths, parts_dir, done, changes)
        left = [p.id for p in plan.proposals if p.id not in done]
        report.notes.append(f"still to apply from this plan: {', '.join(left)}" if left else
                            "every proposal of this plan is applied")  # fmt: skip
    return report


def _gathered_at(plan: Plan) -> str:
    """When the sessions were read: the plan's creation, so sessions after it are mined next time
    (however long the review took); now, when the plan's time is unreadable or in the future. To the
    microsecond when the plan says it so: a transcript written in the second the gathering began,
    before it, is no session since."""
    now = datetime.now(UTC)
    try:
        created = datetime.fromisoformat((plan.gathered_at or plan.created_at).replace("Z", "+00:00"))
        moment = min(created if created.tzinfo else created.replace(tzinfo=UTC), now)
    except ValueError:
        moment = now
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ" if moment.microsecond else "%Y-%m-%dT%H:%M:%SZ")


def _needs_confirmation(proposal: Proposal, paths: dict[str, Path], scope: WriteScope) -> bool:
    return (
        proposal.layer == "L0"
        or _contradicts(proposal)
        or any(scope.is_user_claude_md(paths[name]) for name in proposal.files)
    )


def _contradicts(proposal: Proposal) -> bool:
    """A learning that replaces a remembered statement with its opposite: never applied unasked."""
    return proposal.warning == CONTRADICT_WARNING


def l0_proposals(plan: Plan, scope: WriteScope) -> set[str]:
    """Ids of the proposals that change ~/.claude/CLAUDE.md — by the files they touch, not their label."""
    found = set()
    for proposal in plan.proposals:
        try:
            paths = check_scope(plan, [proposal], scope, with_snapshot=False)
        except PlanError:
            continue  # refused when applied; nothing to confirm
        if _needs_confirmation(proposal, paths, scope):
            found.add(proposal.id)
    return found


def without_secrets(change: Change) -> Change:
    """The change with every secret in the text it writes redacted — whoever wrote the plan; a change
    whose new text is nothing but a secret fails. Texts it looks for (`old`) are left as they are."""
    fields = {
        AddEntry: ("text",),
        ReplaceEntry: ("new",),
        ReplaceText: ("new",),
        WriteFile: ("content",),
        ClusterSection: ("pointer", "preamble"),
    }.get(type(change), ())
    update = {}
    for name in fields:
        value = getattr(change, name)
        clean = redact(value)
        if clean != value:
            if only_secret(value):
                raise ChangeFailed(f"the new text for {change.file} is only a secret; it is never written")
            update[name] = clean
    return change.model_copy(update=update) if update else change


def apply_change(ws: Workspace, change: Change, paths: dict[str, Path]) -> None:
    change = without_secrets(change)
    path = paths[change.file]
    if isinstance(change, TrashFile):
        name = path.name.lower()  # lower: a case-insensitive file system spells it either way
        if name == "claude.md" or (name == INDEX.lower() and path.parent == ws.memory_dir):
            raise ChangeFailed(f"{change.file} is an index and is never trashed")
        ws.trash(path)
        _drop_pointers_to(ws, path)
    elif isinstance(change, WriteFile):
        if change.create_only and ws.exists(path):
            raise ChangeFailed(f"{change.file} already exists")
        ws.write(path, change.content.encode("utf-8"))
    elif isinstance(change, AddEntry):
        doc = ws.document(path, create=True)
        if doc.find_entry(change.text) is not None or doc.find_entry("- " + change.text) is not None:
            raise ChangeFailed(f"the entry is already in {change.file}")
        doc.add_entry(change.section, change.text)
        ws.save(path, doc)
        _check_links(ws, path, change.text)
    elif isinstance(change, ReplaceEntry):
        doc = ws.document(path, create=False)
        entry = doc.find_entry(change.old)
        if entry is None:
            raise ChangeFailed(f"entry not found in {change.file}: {change.old[:60]!r}")
        doc.replace_entry(entry, change.new)
        ws.save(path, doc)
        _check_links(ws, path, change.new)
    elif isinstance(change, DropEntry):
        doc = ws.document(path, create=False)
        entry = doc.find_entry(change.text)
        if entry is None:
            raise ChangeFailed(f"entry not found in {change.file}: {change.text[:60]!r}")
        doc.remove_entry_and_empty_heading(entry)
        ws.save(path, doc)
    elif isinstance(change, ReplaceText):
        _replace_text(ws, change, path)
    elif isinstance(change, RedactSecrets):
        _redact_file(ws, change, path)
    elif isinstance(change, ClusterSection):
        _cluster(ws, change, path, paths[change.cluster_file])
    elif isinstance(change, MoveSection):
        for text in move_section(ws, change, path, paths[change.topic_file]):
            _check_links(ws, path, text)


def _redact_file(ws: Workspace, change: RedactSecrets, path: Path) -> None:
    text = ws.text(path)
    clean = redact(text)
    if clean == text:
        raise ChangeFailed(f"no secret left in {change.file}")
    ws.write(path, clean.encode("utf-8"))


def _replace_text(ws: Workspace, change: ReplaceText, path: Path) -> None:
    text = ws.text(path)
    count = text.count(change.old)
    if count != 1:
        where = "not found" if count == 0 else f"found {count} times"
        raise ChangeFailed(f"text {where} in {change.file}: {change.old[:60]!r}")
    start = text.index(change.old)
    whole_lines = (start == 0 or text[start - 1] == "\n") and change.old.endswith("\n")
    if not change.new and not whole_lines:
        raise ChangeFailed(f"a removal must take whole lines; {change.old[:60]!r} is part of a line")
    ws.write(path, text.replace(change.old, change.new).encode("utf-8"))
    _check_links(ws, path, change.new)


def _check_links(ws: Workspace, path: Path, text: str) -> None:
    if has_broken_link(text):
        raise ChangeFailed("a link in the new text does not parse (a space in its target?)")
    for link in find_links(text):
        if not ws.link_resolves(path, link.file):
            raise ChangeFailed(f"the new pointer to {link.file} would not resolve")


def _drop_pointers_to(ws: Workspace, trashed: Path) -> None:
    """Index and cluster entries pointing at a trashed file: dropped when that was all they pointed at,
    otherwise only the dead link becomes plain text (the entry and its other links stay)."""
    gone = ws.name(trashed)
    for path in _index_files(ws):
        if not ws.exists(path):
            continue
        if trashed.stem not in unquote((ws.read(path) or b"").decode("utf-8", "replace")):
            continue  # cheap: most files never mention it ([[wiki]] links omit the .md)
        doc = ws.document(path, create=False)
        source = ws.name(path)

        def dead(target: str, source: str = source) -> bool:
            return _links_to(source, target, gone)

        changed = False
        for entry in doc.entries():
            if not any(dead(link.file) for link in entry.links):
                continue
            changed = True
            if all(dead(link.file) for link in entry.links):
                doc.remove_entry(entry)
            else:
                doc.replace_entry(entry, unlink(entry.text, dead))
        if changed:
            ws.save(path, doc)


def _index_files(ws: Workspace) -> list[Path]:
    """MEMORY.md and the cluster files — only those really inside the memory dir (a run writes no other)."""
    if ws.disk is None:
        return _list_index_files(ws)
    if ws.disk.index_files is None:
        ws.disk.index_files = _list_index_files(ws)
    return list(ws.disk.index_files)


def _list_index_files(ws: Workspace) -> list[Path]:
    memory_real = os.path.realpath(ws.memory_dir)
    clusters = ws.memory_dir / CLUSTER_DIR
    clusters_real = os.path.realpath(clusters)
    found: dict[Path, None] = {}
    for path in [ws.memory_dir / INDEX, *sorted(clusters.glob("*.md"))]:
        # a cluster file that is no link resolves inside its resolved folder: one lstat, not one per part
        plain = path.parent == clusters and not path.is_symlink()
        real = os.path.join(clusters_real, path.name) if plain else os.path.realpath(path)
        if os.path.commonpath([memory_real, real]) != memory_real or (path.exists() and not path.is_file()):
            continue  # outside what a run may write, or not a regular file
        found[ws.memory_dir / os.path.relpath(real, memory_real)] = None  # one name per file
    return list(found)


def _surviving_pointers(ws: Workspace, trashed: set[str]) -> list[str]:
    """Problems for every index or cluster link that still points at a file this run trashed."""
    if not trashed:
        return []
    problems = []
    for path in _index_files(ws):
        if not path.is_file():
            continue
        source = ws.name(path)
        for link in find_links(path.read_text(encoding="utf-8", errors="replace")):
            for gone in trashed & set(link_candidates(source, link.file)):
                problems.append(f"{gone} is still linked from {source} after being trashed")
    return problems


def _links_to(source: str, target: str, gone: str) -> bool:
    same_name = unquote(target).rsplit("/", 1)[-1] == gone.rsplit("/", 1)[-1]
    return same_name and gone in link_candidates(source, target)


def _same_text(text: str) -> str:
    """Entries compare equal when only their spacing differs (case matters: `API` is not `api`)."""
    return " ".join(text.split())


def _cluster(ws: Workspace, change: ClusterSection, index_path: Path, cluster_path: Path) -> None:
    index = ws.document(index_path, create=False)
    section = index.section(change.section)
    if section is None:
        raise ChangeFailed(f"section '{change.section}' not found in {change.file}")
    cluster = ws.document(cluster_path, create=True)
    if not cluster.render().strip():
        preamble = change.preamble.strip()
        cluster = parse_document(f"# {section.name}\n\n" + (f"{preamble}\n\n" if preamble else ""))
    source_dir = os.path.relpath(index_path.parent, ws.memory_dir)
    target_dir = os.path.relpath(cluster_path.parent, ws.memory_dir)
    existing = {_same_text(e.text) for e in cluster.entries()}
    for entry in section.entries:
        moved = rebase_links(entry.text, source_dir if source_dir != "." else "", target_dir)
        if _same_text(moved) not in existing:
            cluster.add_entry("", moved)
    ws.save(cluster_path, cluster)
    index.replace_section_entries(change.section, [change.pointer])
    ws.save(index_path, index)
    _check_links(ws, index_path, change.pointer)


def _execute(changes: dict[Path, bytes | None], on_step: StepHook) -> None:
    """Trash first, then write; `on_step` runs after each step (tests inject crashes there)."""
    for path, data in sorted(changes.items(), key=lambda item: (item[1] is not None, str(item[0]))):
        step = f"trash {path}" if data is None else f"write {path}"
        try:
            if data is None:
                send2trash(str(path))
            else:
                atomic_write(path, data)
        except Exception as exc:  # send2trash raises its own kinds too (no trash on that volume)
            raise ConsolidateError(
                f"could not {step}: {exc}; the run stopped half-way and `consolidate undo` restores every "
                "file it touched"
            ) from None
        on_step(step)


def _verify(
    report: ApplyReport, ws: Workspace, changes: dict[Path, bytes | None], paths: dict[str, Path]
) -> None:
    """Glob the memory dir: retired files must be gone, written files must hold what was meant."""
    present = set(ws.memory_dir.glob("**/*.md"))
    for path, data in changes.items():
        if data is None and (path in present or path.exists()):
            report.problems.append(f"{ws.name(path)} is still present after being trashed")
        elif data is not None and (not path.exists() or path.read_bytes() != data):
            report.problems.append(f"{ws.name(path)} does not hold the written content")
    trashed = {ws.name(path) for path, data in changes.items() if data is None}
    report.problems += _surviving_pointers(ws, trashed)
    bad = set(report.problems)
    for result in report.results:
        if result.status != "planned":
            continue
        touched = [ws.name(paths[name]) for name in result.proposal.files]
        failures = [problem for problem in bad if any(problem.startswith(name + " ") for name in touched)]
        result.status = f"unverified: {failures[0]}" if failures else "done"
