"""The JSON a hook prints, in the shapes Claude Code parses (reference §4.3)."""

from __future__ import annotations

import json


def additional_context(event: str, text: str) -> str:
    """Context for the model: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse."""
    return json.dumps(
        {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}, ensure_ascii=False
    )


def deny(reason: str, context: str = "") -> str:
    """Refuse a tool call; the model sees the reason and can take another way."""
    output: dict[str, str] = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    if context:
        output["additionalContext"] = context
    return json.dumps({"hookSpecificOutput": output}, ensure_ascii=False)


def notice(event: str, text: str) -> str:
    """A message for the user (`systemMessage`) that the model sees too."""
    return json.dumps(
        {"systemMessage": text, "hookSpecificOutput": {"hookEventName": event, "additionalContext": text}},
        ensure_ascii=False,
    )
