"""Run a hook in-process the way Claude Code would: the event's JSON payload on stdin."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

from consolidate.capture.places import claude_home, transcripts_dir
from consolidate.hooks.entry import run_hook

SESSION = "3f2a8c1e-5b7d-4e9a-9c1f-2d4b6a8e0f13"


def payload(event: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    """The common base every event gets (reference §4.2), plus the event's own fields."""
    session = str(fields.get("session_id") or SESSION)
    base = {
        "session_id": SESSION,
        "transcript_path": str(transcripts_dir(claude_home(), cwd) / f"{session}.jsonl"),
        "cwd": str(cwd),
        "hook_event_name": event,
    }
    return {**base, **fields}


def hook(
    event: str, data: dict[str, Any] | str, env: dict[str, str] | None = None
) -> tuple[int, dict[str, Any] | None, str]:
    """(exit code, parsed JSON answer or None, raw stdout)."""
    stdin = io.StringIO(data if isinstance(data, str) else json.dumps(data))
    stdout = io.StringIO()
    base = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}  # the payload says where
    code = run_hook(event, stdin, stdout, {**base, **(env or {})})
    raw = stdout.getvalue()
    return code, (json.loads(raw) if raw.strip() else None), raw


def context_of(answer: dict[str, Any] | None) -> str:
    assert answer is not None, "the hook printed nothing"
    return str(answer["hookSpecificOutput"].get("additionalContext", ""))
