"""A bounded, redacted excerpt of a project's recent sessions, for the discoverer's prompt.

The newest main sessions since the last consolidation, one line per message: what the user typed,
what the assistant said, the tool calls, failed tool results and rejections. What the user typed while
a tool ran shares its record with the tool's result, and is kept like any other message. When a session or the
whole excerpt is over its cap, tool calls go first, then assistant text, then errors; what the user
typed is kept longest because corrections and decisions live there. Secrets are redacted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..secrets import redact
from ..transcripts import Record, find_transcripts, human_text, last_activity, read_transcript, tool_command

USER, ERROR, ASSISTANT, TOOL = 0, 1, 2, 3  # keep priority: lower survives longer


@dataclass(frozen=True)
class ExcerptLimits:
    sessions: int = 8
    per_line: int = 500
    per_session: int = 8_000
    total: int = 40_000


@dataclass
class SessionExcerpt:
    session: str
    path: str
    last_active: str
    lines: list[str] = field(default_factory=list)
    omitted: int = 0  # lines left out to stay under the caps


def recent_sessions(
    transcripts_dir: Path, since: datetime | None = None, limits: ExcerptLimits | None = None
) -> list[SessionExcerpt]:
    """Excerpts of the newest main sessions active after `since`, newest first."""
    limits = limits or ExcerptLimits()
    threshold = since.timestamp() if since else 0.0
    dated = [(last_activity(f.path), f) for f in find_transcripts(transcripts_dir) if not f.is_subagent]
    newest = sorted((pair for pair in dated if pair[0] > threshold), key=lambda p: p[0], reverse=True)
    budget = limits.total
    excerpts: list[SessionExcerpt] = []
    for stamp, file in newest[: limits.sessions]:
        lines = _lines(read_transcript(file).active(), limits.per_line)
        kept = _fit(lines, min(limits.per_session, budget))
        if not kept:
            continue
        budget -= sum(len(line) + 1 for line in kept)
        when = datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        excerpts.append(SessionExcerpt(file.session_id, str(file.path), when, kept, len(lines) - len(kept)))
        if budget <= 0:
            break
    return excerpts


def _lines(records: list[Record], cap: int) -> list[tuple[int, str]]:
    lines: list[tuple[int, str]] = []
    for record in records:
        if record.sidechain or record.meta:
            continue
        said = human_text(record, beside_tools=True)
        if said and not record.tool_results:
            lines.append((USER, f"user [{record.uuid}]: {_clip(said, cap)}"))
        elif record.type == "assistant" and record.text.strip():
            lines.append((ASSISTANT, f"assistant: {_clip(record.text, cap)}"))
        for use in record.tool_uses:
            command = tool_command(use) or str(use.input.get("file_path") or use.input.get("pattern") or "")
            lines.append((TOOL, f"tool {use.name}: {_clip(command, 200)}"))
        for result in record.tool_results:
            if result.rejected:
                reason = result.rejection_reason or "(no reason given)"
                lines.append((ERROR, f"user rejected the tool call: {_clip(reason, cap)}"))
            elif result.is_error:
                lines.append((ERROR, f"tool error: {_clip(result.text, 300)}"))
        if said and record.tool_results:  # typed while the tool ran: the same record as its result
            lines.append((USER, f"user [{record.uuid}] (while the tool ran): {_clip(said, cap)}"))
    return lines


def _fit(lines: list[tuple[int, str]], cap: int) -> list[str]:
    """Drop the oldest lines of the lowest priority until the rest fit in `cap` characters."""
    total = _size(lines)
    dropped: set[int] = set()
    for level in (TOOL, ASSISTANT, ERROR, USER):
        for index, (priority, line) in enumerate(lines):
            if total <= cap:
                break
            if priority == level:
                dropped.add(index)
                total -= len(line) + 1
    return [line for index, (_, line) in enumerate(lines) if index not in dropped]


def _size(lines: list[tuple[int, str]]) -> int:
    return sum(len(line) + 1 for _, line in lines)


def _clip(text: str, cap: int) -> str:
    flat = redact(" ".join(text.split()))
    return flat if len(flat) <= cap else flat[: cap - 1] + "…"
