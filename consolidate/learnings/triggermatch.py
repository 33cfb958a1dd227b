"""Whether a trigger's fields match a tool call, on plain strings: the one matcher the PreToolUse
hook's manifest path and `lessons.matches` share. Standard library `os` and `re` only; a regex is
compiled only when the call reaches the field it tests.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache


def fields_match(
    fields: tuple[str, str, str, str],
    tool: str,
    command: str,
    paths: tuple[str, ...],
    cwd: str,
    project_root: str,
) -> bool:
    """`fields` is a working trigger's (tool, command, path, project); the call's name, command,
    paths and cwd follow."""
    want_tool, want_command, want_path, want_project = fields
    if want_tool and not tool_matches(want_tool, tool):
        return False
    if want_command and not (command and re.search(want_command, command)):
        return False
    if want_path and not any(path_matches(want_path, p, cwd, project_root) for p in paths):
        return False
    return not want_project or inside(cwd or project_root, want_project)


def tool_matches(pattern: str, tool: str) -> bool:
    """`re.fullmatch(pattern, tool)`; a pattern of plain names (`Edit|Write`) is compared as words."""
    if all(c.isalnum() or c in "_|" for c in pattern):
        return tool in pattern.split("|")
    return re.fullmatch(pattern, tool) is not None


def path_matches(pattern: str, path: str, cwd: str, project_root: str) -> bool:
    regex = glob_regex(pattern)
    absolute = os.path.normpath(os.path.join(cwd or project_root, path))
    candidates = {path, absolute}
    for base in (project_root, cwd):
        if base and inside(absolute, base):
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


def inside(path: str, directory: str) -> bool:
    path, directory = os.path.normpath(path), os.path.normpath(os.path.expanduser(directory))
    return path == directory or path.startswith(directory.rstrip("/") + "/")
