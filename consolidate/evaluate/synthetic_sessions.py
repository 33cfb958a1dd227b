"""Write synthetic Claude Code transcripts in the real record shapes (for the dev set and tests).

Two envelope styles: "old" (2.1.3x: no prompt origin) and "new" (2.1.2xx: `origin`, `promptSource`,
attachments). Records chain by `parentUuid`; tool results pair with tool uses by id; compaction,
rewinds, interrupts, rejections, meta prompts and subagent transcripts are all available.
"""

from __future__ import annotations

import json
import random
import uuid as uuidlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit,"
    " the new_string was NOT written to the file)."
)
STOP = " STOP what you are doing and wait for the user to tell you how to proceed."
SAID = " To tell you how to proceed, the user said:\n"


class SessionWriter:
    """Builds one transcript record by record; `write()` saves it as JSONL."""

    def __init__(
        self, session_id: str, *, style: str = "old", start: datetime | None = None, rng: random.Random | None = None,
        agent_id: str = "", cwd: str = "/work/project",
    ) -> None:  # fmt: skip
        self.session_id = session_id
        self.style = style
        self.agent_id = agent_id
        self.cwd = cwd
        self.rng = rng or random.Random(0)
        self.clock = start or datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
        self.lines: list[dict[str, Any]] = []
        self.leaf: str | None = None
        self.version = "2.1.39" if style == "old" else "2.1.204"
        self._uuid_count = 0

    # --- plumbing --------------------------------------------------------------------------------
    def new_uuid(self) -> str:
        self._uuid_count += 1
        return str(uuidlib.UUID(int=self.rng.getrandbits(128), version=4))

    def _stamp(self) -> str:
        self.clock += timedelta(seconds=self.rng.randint(2, 40))
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.rng.randint(0, 999):03d}Z"

    def _envelope(self, kind: str, parent: str | None) -> dict[str, Any]:
        record: dict[str, Any] = {
            "parentUuid": parent, "isSidechain": bool(self.agent_id), "userType": "external", "cwd": self.cwd,
            "sessionId": self.session_id, "version": self.version, "gitBranch": "main", "type": kind,
        }  # fmt: skip
        if self.agent_id:
            record["agentId"] = self.agent_id
        return record

    def _add(self, record: dict[str, Any], *, advance: bool = True) -> str:
        record["uuid"] = self.new_uuid()
        record["timestamp"] = self._stamp()
        self.lines.append(record)
        if advance:
            self.leaf = record["uuid"]
        return str(record["uuid"])

    def _parent(self, parent: str | None | bool) -> str | None:
        if parent is True:
            return self.leaf
        return parent if isinstance(parent, str) and parent else None

    # --- message records ------------------------------------------------------------------------
    def user(
        self, text: str, *, parent: str | None | bool = True, meta: bool = False, advance: bool = True
    ) -> str:
        record = self._envelope("user", self._parent(parent))
        record["message"] = {"role": "user", "content": text}
        if meta:
            record["isMeta"] = True
        elif self.style == "new" and not self.agent_id:
            record.update({"origin": {"kind": "human"}, "promptSource": "typed", "permissionMode": "default"})
        return self._add(record, advance=advance)

    def assistant(
        self,
        text: str = "",
        *,
        tools: Sequence[tuple[str, dict[str, Any]]] = (),
        parent: str | None | bool = True,
    ) -> tuple[str, list[str]]:
        """An assistant turn: one record per content block, as the CLI writes them; (last uuid, tool ids)."""
        message_id = f"msg_{self.rng.getrandbits(64):016x}"
        blocks: list[dict[str, Any]] = []
        if text:
            blocks.append({"type": "text", "text": text})
        ids = []
        for name, tool_input in tools:
            tool_id = f"toolu_{self.rng.getrandbits(80):020x}"
            ids.append(tool_id)
            blocks.append({"type": "tool_use", "id": tool_id, "name": name, "input": tool_input})
        last = self._parent(parent)
        for block in blocks or [{"type": "text", "text": ""}]:
            record = self._envelope("assistant", last)
            record["message"] = {
                "model": "claude-sonnet-5-5", "id": message_id, "type": "message", "role": "assistant",
                "content": [block], "stop_reason": "tool_use" if block["type"] == "tool_use" else "end_turn",
                "usage": {"input_tokens": 10, "output_tokens": 20},
            }  # fmt: skip
            record["requestId"] = f"req_{self.rng.getrandbits(48):012x}"
            last = self._add(record)
        return str(last), ids

    def tool_result(
        self, tool_id: str, content: str, *, is_error: bool = False, parent: str | None | bool = True
    ) -> str:
        record = self._envelope("user", self._parent(parent))
        record["message"] = {
            "role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": content, "is_error": is_error}],
        }  # fmt: skip
        record["toolUseResult"] = (
            f"Error: {content}" if is_error else {"stdout": content, "stderr": "", "interrupted": False}
        )
        return self._add(record)

    def tool_call(
        self,
        name: str,
        tool_input: dict[str, Any],
        output: str = "ok",
        *,
        is_error: bool = False,
        text: str = "",
    ) -> tuple[str, str]:  # noqa: E501
        """An assistant tool use and its result; (assistant uuid, result uuid)."""
        used, ids = self.assistant(text, tools=[(name, tool_input)])
        return used, self.tool_result(ids[0], output, is_error=is_error)

    def plan(self, proposed: str, approved: str | None = None) -> tuple[str, str]:
        """Plan mode: the assistant proposes a plan and the user approves it, edited into `approved` when
        given (the approval holds the plan as the user left it); (assistant uuid, result uuid)."""
        used, ids = self.assistant(tools=[("ExitPlanMode", {"plan": proposed})])
        label = "Approved Plan" if approved is None else "Approved Plan (edited by user)"
        text = (
            "User has approved your plan. You can now start coding. Start with updating your todo list if "
            f"applicable\n\nYour plan has been saved to: /home/u/.claude/plans/{self.session_id[:8]}.md\nYou "
            f"can refer back to it if needed during implementation.\n\n## {label}:\n"
            f"{proposed if approved is None else approved}"
        )
        return used, self.tool_result(ids[0], text)

    def reject(self, tool_id: str, reason: str = "") -> str:
        """The user rejects a tool use, with a reason or (empty) a bare stop."""
        text = REJECTED + (SAID + reason if reason else STOP)
        return self.tool_result(tool_id, text, is_error=True)

    def interrupt(self, for_tool: bool = True) -> str:
        record = self._envelope("user", self.leaf)
        note = "[Request interrupted by user for tool use]" if for_tool else "[Request interrupted by user]"
        record["message"] = {"role": "user", "content": [{"type": "text", "text": note}]}
        return self._add(record)

    def system(self, subtype: str = "turn_duration", **fields: Any) -> str:
        record = self._envelope("system", self.leaf)
        record.update({"subtype": subtype, "isMeta": False, **fields})
        return self._add(record)

    def progress(self, tool_id: str) -> str:
        record = self._envelope("progress", self.leaf)
        record.update({"data": {"type": "hook_progress", "hookEvent": "PostToolUse"}, "toolUseID": tool_id,
                       "parentToolUseID": tool_id})  # fmt: skip
        return self._add(record, advance=False)

    def attachment(self, kind: str = "task_reminder", content: str = "") -> str:
        record = self._envelope("attachment", self.leaf)
        record["attachment"] = {"type": kind, "content": content}
        return self._add(record)

    def compact(self, summary: str) -> tuple[str, str]:
        """A compaction: the boundary (no parent, a logical parent) and the summary prompt."""
        record = self._envelope("system", None)
        record.update({"subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": False,
                       "logicalParentUuid": self.leaf, "compactMetadata": {"trigger": "auto", "preTokens": 160000}})  # fmt: skip
        boundary = self._add(record)
        summary_record = self._envelope("user", boundary)
        summary_record["message"] = {
            "role": "user",
            "content": "This session is being continued from a previous conversation that ran out of context. "
            "The summary below covers the earlier portion of the conversation.\n\nSummary:\n" + summary,
        }
        summary_record["isCompactSummary"] = True
        return boundary, self._add(summary_record)

    # --- metadata records -----------------------------------------------------------------------
    def meta_line(self, kind: str, **fields: Any) -> None:
        self.lines.append({"type": kind, "sessionId": self.session_id, **fields})

    def snapshot(self) -> None:
        message = self.new_uuid()
        self.lines.append({"type": "file-history-snapshot", "messageId": message,
                           "snapshot": {"messageId": message, "trackedFileBackups": {}, "timestamp": self._stamp()},
                           "isSnapshotUpdate": False})  # fmt: skip

    def slash_command(self, name: str, output: str) -> None:
        self.user("<local-command-caveat>Caveat: The messages below were generated by the user while running "
                  "local commands. DO NOT respond to these messages.</local-command-caveat>", meta=True)  # fmt: skip
        self.user(
            f"<command-name>/{name}</command-name>\n<command-message>{name}</command-message>\n<command-args></command-args>"
        )
        self.user(f"<local-command-stdout>{output}</local-command-stdout>")

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            for record in self.lines:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        return path


def write_session(directory: Path, writer: SessionWriter) -> Path:
    """Save a main session (or, when the writer has an agent id, a subagent transcript with its meta)."""
    if writer.agent_id:
        folder = directory / writer.session_id / "subagents"
        meta = {
            "agentType": "general-purpose",
            "description": "explore",
            "toolUseId": "toolu_x",
            "spawnDepth": 1,
        }
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"agent-{writer.agent_id}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
        return writer.write(folder / f"agent-{writer.agent_id}.jsonl")
    return writer.write(directory / f"{writer.session_id}.jsonl")
