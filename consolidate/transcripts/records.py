"""One transcript record, normalised: the envelope fields and the content blocks that matter.

Texts and tool outputs are capped so that a session held in memory stays small whatever its size on
disk. Standard library only: the capture hook reads transcripts with this module.
"""

from __future__ import annotations

import re

from ..lazyre import lazy
from ..plain import Plain

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

MESSAGE_TYPES = frozenset({"user", "assistant", "system", "attachment", "progress"})
_METADATA_TYPES = (
    "file-history-snapshot", "file-history-delta", "summary", "custom-title", "ai-title", "tag", "last-prompt",
    "cost-state", "tools-used", "mode", "permission-mode", "agent-name", "agent-color", "agent-setting",
    "queue-operation", "pr-link", "worktree-state", "api-request", "content-replacement", "memory-mode",
)  # fmt: skip
# Progress records (hook and subagent progress) carry nothing to mine; readers that only need the
# conversation can skip them unparsed (the chain stays whole: no message hangs off a progress record).
PROGRESS_MARKERS = (b'"type":"progress"', b'"type": "progress"')
# Lines of records that are never messages, recognisable before parsing (compact and spaced JSON).
METADATA_PREFIXES = tuple(
    f'{{"type":{space}"{kind}"'.encode() for kind in _METADATA_TYPES for space in ("", " ")
)
TEXT_CAP = 20_000
RESULT_CAP = 2_000
INPUT_CAP = 2_000
# What a lean reader (the discoverer, and the context it carries between scans) reads of a tool's input:
# a lean read keeps these keys only, and never builds the rest (a file's new content, an edit's strings).
LEAN_INPUT_KEYS = frozenset({"command", "file_path", "notebook_path", "path", "description"})
# Plan mode: the plan the assistant proposes (the ExitPlanMode input's `plan`) and the result that approves
# it, which holds the plan as approved, edited by the user or not. Both are read whole (up to `TEXT_CAP`),
# lean or not, so what the user changed can be told from what was proposed (see `discover.planedits`).
PLAN_TOOL = "ExitPlanMode"
PLAN_APPROVED = "User has approved your plan"
_PLAN_PROBE = PLAN_APPROVED.encode()
PLAN_PROBE_BYTES = 96  # an approval says so at the start of its content, whether a string or text blocks

REJECTION_PREFIX = "The user doesn't want to proceed with this tool use"
_REASON_SPLIT = lazy(r"the user said:\s*", re.IGNORECASE)
_HARNESS_NOTE = lazy(r"\n\s*Note: The user's next message")
INTERRUPT_PREFIX = "[Request interrupted by user"
# Text the harness writes into user turns: never something the user typed.
MACHINE_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-",
    "<system-reminder>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<task-notification>",
    "<user-prompt-submit-hook>",
    "<persisted-output>",
    "<tool_use_error>",
    INTERRUPT_PREFIX,
    "Caveat: The messages below",
    "This session is being continued from a previous conversation",
    "Implement the following plan",
    "[Subagent hand-back]",
    "Base directory for this skill",
    "Stop hook feedback",
    "PreToolUse:",
    "PostToolUse:",
    "UserPromptSubmit hook",
    "SessionStart hook",
)
_MACHINE_BLOCK = lazy(
    r"<(system-reminder|user-prompt-submit-hook|local-command-stdout|local-command-stderr|"
    r"local-command-caveat|command-name|command-message|command-args|bash-stdout|bash-stderr|"
    r"task-notification)>.*?(?:</\1>|\Z)",
    re.DOTALL,
)


class ToolUse(Plain):
    __slots__ = FIELDS = ("id", "name", "input")

    def __init__(self, id: str, name: str, input: dict[str, Any]) -> None:  # noqa: A002 - the record's keys
        self.id = id
        self.name = name
        self.input = input


