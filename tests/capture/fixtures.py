"""Small synthetic Claude Code transcripts for the capture and hook tests."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from consolidate.capture.places import transcripts_dir


@dataclass
class Session:
    """Builds one session's records, chained by parentUuid, in the shapes Claude Code writes."""

    session_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    cwd: str = "/project"
    records: list[dict[str, Any]] = field(default_factory=list)
    minute: int = 0

    def _envelope(self, kind: str) -> dict[str, Any]:
        self.minute += 1
        record = {
            "type": kind,
            "uuid": str(uuid.uuid4()),
            "parentUuid": next((r["uuid"] for r in reversed(self.records) if "uuid" in r), None),
            "isSidechain": False,
            "sessionId": self.session_id,
            "cwd": self.cwd,
            "timestamp": f"2026-11-29T10:{self.minute // 60:02d}:{self.minute % 60:02d}.000Z",
            "version": "2.1.332",
        }
        self.records.append(record)
        return record

    def user(self, text: str, **extra: Any) -> Session:
        record = self._envelope("user")
        record.update({"message": {"role": "user", "content": text}, "userType": "external", **extra})
        return self

    def assistant(self, text: str, tools: list[dict[str, Any]] | None = None) -> Session:
        record = self._envelope("assistant")
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        for tool in tools or []:
            content.append({"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:12], **tool})
        message = {
            "id": "msg_" + uuid.uuid4().hex[:12],
            "role": "assistant",
            "model": "claude",
            "content": content,
        }
        record["message"] = message
        return self

    def tool_result(self, text: str, is_error: bool = False) -> Session:
        record = self._envelope("user")
        block = {"type": "tool_result", "tool_use_id": "toolu_x", "content": text, "is_error": is_error}
        record.update({"message": {"role": "user", "content": [block]}, "toolUseResult": {"stdout": text}})
        return self

    def title(self, text: str) -> Session:
        self.records.append({"type": "ai-title", "aiTitle": text, "sessionId": self.session_id})
        return self

    def lines(self) -> str:
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records)


def session_dir(claude_home: Path, cwd: Path) -> Path:
    directory = transcripts_dir(claude_home, cwd)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def write_session(claude_home: Path, cwd: Path, session: Session) -> Path:
    path = session_dir(claude_home, cwd) / f"{session.session_id}.jsonl"
    path.write_text(session.lines(), encoding="utf-8")
    return path


def append_session(path: Path, session: Session, start: int) -> None:
    """Append the records of `session` from index `start` (a live session growing)."""
    with path.open("a", encoding="utf-8") as handle:
        for record in session.records[start:]:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
