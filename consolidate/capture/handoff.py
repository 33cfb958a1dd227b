"""The handoff: a short note the Stop hook leaves for the next session of the project.

The facts behind it — recent entries, titles, edited files — are gathered by `tick` as it reads each
main session (so every transcript byte is parsed once) and kept with the session's read offset. Stop
renders the live session's facts into `<state>/handoff/<project-key>.md`; SessionStart shows the newest
note another session left, if it is less than a week old.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from ..fsutil import atomic_write
from ..lazyre import lazy
from ..secrets import redact, redact_clip
from ..transcripts.markers import without_markers
from ..transcripts.records import Record, human_text
from .places import project_key

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any


HANDOFF_DIR = "handoff"
KEEP_ENTRIES = 6
ENTRY_CHARS = 200
MAX_FILES = 12
MAX_CHANGED = 50
MAX_BYTES = 2000
MAX_AGE = timedelta(days=7)
EDIT_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
TITLE_KEYS = {"custom-title": "customTitle", "ai-title": "aiTitle", "summary": "summary"}
_HEADER = lazy(r"^<!-- session: (\S+) ended: (\S+) -->\n")


def handoff_path(state_dir: Path, project: Path) -> Path:
    return state_dir / HANDOFF_DIR / (project_key(project) + ".md")


def fresh() -> dict[str, Any]:
    return {"entries": [], "titles": [], "changed": []}


def absorb_title(facts: dict[str, Any], raw: dict[str, Any]) -> None:
    """Titles and summaries are metadata records: the reader's `normalize` skips them."""
    title_key = TITLE_KEYS.get(str(raw.get("type")))
    if title_key and isinstance(raw.get(title_key), str):
        _remember(facts["titles"], " ".join(redact_clip(raw[title_key], ENTRY_CHARS).split()), 3)


def absorb(facts: dict[str, Any], record: Record) -> None:
    """Fold one main-session record into the facts: typed prompts, replies, edited files."""
    if record.sidechain:
        return
    if record.type == "user" and (typed := human_text(record)):
        _remember(facts["entries"], ["user", _line(typed)], KEEP_ENTRIES, dedupe=False)
    elif record.type == "assistant":
        if record.text.strip():
            _remember(facts["entries"], ["assistant", _line(record.text)], KEEP_ENTRIES, dedupe=False)
        for use in record.tool_uses:
            path = use.input.get("file_path") or use.input.get("notebook_path")
            if use.name in EDIT_TOOLS and isinstance(path, str):
                _remember(facts["changed"], path, MAX_CHANGED)


def _remember(items: list[Any], item: Any, keep: int, dedupe: bool = True) -> None:
    if dedupe and item in items:
        items.remove(item)
    items.append(item)
    del items[:-keep]


def _line(text: str) -> str:
    return " ".join(redact_clip(without_markers(text), ENTRY_CHARS).split())


def render_handoff(facts: dict[str, Any], project: Path, ended: datetime) -> str:
    lines = [
        f"Handoff from the previous session in this project (ended {ended.strftime('%Y-%m-%d %H:%M UTC')}):"
    ]
    if facts.get("entries"):
        lines.append("Last entries:")
        lines += [f"- {role}: {text}" for role, text in facts["entries"]]
    topics = list(facts.get("titles") or []) + _top_dirs(facts.get("changed") or [], project)
    if topics:
        lines.append("Active topics: " + "; ".join(topics))
    changed = [_relative(p, project) for p in facts.get("changed") or []]
    if changed:
        more = f" (+{len(changed) - MAX_FILES} more)" if len(changed) > MAX_FILES else ""
        lines.append("Changed files: " + ", ".join(changed[-MAX_FILES:]) + more)
    text = "\n".join(lines)
    return (
        text
        if len(text.encode()) <= MAX_BYTES
        else text.encode()[: MAX_BYTES - 3].decode(errors="ignore") + "…"
    )


def _relative(path: str, project: Path) -> str:
    prefix = str(project).rstrip("/") + "/"
    return path[len(prefix) :] if path.startswith(prefix) else path


def _top_dirs(changed: list[str], project: Path) -> list[str]:
    counts: dict[str, int] = {}
    for path in changed:
        directory = str(Path(_relative(path, project)).parent)
        if directory not in (".", "/"):
            counts[directory] = counts.get(directory, 0) + 1
    return [d for d, _ in sorted(counts.items(), key=lambda kv: -kv[1])[:3]]


def write_handoff(state_dir: Path, project: Path, session_id: str, text: str, now: datetime) -> Path:
    path = handoff_path(state_dir, project)
    header = f"<!-- session: {session_id or '-'} ended: {now.strftime('%Y-%m-%dT%H:%M:%SZ')} -->\n"
    atomic_write(path, (header + redact(text) + "\n").encode("utf-8", "replace"))
    return path


def read_handoff(state_dir: Path, project: Path, session_id: str, now: datetime) -> str:
    """The note another session left, when recent; "" otherwise."""
    try:
        text = handoff_path(state_dir, project).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    match = _HEADER.match(text)
    if match is None or (session_id and match.group(1) == session_id):
        return ""
    try:
        ended = datetime.fromisoformat(match.group(2).replace("Z", "+00:00"))
    except ValueError:
        return ""
    return text[match.end() :].strip() if now - ended <= MAX_AGE else ""