class ToolResult(Plain):
    __slots__ = FIELDS = ("tool_use_id", "is_error", "text")

    def __init__(self, tool_use_id: str, is_error: bool, text: str) -> None:
        self.tool_use_id = tool_use_id
        self.is_error = is_error
        self.text = text

    @property
    def rejected(self) -> bool:
        return self.is_error and self.text.startswith(REJECTION_PREFIX)

    @property
    def rejection_reason(self) -> str:
        """What the user said when rejecting the tool use ("" when they only stopped it)."""
        if not self.rejected:
            return ""
        parts = _REASON_SPLIT.split(self.text, maxsplit=1)
        return _HARNESS_NOTE.split(parts[1], maxsplit=1)[0].strip() if len(parts) == 2 else ""


class Record(Plain):
    """A message record (user, assistant, system, attachment, progress) in file order."""

    __slots__ = FIELDS = (
        "type", "uuid", "parent", "logical_parent", "session", "timestamp", "line", "subtype", "message_id",
        "sidechain", "meta", "compact_summary", "origin", "texts", "tool_uses", "tool_results",
    )  # fmt: skip

    def __init__(
        self,
        type: str,  # noqa: A002 - the record's key
        uuid: str = "",
        parent: str | None = None,
        logical_parent: str | None = None,
        session: str = "",
        timestamp: str = "",
        line: int = 0,
        subtype: str = "",
        message_id: str = "",
        sidechain: bool = False,
        meta: bool = False,
        compact_summary: bool = False,
        origin: str = "",
        # Empty tuples unless the record has content (most records have none of one kind or another).
        texts: Sequence[str] = (),
        tool_uses: Sequence[ToolUse] = (),
        tool_results: Sequence[ToolResult] = (),
    ) -> None:
        self.type = type
        self.uuid = uuid
        self.parent = parent
        self.logical_parent = logical_parent
        self.session = session
        self.timestamp = timestamp
        self.line = line
        self.subtype = subtype
        self.message_id = message_id
        self.sidechain = sidechain
        self.meta = meta
        self.compact_summary = compact_summary
        self.origin = origin
        self.texts = texts
        self.tool_uses = tool_uses
        self.tool_results = tool_results

    @property
    def text(self) -> str:
        return "\n".join(self.texts)

    @property
    def is_interrupt(self) -> bool:
        return self.type == "user" and bool(self.texts) and self.texts[0].startswith(INTERRUPT_PREFIX)


def normalize(raw: dict[str, Any], line: int = 0, *, lean: bool = False) -> Record | None:
    """The record as a `Record`, or None for metadata records (titles, snapshots, queue operations).
    `lean`: a tool result that is no error keeps no text, and a tool's input only `LEAN_INPUT_KEYS`."""
    kind = raw.get("type")
    if kind.__class__ is not str or kind not in MESSAGE_TYPES:
        return None
    get = raw.get
    uuid, session, stamp, subtype = (
        get("uuid", ""),
        get("sessionId", ""),
        get("timestamp", ""),
        get("subtype", ""),
    )
    record = Record(
        kind, uuid if uuid.__class__ is str else "", _link(get("parentUuid")), _link(get("logicalParentUuid")),
        session if session.__class__ is str else "", stamp if stamp.__class__ is str else "", line,
        subtype if subtype.__class__ is str else "", "", bool(get("isSidechain")),
        bool(get("isMeta") or get("isVisibleInTranscriptOnly")), bool(get("isCompactSummary")),
    )  # fmt: skip
    origin = get("origin")
    if origin.__class__ is dict:
        record.origin = _str(origin.get("kind"))
    message = get("message")
    if message.__class__ is dict and (kind == "user" or kind == "assistant"):
        record.message_id = _str(message.get("id"))
        _read_content(record, message.get("content"), lean)
    return record


