"""Checks of what every session loads: the CLAUDE.md files, MEMORY.md, pointers, secrets, imports."""

from __future__ import annotations

from pathlib import Path

from memory_layout import BUDGET_BYTES, BUDGET_LINES, measure_index

from ..secrets import find_secrets
from .context import DoctorContext
from .imports import import_targets, is_stub
from .report import Check

CLAUDE_MD_LINES = 200
LARGE_IMPORT_LINES = 100  # a reference this long belongs behind a pointer, read when needed
LARGE_IMPORT_BYTES = 8_000
SHOWN = 3  # findings named in one detail line


def _lines(text: str) -> int:
    return measure_index(text.encode()).lines


def _listed(items: list[str]) -> str:
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def _claude_md_size(ctx: DoctorContext, name: str, check_id: str) -> Check:
    path = ctx.claude_md_files[name]
    text = ctx.read(path)
    if text is None:
        return Check.ok(check_id, f"{name}: none")
    lines, shown = _lines(text), name
    if is_stub(text):  # `@AGENTS.md` alone: the imported file is what loads
        (_, target), *_ = import_targets(text)
        imported = ctx.read(path.parent / target)
        lines, shown = (_lines(imported), f"{name} (→ {target})") if imported is not None else (lines, name)
    if lines <= CLAUDE_MD_LINES:
        return Check.ok(check_id, f"{shown}: {lines} lines")
    return Check(check_id, "fail", f"{shown}: {lines} lines (over {CLAUDE_MD_LINES})",
                 f"move detail out of {name} into files it points to, read when needed")  # fmt: skip


def user_claude_md_size(ctx: DoctorContext) -> Check:
    return _claude_md_size(ctx, "~/.claude/CLAUDE.md", "user-claude-md-size")


def project_claude_md_size(ctx: DoctorContext) -> Check:
    return _claude_md_size(ctx, "CLAUDE.md", "project-claude-md-size")


def memory_index_budget(ctx: DoctorContext) -> Check:
    index = ctx.tree.index
    if index is None:
        return Check.ok("memory-index-budget", "MEMORY.md: none yet")
    budget = measure_index(index.data)
    detail = f"MEMORY.md: {budget.lines}/{BUDGET_LINES} lines, {budget.bytes}/{BUDGET_BYTES} bytes"
    if not budget.over_budget:
        return Check.ok("memory-index-budget", detail)
    return Check("memory-index-budget", "fail", detail + " — Claude Code loads only the first part",
                 "run `consolidate dream`: it clusters crowded sections and moves long notes into topic files")  # fmt: skip


def _defects(ctx: DoctorContext, kinds: set[str]) -> list[str]:
    places = [f"{d.file}:{d.line}" if d.line else d.file for d in ctx.defects if d.kind in kinds]
    return list(dict.fromkeys(places))


def memory_pointers(ctx: DoctorContext) -> Check:
    found = _defects(ctx, {"bare-pointer", "dangling-pointer"})
    if not found:
        return Check.ok("memory-pointers", "no bare or dangling pointers")
    return Check("memory-pointers", "fail", f"{len(found)} bare or dangling pointer(s): {_listed(found)}",
                 "run `consolidate dream` (it proposes a trigger for bare links and drops dead ones), or edit them")  # fmt: skip


def orphan_topics(ctx: DoctorContext) -> Check:
    found = _defects(ctx, {"orphan-topic"})
    if not found:
        return Check.ok("orphan-topics", "every topic file is reachable from MEMORY.md")
    return Check("orphan-topics", "fail", f"{len(found)} topic file(s) nothing points to: {_listed(found)}",
                 "add a trigger pointer to each in MEMORY.md, or remove the file (`consolidate dream` proposes it)")  # fmt: skip


def memory_readable(ctx: DoctorContext) -> Check:
    found = _defects(ctx, {"unreadable", "broken-frontmatter", "unclosed-fence"})
    if not found:
        return Check.ok("memory-readable", f"{len(ctx.tree.files)} memory file(s) parse")
    return Check("memory-readable", "fail", f"{len(found)} file(s) that do not parse cleanly: {_listed(found)}",
                 "run `consolidate status` for each defect and fix the file by hand")  # fmt: skip


def no_secrets(ctx: DoctorContext) -> Check:
    found = []
    files: list[tuple[str, Path]] = [(p, ctx.settings.memory_dir / p) for p in sorted(ctx.tree.files)]
    files += [(name, path) for name, path in ctx.claude_md_files.items()]
    files += [(str(i.path), i.path) for i in ctx.imports if i.exists]
    seen: set[Path] = set()
    for name, path in files:
        text = ctx.read(path)
        if text is None or path.resolve() in seen:
            continue
        seen.add(path.resolve())
        for secret in find_secrets(text):
            found.append(f"{name}:{text.count(chr(10), 0, secret.start) + 1} ({secret.kind})")
    if not found:
        return Check.ok("no-secrets", "no token, key or password in memory, CLAUDE.md or what they import")
    return Check("no-secrets", "fail", f"{len(found)} secret(s): {_listed(found)}",
                 "delete each one and rotate the credential; for memory files `consolidate dream` proposes the redaction")  # fmt: skip


def imports_exist(ctx: DoctorContext) -> Check:
    missing = [f"{i.source.name}:{i.line} @{i.target}" for i in ctx.imports if not i.exists]
    if not missing:
        return Check.ok("imports-exist", f"{len(ctx.imports)} @import(s), all present")
    return Check("imports-exist", "fail", f"{len(missing)} @import(s) of missing files: {_listed(missing)}",
                 "fix the path or remove the import (Claude Code skips a missing import silently)")  # fmt: skip


def imports_on_demand(ctx: DoctorContext) -> Check:
    stubs = {path.resolve() for path in ctx.claude_md_files.values() if is_stub(ctx.read(path) or "")}
    large: list[str] = []
    standing: list[str] = []  # a stub's import stands for the CLAUDE.md: its size check measures it
    for item in ctx.imports:
        text = ctx.read(item.path) if item.exists else None
        if text is None:
            continue
        lines, size = _lines(text), len(text.encode())
        if lines > LARGE_IMPORT_LINES or size > LARGE_IMPORT_BYTES:
            (standing if item.source.resolve() in stubs else large).append(f"@{item.target} ({lines} lines)")
    if not large and standing:
        return Check.ok("imports-on-demand", f"no large reference is @-imported besides what a CLAUDE.md stub "
                        f"stands for ({_listed(standing)}: measured as that CLAUDE.md)")  # fmt: skip
    if not large:
        return Check.ok("imports-on-demand", "no large reference is @-imported into every session")
    return Check("imports-on-demand", "fail", f"loaded into every session: {_listed(large)}",
                 "replace the @import with a line saying when to read the file (e.g. `- When adding a tool: read TOOLS.md`)")  # fmt: skip
