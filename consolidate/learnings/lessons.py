"""Lessons: the live episodes, read for injection — the top ones at session start, the ones whose
trigger matches a tool call before it runs.

A trigger's fields all have to match: `tool` (regex, full match on the tool name), `command` (regex
searched in `tool_input.command`), `path` (glob on `tool_input.file_path`/`path`/`notebook_path`,
absolute or relative to the project; a glob without `/` also matches the base name) and `project` (the
call's cwd lies inside it). An empty trigger never matches a tool call.
"""

from __future__ import annotations

import os
import re

from ..plain import Frozen
from .episodes import Episode, Trigger
from .scoring import ranked
from .store import EpisodeStore, store_path
from .triggermatch import fields_match, glob_regex

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from datetime import datetime
    from pathlib import Path
    from typing import Any

PATH_KEYS = ("file_path", "path", "notebook_path")
__all__ = [
    "PATH_KEYS",
    "ToolCall",
    "glob_regex",
    "live_lessons",
    "matches",
    "render_lesson",
    "select_lessons",
]


class ToolCall(Frozen):
    __slots__ = FIELDS = ("tool", "command", "paths", "cwd")
    tool: str
    command: str
    paths: tuple[str, ...]
    cwd: str

    def __init__(self, tool: str, command: str, paths: tuple[str, ...], cwd: str) -> None:
        self._set(tool=tool, command=command, paths=paths, cwd=cwd)

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> ToolCall:
        tool_input = payload.get("tool_input")
        if not isinstance(tool_input, dict):
            tool_input = {}
        command = tool_input.get("command")
        paths = tuple(str(tool_input[k]) for k in PATH_KEYS if isinstance(tool_input.get(k), str))
        return cls(
            str(payload.get("tool_name") or ""),
            command if isinstance(command, str) else "",
            paths,
            str(payload.get("cwd") or ""),
        )


def live_lessons(
    state_dir: Path, project: str | os.PathLike[str], now: datetime
) -> list[tuple[float, Episode]]:
    """Active and promoted episodes of the project and of the global store, best score first."""
    episodes: list[Episode] = []
    for path in (store_path(state_dir, project), store_path(state_dir, None)):
        episodes += [e for e in EpisodeStore(path).episodes().values() if e.status != "archived"]
    return ranked(episodes, now)


def matches(trigger: Trigger | None, call: ToolCall, project_root: str) -> bool:
    """Whether a working trigger matches the call. The call is tried first, so only the patterns it
    reaches are compiled; a trigger that cannot work (`problem`) never matches."""
    if trigger is None or trigger.is_empty:
        return False
    try:
        if not fields_match(trigger.fields, call.tool, call.command, call.paths, call.cwd, project_root):
            return False
    except re.error:
        if trigger.problem():  # a tool or command regex that does not compile
            return False
        raise
    return not trigger.problem()


def render_lesson(episode: Episode) -> str:
    why = f" Why: {episode.why}" if episode.why else (f" (was: {episode.error})" if episode.error else "")
    pending = (
        f" (asks to block such calls; it only advises until the user runs `consolidate learnings confirm {episode.id}`)"
        if episode.awaits_confirmation
        else ""
    )
    return f"- [{episode.id}] {episode.rule}{why}{pending}"


def select_lessons(
    candidates: Iterable[Episode], *, max_lessons: int, max_bytes: int, claim: Callable[[str], bool]
) -> list[str]:
    """Rendered lessons within the budget, each claimed for this session (a claim fails once taken)."""
    chosen: list[str] = []
    used = 0
    for episode in candidates:
        if len(chosen) >= max_lessons:
            break
        text = render_lesson(episode)
        size = len(text.encode("utf-8")) + 1
        if used + size > max_bytes or not claim(episode.id):
            continue
        chosen.append(text)
        used += size
    return chosen
