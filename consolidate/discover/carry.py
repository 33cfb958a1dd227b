"""The last active records of a transcript, kept between scans as context for appended records.

Stored compact and redacted: texts are cut short and only the tool inputs the detectors read survive.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..secrets import redact
from ..transcripts.records import Record, ToolResult, ToolUse

CARRY_RECORDS = 40
TEXT_LIMIT = 200  # detectors look back at the gist of earlier turns, never their full text
ERROR_LIMIT = 400  # a failed call's error, for error -> fix; other tool output is not kept
_INPUT_KEYS = ("command", "file_path", "notebook_path", "path", "description")


def dump_records(records: list[Record]) -> list[list[Any]]:
    return [_row(r) for r in records]


def _row(record: Record) -> list[Any]:
    uses = [[u.id, u.name, _inputs(u.input)] for u in record.tool_uses]
    results = [
        [r.tool_use_id, r.is_error, redact(r.text[:ERROR_LIMIT]) if r.is_error else ""]
        for r in record.tool_results
    ]
    return [
        record.type, record.uuid, record.parent, record.logical_parent, record.session, record.timestamp,
        record.line, record.subtype, record.message_id, record.sidechain, record.meta, record.compact_summary,
        record.origin, [redact(t[:TEXT_LIMIT]) for t in record.texts], uses, results,
    ]  # fmt: skip


def _inputs(values: dict[str, Any]) -> dict[str, Any]:
    return {k: redact(v[:TEXT_LIMIT]) for k, v in values.items() if k in _INPUT_KEYS and isinstance(v, str)}


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


def save_carry(path: Path, records: list[Record]) -> None:
    """Write through a temp file and rename (no fsync: a lost carry only means a full re-read)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_text(json.dumps(dump_records(records[-CARRY_RECORDS:]), ensure_ascii=False), encoding="utf-8")
    os.replace(temp, path)


def load_carry(path: Path) -> list[Record] | None:
    """The saved context, or None when absent or unreadable (the transcript is then read in full)."""
    try:
        return load_records(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None
