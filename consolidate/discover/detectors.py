"""Find signals in the active records of one transcript, in a single pass that only looks back.

Each signal is anchored at the record that completes it (the user's reply, the successful retry), so a
transcript read in pieces - old records as context, new ones to search - yields each signal once.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..transcripts.markers import find_markers
from ..transcripts.records import Record, ToolResult, ToolUse, human_text
from ..transcripts.session import TranscriptFile
from . import lexicon
from .errorfix import FailedCall, find_fix
from .phrasing import decision_principle, directive_principle, marker_principle, remember_principle
from .signals import Signal, make_signal
from .text import language, mask_code
from .triggers import action_trigger, derive_trigger

REASON_WINDOW = 4  # records between a bare rejection and the user's typed reason
LONG_MESSAGE = 600  # beyond this, only a correction at the very start counts
CLASSIFY_LIMIT = 4000  # a remember request or decision is said early, not at the end of a pasted log


@dataclass
class _Context:
    file: TranscriptFile
    uses: dict[str, ToolUse] = field(default_factory=dict)
    last_use: ToolUse | None = None
    last_text: str = ""
    failed: deque[FailedCall] = field(default_factory=lambda: deque(maxlen=8))
    pending_rejection: tuple[int, ToolUse | None] | None = None


def detect_signals(records: list[Record], file: TranscriptFile, start: int = 0) -> list[Signal]:
    """Signals anchored at `records[start:]`; the records before `start` only give context."""
    context = _Context(file)
    signals: list[Signal] = []
    for index, record in enumerate(records):
        emit = index >= start
        if record.type == "assistant":
            found = _assistant(record, context)
        elif record.type == "user":
            found = _user(record, index, context)
        else:
            continue
        if emit:
            signals.extend(found)
    return signals


def _base(record: Record, context: _Context) -> dict[str, str]:
    return {
        "session": record.session or context.file.session_id,
        "uuid": record.uuid,
        "timestamp": record.timestamp,
        "file": str(context.file.path),
    }


def _assistant(record: Record, context: _Context) -> list[Signal]:
    found = []
    for use in record.tool_uses:
        context.uses[use.id] = use
        context.last_use = use
    for text in record.texts:
        context.last_text = text
        for marker in find_markers(text):
            if marker.channel in ("learning", "lesson"):
                found.append(_marker_signal(marker.payload, dict(marker.fields), record, context))
    return found


def _marker_signal(payload: str, fields: dict[str, str], record: Record, context: _Context) -> Signal:
    rule = (
        fields.get("lesson") or fields.get("rule") or fields.get("correction") or fields.get("fix") or payload
    )
    principle, detail = marker_principle(rule)
    trigger = fields.get("trigger") or fields.get("when") or derive_trigger(payload, context.last_use)
    return make_signal(
        "marker",
        principle,
        quote=payload,
        trigger=trigger,
        detail=detail,
        language=language(payload),
        **_base(record, context),
    )


def _user(record: Record, index: int, context: _Context) -> list[Signal]:
    found: list[Signal] = []
    for result in record.tool_results:
        found.extend(_tool_result(result, record, index, context))
    if record.is_interrupt or context.file.is_subagent:
        return found
    text = human_text(record)
    if not text:
        return found
    found.extend(_human(text, record, index, context))
    context.failed.clear()
    context.last_use, context.last_text = None, ""
    return found


def _tool_result(result: ToolResult, record: Record, index: int, context: _Context) -> list[Signal]:
    use = context.uses.get(result.tool_use_id)
    if result.rejected:
        reason = result.rejection_reason
        if reason and not reason.startswith("The user wants to clarify"):
            return _rejection(reason, use, record, context)
        context.pending_rejection = (index, use)
        return []
    if use is None:
        return []
    if result.is_error:
        context.failed.append(FailedCall(use, result.text))
        return []
    fix = find_fix(use, context.failed)
    if fix is None:
        return []
    return [
        make_signal(
            "error-fix",
            fix.principle,
            quote=fix.quote,
            trigger=fix.trigger,
            context=fix.failed_command,
            language="en",
            **_base(record, context),
        )
    ]


def _rejection(reason: str, use: ToolUse | None, record: Record, context: _Context) -> list[Signal]:
    principle = directive_principle(reason)
    if not principle:
        return []
    return [
        make_signal(
            "rejection",
            principle,
            quote=reason,
            trigger=derive_trigger(principle, use, prefer_action=True),
            context=action_trigger(use),
            language=language(reason),
            strength=_strength(reason),
            **_base(record, context),
        )
    ]


def _human(text: str, record: Record, index: int, context: _Context) -> list[Signal]:
    pending, context.pending_rejection = context.pending_rejection, None
    if pending is not None and index - pending[0] <= REASON_WINDOW:
        return _rejection(text, pending[1], record, context)
    masked = mask_code(text).lower()
    kind = classify_message(masked)
    if kind == "remember":
        principle = remember_principle(text)
        use = None
    elif kind == "decision":
        principle = decision_principle(text)
        use = None
    elif kind == "correction":
        principle = directive_principle(text)
        use = context.last_use
    else:
        return []
    if not principle:
        return []
    trigger = derive_trigger(principle, use, prefer_action=kind == "correction")
    return [
        make_signal(
            kind,
            principle,
            quote=text,
            trigger=trigger,
            context=_previous_action(context),
            language=language(text),
            strength=_strength(masked),
            **_base(record, context),
        )
    ]


def classify_message(masked: str) -> str:
    """ "remember", "decision", "correction" or "" for a lower-cased user message with code masked."""
    masked = masked[:CLASSIFY_LIMIT]
    if (
        lexicon.has_any(masked, lexicon.REMEMBER_KEYS)
        and lexicon.REMEMBER.search(masked)
        and not lexicon.REMEMBER_NOISE.search(masked)
    ):
        return "remember"
    head = masked[:LONG_MESSAGE]
    leads = bool(lexicon.CORRECTION_LEAD.search(head))
    cued = len(masked) <= LONG_MESSAGE and lexicon.has_any(masked, lexicon.CORRECTION_KEYS)
    decides = not leads and lexicon.has_any(head, lexicon.DECISION_KEYS) and lexicon.DECISION.search(head)
    if decides and lexicon.REASON.search(head):
        return "decision"
    if not leads and not (cued and lexicon.CORRECTION_CUE.search(masked)):
        return ""
    if lexicon.CORRECTION_NOISE.search(head) or not leads and lexicon.DISCUSSION.search(masked):
        return ""
    if lexicon.DIRECTIVE.search(masked) and not _only_question(masked):
        return "correction"
    return ""


def _only_question(masked: str) -> bool:
    stripped = masked.strip()
    return (
        stripped.endswith(("?", "？"))
        and stripped.count("?") + stripped.count("？") >= 1
        and "." not in stripped
    )


def _previous_action(context: _Context) -> str:
    if context.last_use is not None:
        return action_trigger(context.last_use)
    return context.last_text[:160]


def _strength(text: str) -> float:
    return 0.1 if lexicon.GENERALIZER.search(text.lower()) else 0.0
