"""The claude-sdk engine's PreToolUse guard: read-only tools inside the project, plain read-only git."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.engines.guard import deny_reason

ALLOWED = ["Read", "Grep", "Glob", "Bash", "StructuredOutput"]


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("Read", {"file_path": "/proj/src/a.py"}),
        ("Read", {"file_path": "src/a.py"}),
        ("Read", {"file_path": "/mem/MEMORY.md"}),
        ("Grep", {"pattern": "x"}),
        ("Glob", {"pattern": "**/*.py", "path": "/proj"}),
        ("Bash", {"command": "git log --oneline -20"}),
        ("Bash", {"command": "git log --follow --name-status -- src/a.py"}),
        ("Bash", {"command": "git show HEAD~1:src/a.py"}),
        ("Bash", {"command": "git grep -n connect"}),
        ("StructuredOutput", {"findings": []}),
    ],
)
def test_read_only_calls_pass(tool: str, tool_input: dict) -> None:  # type: ignore[type-arg]
    assert deny_reason(tool, tool_input, ALLOWED, [Path("/proj"), Path("/mem")]) is None


@pytest.mark.parametrize(
    ("tool", "tool_input", "reason"),
    [
        ("Write", {"file_path": "/proj/a"}, "not available"),
        ("Edit", {"file_path": "/proj/a"}, "not available"),
        ("Agent", {"prompt": "x"}, "not available"),
        ("Read", {"file_path": "/etc/passwd"}, "outside the project"),
        ("Read", {"file_path": "../../etc/passwd"}, "outside the project"),
        ("Grep", {"pattern": "x", "path": "/home"}, "outside the project"),
        ("Bash", {"command": "rm -rf /"}, "only read-only git"),
        ("Bash", {"command": "git commit -am x"}, "only read-only git"),
        ("Bash", {"command": "git reset --hard"}, "only read-only git"),
        ("Bash", {"command": "git log && touch x"}, "a plain git command only"),
        ("Bash", {"command": "git log;touch x"}, "only read-only git"),
        ("Bash", {"command": "git log > out.txt"}, "a plain git command only"),
        ("Bash", {"command": "git log --output=out.txt"}, "a plain git command only"),
        ("Bash", {"command": "git grep -Ovim x"}, "a plain git command only"),
        ("Bash", {"command": "git log $(touch x)"}, "a plain git command only"),
        ("Bash", {"command": "git log | sh"}, "a plain git command only"),
    ],
)
def test_everything_else_is_denied(tool: str, tool_input: dict, reason: str) -> None:  # type: ignore[type-arg]
    found = deny_reason(tool, tool_input, ALLOWED, [Path("/proj"), Path("/mem")])
    assert found is not None and reason in found