def _link(value: Any) -> str | None:
    return value if value and value.__class__ is str else None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _read_content(record: Record, content: Any, lean: bool = False) -> None:
    if content.__class__ is str:
        record.texts = [content[:TEXT_CAP]]
        return
    if content.__class__ is not list:
        return
    texts: list[str] = []
    uses: list[ToolUse] = []
    results: list[ToolResult] = []
    for block in content:
        if block.__class__ is not dict:
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text", "")
            texts.append(text[:TEXT_CAP] if text.__class__ is str else "")
        elif kind == "tool_use":
            given, name = block.get("input"), _str(block.get("name"))
            inputs = lean_input(given, name) if lean else _capped_input(given, name)
            uses.append(ToolUse(_str(block.get("id")), name, inputs))
        elif kind == "tool_result":
            error, inner = bool(block.get("is_error")), block.get("content")
            text = _result_text(inner) if error or not lean or is_plan_approval(inner) else ""
            results.append(ToolResult(_str(block.get("tool_use_id")), error, text))
    set_content(record, texts, uses, results)


def set_content(record: Record, texts: list[str], uses: list[ToolUse], results: list[ToolResult]) -> None:
    """Give the record the content blocks read (an empty kind keeps its shared empty tuple)."""
    if texts:
        record.texts = texts
    if uses:
        record.tool_uses = uses
    if results:
        record.tool_results = results


def _capped_input(value: Any, name: str = "") -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    if name == PLAN_TOOL:
        return {
            k: v[: TEXT_CAP if k == "plan" else INPUT_CAP] if isinstance(v, str) else v
            for k, v in value.items()
        }
    if all(not isinstance(v, str) or len(v) <= INPUT_CAP for v in value.values()):
        return value
    return {k: v[:INPUT_CAP] if isinstance(v, str) else v for k, v in value.items()}


def lean_input(value: Any, name: str = "") -> dict[str, Any]:
    """The keys of a tool's input a lean reader reads (`LEAN_INPUT_KEYS`, and a proposed plan), in their
    order, capped."""
    if not isinstance(value, dict):
        return {}
    kept = {k: v[:INPUT_CAP] if isinstance(v, str) else v for k, v in value.items() if k in LEAN_INPUT_KEYS}
    if name == PLAN_TOOL and isinstance(value.get("plan"), str):
        kept["plan"] = value["plan"][:TEXT_CAP]
    return kept


def is_plan_approval(content: Any) -> bool:
    """Whether a tool result's (decoded) content is plan mode's approval, whose text a lean read keeps."""
    if isinstance(content, list):
        content = next(
            (b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"), ""
        )
    return isinstance(content, str) and content.startswith(PLAN_APPROVED)


def raw_plan_approval(raw: bytes | memoryview) -> bool:
    """`is_plan_approval` decided on the undecoded JSON of the content, from its first bytes only."""
    return _PLAN_PROBE in bytes(memoryview(raw)[:PLAN_PROBE_BYTES])


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content[: TEXT_CAP if content.startswith(PLAN_APPROVED) else RESULT_CAP]
    if isinstance(content, list):
        parts = [_str(b.get("text")) for b in content if isinstance(b, dict) and b.get("type") == "text"]
        text = "\n".join(parts)
        return text[: TEXT_CAP if text.startswith(PLAN_APPROVED) else RESULT_CAP]
    return ""


def human_text(record: Record, *, beside_tools: bool = False) -> str:
    """What the user typed in this record, or "" when it is machine-written.

    Tool results, meta prompts, compaction summaries, slash-command echoes, hook output, system
    reminders, task notifications and interrupt notes are never the user's own words. A text block in
    the same record as a tool result is what the user typed while the tool ran (or with a rejection):
    `beside_tools` keeps it.
    """
    if record.type != "user" or record.meta or record.compact_summary or record.sidechain:
        return ""
    if (record.tool_results and not beside_tools) or record.origin not in ("", "human"):
        return ""
    text = record.text.strip()
    if not text or text.startswith(MACHINE_PREFIXES):
        return ""
    if "<" in text:
        text = _MACHINE_BLOCK.sub("", text).strip()
    return text


def tool_command(use: ToolUse) -> str:
    """The shell command of a Bash-like call, else ""."""
    command = use.input.get("command")
    return command if isinstance(command, str) else ""
