"""Which tool calls a gather agent may make under the claude-sdk engine: a second line of defence.

The toolset is already read-only (no Write/Edit; Bash only for git); this check runs as a PreToolUse
hook on every call and denies anything else: a tool outside the agent's list, a path outside the
project and the memory dir, or a shell command that is not one plain read-only git invocation.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

READ_ONLY_GIT = re.compile(
    r"^git\s+(log|show|grep|ls-files|ls-tree|blame|diff|status|rev-parse|shortlog|cat-file|describe)(\s|$)"
)
_SHELL_META = re.compile(r"[;&|<>$`\\\n\r]|\(|\)")
# git options that write files or run programs.
_GIT_WRITES = re.compile(r"(^|\s)(--output(=|\s|$)|-O|--open-files-in-pager|--ext-diff|--textconv|-c\s)")
_PATH_KEYS = ("file_path", "path", "notebook_path")


def deny_reason(
    tool: str, tool_input: dict[str, Any], allowed: Iterable[str], roots: list[Path]
) -> str | None:
    """Why this call must not run, or None when it may; relative paths are taken from `roots[0]`."""
    if tool not in set(allowed):
        return f"{tool} is not available to the gather agents (read-only tools only)"
    if tool == "Bash":
        return _bash_reason(str(tool_input.get("command", "")))
    for key in _PATH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value and not _inside(value, roots):
            return f"{value} is outside the project and the memory dir"
    return None


def _bash_reason(command: str) -> str | None:
    line = command.strip()
    if not READ_ONLY_GIT.match(line):
        return "only read-only git commands (log, show, grep, ls-files, blame, diff, status) may run"
    if _SHELL_META.search(line) or _GIT_WRITES.search(line):
        return "a plain git command only: no redirection, pipes, substitution or output files"
    return None


def _inside(path: str, roots: list[Path]) -> bool:
    real = Path(os.path.realpath(roots[0] / os.path.expanduser(path)))
    for root in roots:
        base = Path(os.path.realpath(root))
        if real == base or base in real.parents:
            return True
    return False
