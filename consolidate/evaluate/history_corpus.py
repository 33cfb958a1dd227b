"""Transcripts for the real-history set, with the assistant's own memory writes taken out.

A fair measurement must not let the discoverer read a rule from the assistant's Edit of CLAUDE.md:
the learning has to come from the talk. `copy_stripped` writes a copy of a session in which every
write to a memory file (CLAUDE.md, AGENTS.md, MEMORY.md, the memory dir) has lost its content — the
tool call keeps its name and path, its result says it was stripped, a rejected one keeps the user's
reason — and which ends at a given time (the next version of CLAUDE.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

MEMORY_NAMES = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "MEMORY.md"})
_WRITE_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
_SHELL_WRITE = re.compile(
    r"(?:>>?|\btee\b|\bsed\s+-i|\bperl\s+-pi)\s*\S*(?:CLAUDE|AGENTS|MEMORY)(?:\.local)?\.md"
)
STRIPPED = "[memory write stripped for evaluation]"
_REJECTED = "The user doesn't want to proceed with this tool use"


def is_memory_path(path: str) -> bool:
    return path.rsplit("/", 1)[-1] in MEMORY_NAMES or "/memory/" in path


def strip_record(record: dict[str, Any], stripped: set[str]) -> dict[str, Any]:
    """The record with memory writes emptied; ids of the emptied tool calls are added to `stripped`."""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return record
    if record.get("type") == "assistant":
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_use" and _writes_memory(block):
                block["input"] = _emptied(block.get("input"))
                stripped.add(str(block.get("id", "")))
    elif record.get("type") == "user":
        for block in content:
            if _stripped_result(block, stripped):
                block["content"] = STRIPPED
                record.pop("toolUseResult", None)
    return record


def _stripped_result(block: Any, stripped: set[str]) -> bool:
    """A result of an emptied memory write (a rejection keeps its text: the reason is the user's)."""
    return (
        isinstance(block, dict)
        and block.get("type") == "tool_result"
        and block.get("tool_use_id") in stripped
        and not _rejection(block)
    )


def _writes_memory(block: dict[str, Any]) -> bool:
    data = block.get("input")
    if not isinstance(data, dict):
        return False
    if block.get("name") in _WRITE_TOOLS:
        path = data.get("file_path") or data.get("notebook_path") or ""
        return isinstance(path, str) and is_memory_path(path)
    command = data.get("command")
    return isinstance(command, str) and bool(_SHELL_WRITE.search(command))


def _emptied(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        return {}
    kept = {k: data[k] for k in ("file_path", "notebook_path") if k in data}
    return kept or {"command": "true"}


def _rejection(block: dict[str, Any]) -> bool:
    content = block.get("content")
    if isinstance(content, list):
        content = " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return isinstance(content, str) and content.startswith(_REJECTED)


def copy_stripped(source: Path, target: Path, until: datetime | None = None) -> bool:
    """Copy one transcript stripped and cut at `until`; False (nothing written) when nothing is left."""
    stripped: set[str] = set()
    lines = []
    for record in _records(source):
        stamp = _time(record.get("timestamp"))
        if until is not None and stamp is not None and stamp > until:
            break
        lines.append(json.dumps(strip_record(record, stripped), ensure_ascii=False))
    if not lines:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


def _records(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def session_span(path: Path) -> tuple[datetime, datetime] | None:
    """The first and last timestamps of a transcript."""
    first = last = None
    for record in _records(path):
        stamp = _time(record.get("timestamp"))
        if stamp is not None:
            first = first or stamp
            last = stamp
    return (first, last) if first and last else None


def copy_sessions(folder: Path, target: Path, start: datetime | None, until: datetime | None) -> int:
    """Every session (and its subagents) of `folder` active in (start, until], stripped and cut."""
    copied = 0
    for main in sorted(folder.glob("*.jsonl")):
        span = session_span(main)
        if span is None or (start and span[1] <= start) or (until and span[0] > until):
            continue
        copied += copy_stripped(main, target / main.name, until)
        for sub in sorted((folder / main.stem).glob("subagents/*.jsonl")):
            copy_stripped(sub, target / main.stem / "subagents" / sub.name, until)
    return copied


def reverse_edits(text: str, folder: Path, moments: list[tuple[str, str]]) -> str:
    """`text` with the named Edit calls undone (new text back to old), newest first: an earlier version."""
    edits: list[tuple[str, str, str]] = []
    wanted = set(moments)
    for main in sorted(folder.glob("*.jsonl")):
        for record in _records(main):
            if (main.stem, record.get("uuid")) not in wanted:
                continue
            for block in record.get("message", {}).get("content", []):
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    data = block.get("input") or {}
                    edits.append(
                        (str(record.get("timestamp")), data.get("old_string", ""), data.get("new_string", ""))
                    )
    for _, old, new in sorted(edits, reverse=True):
        if new and new in text:
            text = text.replace(new, old, 1)
    return text
