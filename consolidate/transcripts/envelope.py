"""The fields of a transcript record `normalize` reads, as msgspec structs, and the `Record` made from one.

msgspec decodes a line straight into these structs: no dict is built for a record, its message or its
content blocks, and every other key (a tool's full output, usage figures, image data) is skipped inside
the parser. `record_of` gives the `Record` that `normalize` gives for the same line read by the standard
parser (tested on odd and random lines). Imported only where msgspec is (`fastjson`).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from .records import (
    LEAN_INPUT_KEYS,
    MESSAGE_TYPES,
    PLAN_APPROVED,
    PLAN_TOOL,
    RESULT_CAP,
    TEXT_CAP,
    Record,
    ToolResult,
    ToolUse,
    _capped_input,
    _link,
    _str,
    lean_input,
    raw_plan_approval,
    set_content,
)
from .records import _result_text as _plain_result_text


class Part(msgspec.Struct, gc=False):
    """A block inside a tool result: only its text is read."""

    type: Any = None
    text: Any = None


class Block(msgspec.Struct, gc=False):
    type: Any = None
    text: Any = None
    id: Any = None
    name: Any = None
    input: Any = None
    tool_use_id: Any = None
    is_error: Any = None
    content: str | list[Part] | None = None


class Message(msgspec.Struct, gc=False):
    id: Any = None
    content: str | list[Block] | None = None


class Envelope(msgspec.Struct, gc=False):
    type: Any = None
    uuid: Any = None
    parent: Any = msgspec.field(default=None, name="parentUuid")
    logical_parent: Any = msgspec.field(default=None, name="logicalParentUuid")
    session: Any = msgspec.field(default=None, name="sessionId")
    timestamp: Any = None
    subtype: Any = None
    sidechain: Any = msgspec.field(default=None, name="isSidechain")
    meta: Any = msgspec.field(default=None, name="isMeta")
    transcript_only: Any = msgspec.field(default=None, name="isVisibleInTranscriptOnly")
    compact_summary: Any = msgspec.field(default=None, name="isCompactSummary")
    origin: Any = None
    message: Message | None = None


class LeanBlock(Block, gc=False):
    """A block as a lean read takes it: a tool result's content is left undecoded (`Raw`) until it
    turns out to be an error's, the only result whose text a lean reader keeps; of a tool's input,
    only the values of `LEAN_INPUT_KEYS` are decoded (the others stay `Raw`, never built)."""

    content: msgspec.Raw = None  # type: ignore[assignment]  # None when absent
    input: dict[str, msgspec.Raw] | None = None


class LeanMessage(msgspec.Struct, gc=False):
    id: Any = None
    content: str | list[LeanBlock] | None = None


class LeanEnvelope(Envelope, gc=False):
    message: LeanMessage | None = None  # type: ignore[assignment]


_result_content = msgspec.json.Decoder(str | list[Part] | None)


def record_of(raw: Envelope, line: int = 0) -> Record | None:
    """`normalize` of a decoded envelope: the record as a `Record`, or None for metadata records."""
    kind = raw.type
    if kind.__class__ is not str or kind not in MESSAGE_TYPES:
        return None
    uuid, session, stamp, subtype = raw.uuid, raw.session, raw.timestamp, raw.subtype
    record = Record(
        kind, uuid if uuid.__class__ is str else "", _link(raw.parent), _link(raw.logical_parent),
        session if session.__class__ is str else "", stamp if stamp.__class__ is str else "", line,
        subtype if subtype.__class__ is str else "", "", bool(raw.sidechain),
        bool(raw.meta or raw.transcript_only), bool(raw.compact_summary),
    )  # fmt: skip
    origin = raw.origin
    if origin.__class__ is dict:
        record.origin = _str(origin.get("kind"))
    message = raw.message
    if message is not None and (kind == "user" or kind == "assistant"):
        record.message_id = _str(message.id)
        content = message.content
        if content.__class__ is str:
            record.texts = [content[:TEXT_CAP]]
        elif content:
            _read_blocks(record, content)  # type: ignore[arg-type]
    return record


def _read_blocks(record: Record, content: list[Block]) -> None:
    texts: list[str] = []
    uses: list[ToolUse] = []
    results: list[ToolResult] = []
    for block in content:
        kind = block.type
        if kind == "text":
            text = block.text
            texts.append(text[:TEXT_CAP] if text.__class__ is str else "")
        elif kind == "tool_use":
            given, name = block.input, _str(block.name)
            inputs = _lean_input(given, name) if block.__class__ is LeanBlock else _capped_input(given, name)
            uses.append(ToolUse(_str(block.id), name, inputs))
        elif kind == "tool_result":
            error, inner = bool(block.is_error), block.content
            if (
                inner.__class__ is msgspec.Raw
            ):  # a lean read: only an error's or a plan approval's text is kept
                if error:
                    inner = _decoded(inner)
                elif raw_plan_approval(inner):
                    inner = _decoded(inner)
                    inner = inner if _approves(inner) else None
                else:
                    inner = None
            results.append(ToolResult(_str(block.tool_use_id), error, _result_text(inner)))
    set_content(record, texts, uses, results)


def _result_text(content: str | list[Part] | None) -> str:
    if content.__class__ is str:
        return content[: TEXT_CAP if content.startswith(PLAN_APPROVED) else RESULT_CAP]
    if content:
        text = "\n".join([_str(p.text) for p in content if p.type == "text"])  # type: ignore[union-attr]
        return text[: TEXT_CAP if text.startswith(PLAN_APPROVED) else RESULT_CAP]
    return ""


def _approves(content: str | list[Part] | None) -> bool:
    """`records.is_plan_approval` of decoded content."""
    if isinstance(content, list):
        content = next((p.text for p in content if p.type == "text"), "")
    return isinstance(content, str) and content.startswith(PLAN_APPROVED)


_any_value = msgspec.json.Decoder()


def _lean_input(given: dict[str, msgspec.Raw] | None, name: str = "") -> dict[str, Any]:
    """`lean_input` of a tool's input whose values are undecoded: only those it keeps are decoded."""
    if not given:
        return {}
    kept = {}
    for key, value in given.items():
        if key in LEAN_INPUT_KEYS or key == "plan" and name == PLAN_TOOL:
            try:  # msgspec checked the value when it took it whole: it decodes
                kept[key] = _any_value.decode(value)
            except msgspec.DecodeError:
                try:
                    kept[key] = json.loads(bytes(value))
                except (ValueError, RecursionError):
                    continue
    return lean_input(kept, name)


def _decoded(raw: msgspec.Raw) -> str | list[Part] | None:
    """A tool result's content decoded as the full envelope would have it; content of another shape
    (the full decoder refuses the line, which the standard parser reads then) as its text."""
    try:
        return _result_content.decode(raw)
    except msgspec.ValidationError:
        try:
            return _plain_result_text(json.loads(bytes(raw)))
        except (ValueError, RecursionError):
            return None
