"""`consolidate onboard`: print (or write) the newcomer brief, and with `--seed` offer the team's
entries to the newcomer's own memory dir through the same review and journaled apply as a dream."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TextIO

from ..apply import ApplyReport, apply_plan
from ..applying import print_summary
from ..errors import UsageError
from ..fsutil import atomic_write
from ..secrets import redact
from ..settings import Settings
from .brief import TOPICS, Brief, BriefItem, build_brief

TITLE = "# Onboarding brief"
SIGNALS = {  # the kind of signal a learning was mined from, as the brief says it
    "marker": "a learning the agent marked",
    "remember": "a “remember this”",
    "correction": "a correction",
    "error-fix": "an error fixed by trial",
    "rejection": "a rejected tool call",
    "decision": "a decision",
    "preference": "a preference",
    "queue": "the capture queue",
}


@dataclass
class OnboardOptions:
    out: Path | None = None
    json: bool = False
    seed: bool = False
    yes: bool = False
    only: list[str] | None = None
    dry_run: bool = False


def render_brief(brief: Brief) -> str:
    today = date.fromisoformat(brief.generated)
    stale = sum(1 for item in brief.items if item.stale)
    sources = []
    if brief.team_entries:
        who = f", shared by {', '.join(brief.sharers)}" if brief.sharers else ""
        sources.append(f"the team memory (`.claude/team-memory/`, {brief.team_entries} entries{who})")
    if brief.claude_files:
        first, *imported = brief.claude_files
        also = f" (with {', '.join(f'`{n}`' for n in imported)})" if imported else ""
        sources.append(f"`{first}`{also}")
    lines = [
        f"{TITLE}: {brief.project}",
        "",
        f"Made on {brief.generated} from {' and '.join(sources) or 'nothing: no team memory and no CLAUDE.md'}.",
        "Each item says how old it is and where it is written; read that file for the whole rule.",
    ]
    if stale:
        lines.append(f"⚠ marks {stale} item(s) the auditor finds stale: check them before relying on them.")
    for topic in TOPICS:
        items = [item for item in brief.items if item.topic == topic]
        if items:
            lines += ["", f"## {topic}", ""]
            lines += [line for item in items for line in _item(item, today)]
    if brief.also:
        lines += ["", "## Also in the project instructions", ""]
        lines += [f"- {section} ({source})" for section, source in brief.also]
    return "\n".join(lines) + "\n"


def _item(item: BriefItem, today: date) -> list[str]:
    mark = "⚠ " if item.stale else ""
    lines = [f"- {mark}{item.text}"]
    lines += [f"  {detail}" for detail in item.detail]
    if item.stale:
        lines.append(f"  ⚠ stale: {' '.join(item.stale.split())}")
    where = f"`{item.source}`" + (f" line {item.line}" if item.line else "")
    signal = (
        f" from {SIGNALS.get(item.signal, item.signal)}" if item.signal and item.signal != "unknown" else ""
    )
    who = f", shared by {item.shared_by}" if item.shared_by else ""
    lines.append(f"  — {_age(item, today)}{signal}{who}; {where}")
    return lines


def _age(item: BriefItem, today: date) -> str:
    days = item.age_days(today)
    if days is None:
        return "age unknown"
    ago = "today" if days <= 0 else "1 day ago" if days == 1 else f"{days} days ago"
    what = {"learned": "learned", "git": "last changed", "mtime": "last changed (not committed)"}
    return f"{what.get(item.date_source, 'dated')} {item.date} ({ago})"


def check_out(path: Path, settings: Settings) -> None:
    """The brief goes to a new file or over an earlier brief, never over something else, and never
    into the memory dir or the team folder (it is not memory)."""
    real = Path(os.path.realpath(path))
    guarded = [settings.memory_dir, *([settings.layout.team_dir] if settings.layout.team_dir else [])]
    for folder in guarded:
        base = Path(os.path.realpath(folder))
        if real == base or base in real.parents:
            raise UsageError(f"--out {path}: the brief is not memory; write it outside {folder}")
    if real.exists():
        try:
            head = real.read_text(encoding="utf-8").split("\n", 1)[0]
        except (OSError, UnicodeDecodeError):
            head = ""
        if not head.startswith(TITLE):
            raise UsageError(f"--out {path}: the file exists and is not a brief; refusing to overwrite it")


def run_onboard(
    settings: Settings, options: OnboardOptions, *, out: TextIO, err: TextIO, stdin: TextIO
) -> ApplyReport | None:
    if options.out is not None:
        check_out(options.out, settings)
    brief = build_brief(settings.layout)
    text = (
        json.dumps(brief.to_dict(), indent=2, ensure_ascii=False) + "\n"
        if options.json
        else render_brief(brief)
    )
    if options.out is not None:
        atomic_write(options.out, redact(text).encode("utf-8", "replace"))
        err.write(f"brief written to {options.out}\n")
    else:
        out.write(text)
    if not options.seed:
        return None
    stale = {(item.source, item.line) for item in brief.items if item.stale}
    return seed(settings, options, stale, out=err if options.json else out, stdin=stdin)


def seed(
    settings: Settings, options: OnboardOptions, stale: set[tuple[str, int]], *, out: TextIO, stdin: TextIO
) -> ApplyReport | None:
    from ..dream.gather import GatherResult
    from ..dream.orient import orient
    from ..dream.run import DreamOptions, review_plan
    from ..dream.synthesize import build_plan
    from ..runs import journal_dir, write_scope, writing_run
    from .seed import seed_drafts

    with writing_run(settings):
        snapshot = orient(settings, create=False)
        drafts, notes = seed_drafts(snapshot, stale)
        plan = build_plan(snapshot, GatherResult(), "onboard", drafts, notes)
        for note in plan.notes:
            out.write(f"{note}\n")
        if not plan.proposals:
            out.write("nothing to seed: your memory already has what the team shared\n")
            return None
        review = DreamOptions(yes=options.yes, only=options.only, dry_run=options.dry_run)
        ids = review_plan(plan, review, out=out, stdin=stdin, ask=None, l0=set()).ids
        if not ids:
            return None
        report = apply_plan(plan, write_scope(settings), only=ids, journal_dir=journal_dir(settings))
    print_summary(report, out)
    return report
