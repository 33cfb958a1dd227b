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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from .episodes import Episode, Trigger
from .scoring import ranked
from .store import EpisodeStore, store_path

PATH_KEYS = ("file_path", "path", "notebook_path")


@dataclass(frozen=True)
class ToolCall:
    tool: str
    command: str
    paths: tuple[str, ...]
    cwd: str

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
    if trigger is None or trigger.is_empty or trigger.problem():
        return False
    if trigger.tool and not re.fullmatch(trigger.tool, call.tool):
        return False
    if trigger.command and not (call.command and re.search(trigger.command, call.command)):
        return False
    if trigger.path and not any(path_matches(trigger.path, p, call.cwd, project_root) for p in call.paths):
        return False
    return not trigger.project or _inside(call.cwd or project_root, trigger.project)


def path_matches(pattern: str, path: str, cwd: str, project_root: str) -> bool:
    regex = glob_regex(pattern)
    absolute = os.path.normpath(os.path.join(cwd or project_root, path))
    candidates = {path, absolute}
    for base in (project_root, cwd):
        if base and _inside(absolute, base):
            candidates.add(os.path.relpath(absolute, base))
    if "/" not in pattern:
        candidates.add(os.path.basename(absolute))
    return any(regex.fullmatch(candidate) for candidate in candidates)


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """`**` crosses directories, `*` and `?` stay within one, `[...]` is a character class;
    a trailing `/**` also matches the directory itself (a search rooted there)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.endswith("/**") and i == len(pattern) - 3:
            out.append("(?:/.*)?")
            i += 3
        elif pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 1 :]:
            end = pattern.index("]", i + 1)
            out.append("[" + pattern[i + 1 : end].replace("!", "^", 1) + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def _inside(path: str, directory: str) -> bool:
    path, directory = os.path.normpath(path), os.path.normpath(os.path.expanduser(directory))
    return path == directory or path.startswith(directory.rstrip("/") + "/")


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
