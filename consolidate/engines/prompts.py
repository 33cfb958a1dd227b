"""Every prompt the LLM engines send, rendered from the Jinja2 templates in `prompts/`.

Templates are package data (`consolidate/data/prompts/*.j2`) and render with `StrictUndefined`, so a
missing value is an error rather than a silently empty prompt. The task prompts are built from the
phase-1 snapshot with every part capped, and secrets redacted, before anything leaves the machine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from memory_layout import INDEX
from memory_layout.pointers import strip_marker

from ..secrets import redact
from .base import AUDITOR, AgentTask
from .excerpt import ExcerptLimits, recent_sessions
from .schema import schema_text


@dataclass(frozen=True)
class PromptLimits:
    per_file: int = 12_000
    memory_total: int = 80_000
    claude_md: int = 12_000
    known_total: int = 24_000
    git_log: int = 20
    targets: int = 200
    queue_items: int = 50
    sessions: ExcerptLimits = field(default_factory=ExcerptLimits)


@cache
def _environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FunctionLoader(_template_source),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _template_source(name: str) -> str | None:
    source = resources.files("consolidate") / "data" / "prompts" / name
    return source.read_text(encoding="utf-8") if source.is_file() else None


def render(template: str, **context: Any) -> str:
    """Render `prompts/<template>` with `context`; every variable it uses must be given."""
    return str(_environment().get_template(template).render(**context))


def task_prompt(task: AgentTask, limits: PromptLimits | None = None) -> str:
    """The user message that hands `task.agent` the snapshot it works from."""
    limits = limits or PromptLimits()
    if task.agent == AUDITOR:
        return render("memory-auditor.j2", **_common(task), **auditor_context(task, limits))
    return render("signal-discoverer.j2", **_common(task), **discoverer_context(task, limits))


def _common(task: AgentTask) -> dict[str, Any]:
    layout = task.snapshot.settings.layout
    return {
        "agent": task.agent,
        "project": str(layout.project),
        "git_root": str(layout.git_root or ""),
        "memory_dir": str(layout.memory_dir.absolute()),
        "transcripts_dir": str(layout.transcripts_dir.absolute()),
        "since": task.since.strftime("%Y-%m-%dT%H:%M:%SZ") if task.since else "",
        "schema": schema_text(task.agent),
    }


def auditor_context(task: AgentTask, limits: PromptLimits) -> dict[str, Any]:
    snapshot, layout = task.snapshot, task.snapshot.settings.layout
    return {
        "memory_files": memory_files(task, limits),
        "skipped_files": dict(snapshot.tree.skipped),
        "user_claude_md": {
            "path": str(layout.user_claude_md),
            **_capped(snapshot.user_claude_md, limits.claude_md),
        },
        "project_claude_md": {
            "path": str(layout.project_claude_md),
            **_capped(snapshot.project_claude_md, limits.claude_md),
        },
        "git_log": snapshot.git_log[: limits.git_log],
        "targets": snapshot.targets[: limits.targets],
        "imports": _imports(task),
    }


def _imports(task: AgentTask) -> list[dict[str, str]]:
    """The files both CLAUDE.md files import with `@path`: the agent reads and audits them too."""
    from ..imports import resolve_imports

    layout = task.snapshot.settings.layout
    allowed = [p for p in (layout.git_root or layout.project, layout.claude_home) if p is not None]
    found = []
    skip = [p for p in [layout.team_dir] if p is not None]  # the team folder is a layer of its own
    for root in (layout.project_claude_md, layout.user_claude_md):
        if root.is_file():
            found += [
                {"path": str(i.path), "by": str(i.by)} for i in resolve_imports(root, allowed, skip=skip)
            ]
    return found


def memory_files(task: AgentTask, limits: PromptLimits) -> list[dict[str, Any]]:
    """Each memory file, line-numbered; once the total cap is spent, only names are listed."""
    budget, files = limits.memory_total, []
    for name, file in sorted(task.snapshot.tree.files.items(), key=lambda kv: (not kv[1].is_index, kv[0])):
        text = file.document.render() if file.document is not None else ""
        numbered = "".join(f"{n:>4}| {line}" for n, line in enumerate(text.splitlines(True), 1))
        capped = _capped(numbered, min(limits.per_file, max(budget, 0)))
        budget -= len(capped["text"])
        files.append({"name": name, "error": file.error or "", **capped})
    return files


def discoverer_context(task: AgentTask, limits: PromptLimits) -> dict[str, Any]:
    settings = task.snapshot.settings
    return {
        "claude_md": claude_md_context(task, limits),
        "known": known_summary(task, limits),
        "sessions": recent_sessions(settings.layout.transcripts_dir, task.since, limits.sessions),
        "queue_items": [
            _clip(json.dumps(item, ensure_ascii=False, default=str), 1_000)
            for item in task.queue_items[: limits.queue_items]
        ],
    }


def claude_md_context(task: AgentTask, limits: PromptLimits) -> list[dict[str, Any]]:
    """Both CLAUDE.md files and what they import, whole up to a cap each, for deduplication."""
    from ..dream.remembered import claude_md_files

    files = []
    for layer, path, text in claude_md_files(task.snapshot):
        capped = _capped(text, limits.claude_md)
        fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", capped["text"])), default=0))
        files.append({"layer": layer, "path": str(path.absolute()), "fence": fence, **capped})
    return files


def known_summary(task: AgentTask, limits: PromptLimits) -> list[str]:
    """Every remembered index entry whole, with the path and description of the topic file it points at
    (the agent can Read it), and the topic files no entry links to; CLAUDE.md is shown on its own."""
    from ..dream.remembered import remembered, topic_description

    memory = task.snapshot.memory_dir.absolute()
    lines: list[str] = []
    entries = [e for e in remembered(task.snapshot) if e.layer not in ("L0", "L1")]
    budget = limits.known_total
    for entry in entries:
        where = f"{entry.file} § {entry.section}" if entry.section else entry.file
        said = (
            "(a topic file no index entry links to)"
            if entry.layer == "L3"
            else strip_marker(" ".join(entry.text.split()))
        )
        line = f"[{entry.layer}] {where}: {redact(said)}"
        for topic in entry.topics or ((entry.file,) if entry.layer == "L3" else ()):
            about = " ".join(topic_description(task.snapshot, topic).split()) or "no description"
            line += f"\n  topic file {memory / topic} — {redact(about)}"
        budget -= len(line) + 1
        if budget < 0:
            lines.append(f"… {len(entries) - len(lines)} more entries (read {INDEX} in the memory dir)")
            break
        lines.append(line)
    return lines


def _capped(text: str, cap: int) -> dict[str, Any]:
    clean = redact(text)
    if len(clean) <= cap:
        return {"text": clean, "truncated": False}
    if cap <= 0:
        return {"text": "", "truncated": True}
    return {"text": clean[:cap].rsplit("\n", 1)[0] + "\n", "truncated": True}


def _clip(text: str, cap: int) -> str:
    flat = redact(" ".join(text.split()))
    return flat if len(flat) <= cap else flat[: cap - 1] + "…"
