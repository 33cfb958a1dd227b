"""The last active records of a transcript, kept between scans as context for appended records.

Stored compact and redacted: texts are cut short and only the tool inputs the detectors read survive (a
proposed plan whole: the approval that may follow holds the plan as the user edited it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..secrets import redact_clip
from ..transcripts.records import PLAN_TOOL, TEXT_CAP, Record, ToolResult, ToolUse
from ..transcripts.state import encode_json

CARRY_RECORDS = 24  # enough to look back over a turn: the last tool calls and what they answered
TEXT_LIMIT = 200  # detectors look back at the gist of earlier turns, never their full text
ERROR_LIMIT = 400  # a failed call's error, for error -> fix; other tool output is not kept
_INPUT_KEYS = ("command", "file_path", "notebook_path", "path", "description")


def dump_records(records: list[Record]) -> list[list[Any]]:
    return [_row(r) for r in records]


def _row(record: Record) -> list[Any]:
    uses = [[u.id, u.name, _inputs(u.input, u.name)] for u in record.tool_uses]
    results = [
        [r.tool_use_id, r.is_error, redact_clip(r.text, ERROR_LIMIT, "") if r.is_error else ""]
        for r in record.tool_results
    ]
    return [
        record.type, record.uuid, record.parent, record.logical_parent, record.session, record.timestamp,
        record.line, record.subtype, record.message_id, record.sidechain, record.meta, record.compact_summary,
        record.origin, [redact_clip(t, TEXT_LIMIT, "") for t in record.texts], uses, results,
    ]  # fmt: skip


def _inputs(values: dict[str, Any], name: str = "") -> dict[str, Any]:
    kept = {
        k: redact_clip(v, TEXT_LIMIT, "")
        for k, v in values.items()
        if k in _INPUT_KEYS and isinstance(v, str)
    }
    plan = values.get("plan")
    if name == PLAN_TOOL and isinstance(plan, str):  # a plan awaiting approval: its edits are read against it
        kept["plan"] = redact_clip(plan, TEXT_CAP, "")
    return kept


def load_records(rows: list[list[Any]]) -> list[Record]:
    records = []
    for row in rows:
        (kind, uuid, parent, logical, session, stamp, line, subtype, message_id, sidechain, meta, summary,
         origin, texts, uses, results) = row  # fmt: skip
        records.append(
            Record(
                kind,
                uuid,
                parent,
                logical,
                session,
                stamp,
                line,
                subtype,
                message_id,
                sidechain,
                meta,
                summary,
                origin,
                list(texts),
                [ToolUse(*u) for u in uses],
                [ToolResult(*r) for r in results],
            )  # fmt: skip
        )
    return records


class CarryStore:
    """The carried records of every recent transcript, in one JSON file read only when needed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._rows: dict[str, list[list[Any]]] | None = None
        self._dirty = False

    def _all(self) -> dict[str, list[list[Any]]]:
        if self._rows is None:
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError):
                loaded = {}
            self._rows = loaded if isinstance(loaded, dict) else {}
        return self._rows

    def get(self, key: str) -> list[Record] | None:
        """The carried records of a transcript, or None (it is then read again in full)."""
        rows = self._all().get(key)
        try:
            return load_records(rows) if rows is not None else None
        except (TypeError, ValueError):
            return None

    def put(self, key: str, records: list[Record]) -> None:
        self._all()[key] = dump_records(records[-CARRY_RECORDS:])
        self._dirty = True

    def drop(self, key: str) -> None:
        if (self._rows is not None or self.path.exists()) and self._all().pop(key, None) is not None:
            self._dirty = True

    def save(self) -> None:
        """Write through a temp file and rename (no fsync: a lost carry only means a full re-read)."""
        if not self._dirty or self._rows is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temp.write_bytes(encode_json(self._rows))
        os.replace(temp, self.path)
        self._dirty = False
