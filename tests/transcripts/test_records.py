"""Every record type normalises; only what the user typed counts as the user's words."""

from __future__ import annotations

import pytest

from consolidate.transcripts import Record, human_text, normalize


def _user(content: object, **extra: object) -> dict:
    return {"type": "user", "uuid": "u", "parentUuid": "p", "sessionId": "s", "timestamp": "2026-11-01T10:00:00Z",
            "message": {"role": "user", "content": content}, **extra}  # fmt: skip


@pytest.mark.parametrize(
    "kind",
    [
        "summary",
        "file-history-snapshot",
        "queue-operation",
        "last-prompt",
        "ai-title",
        "custom-title",
        "permission-mode",
        "mode",
        "agent-name",
        "cost-state",
        "tools-used",
        "api-request",
        None,
    ],  # fmt: skip
)
def test_metadata_records_are_not_messages(kind: str | None) -> None:
    assert normalize({"type": kind, "sessionId": "s", "leafUuid": "x"}) is None


def test_user_string_and_envelope_fields() -> None:
    record = normalize(_user("hello", isSidechain=False, origin={"kind": "human"}), line=3)
    assert isinstance(record, Record)
    assert (record.type, record.uuid, record.parent, record.session, record.line) == (
        "user",
        "u",
        "p",
        "s",
        3,
    )
    assert record.texts == ["hello"] and record.origin == "human"
    assert human_text(record) == "hello"


def test_assistant_blocks_text_tool_use_and_thinking() -> None:
    raw = {"type": "assistant", "uuid": "a", "parentUuid": "u", "message": {"id": "msg_1", "content": [
        {"type": "thinking", "thinking": "hmm", "signature": "x"},
        {"type": "text", "text": "Running it."},
        {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls", "big": "z" * 5000}},
    ]}}  # fmt: skip
    record = normalize(raw)
    assert record is not None and record.message_id == "msg_1"
    assert record.texts == ["Running it."]
    assert record.tool_uses[0].name == "Bash" and record.tool_uses[0].input["command"] == "ls"
    assert len(record.tool_uses[0].input["big"]) == 2000  # inputs are capped


def test_tool_results_string_and_block_content() -> None:
    record = normalize(_user([
        {"type": "tool_result", "tool_use_id": "t1", "content": "out", "is_error": False},
        {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "Exit code 1"},
                                                                 {"type": "image", "source": {}}], "is_error": True},
    ]))  # fmt: skip
    assert record is not None
    assert [(r.tool_use_id, r.is_error, r.text) for r in record.tool_results] == [
        ("t1", False, "out"),
        ("t2", True, "Exit code 1"),
    ]
    assert human_text(record) == ""


def test_rejection_reason_with_and_without_a_reason() -> None:
    prefix = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    said = normalize(_user([{"type": "tool_result", "tool_use_id": "t", "is_error": True,
                             "content": prefix + " To tell you how to proceed, the user said:\nuse pnpm instead\n\n"
                             "Note: The user's next message may contain a correction or preference."}]))  # fmt: skip
    stop = normalize(_user([{"type": "tool_result", "tool_use_id": "t", "is_error": True,
                             "content": prefix + " STOP what you are doing and wait."}]))  # fmt: skip
    plain_error = normalize(
        _user([{"type": "tool_result", "tool_use_id": "t", "is_error": True, "content": "boom"}])
    )
    assert said and stop and plain_error
    assert said.tool_results[0].rejected and said.tool_results[0].rejection_reason == "use pnpm instead"
    assert stop.tool_results[0].rejected and stop.tool_results[0].rejection_reason == ""
    assert not plain_error.tool_results[0].rejected


@pytest.mark.parametrize(
    "text",
    [
        "<command-name>/clear</command-name>\n<command-message>clear</command-message>",
        "<local-command-stdout>wrong branch, remember to pull</local-command-stdout>",
        "<system-reminder>Remember: never use emojis.</system-reminder>",
        "[Request interrupted by user for tool use]",
        "This session is being continued from a previous conversation. No, use yarn instead.",
        "<task-notification><summary>wrong</summary></task-notification>",
        "Implement the following plan:\n# Plan: don't do X",
        "<bash-stdout>don't</bash-stdout>",
    ],
)
def test_machine_written_user_text_is_not_human(text: str) -> None:
    record = normalize(_user(text))
    assert record is not None and human_text(record) == ""


@pytest.mark.parametrize(
    "extra",
    [
        {"isMeta": True},
        {"isCompactSummary": True},
        {"isSidechain": True},
        {"isVisibleInTranscriptOnly": True},
        {"origin": {"kind": "task-notification"}},
    ],  # fmt: skip
)
def test_flagged_user_records_are_not_human(extra: dict) -> None:
    record = normalize(_user("no, use pnpm instead of npm", **extra))
    assert record is not None and human_text(record) == ""


def test_system_reminder_appended_to_typed_text_is_stripped() -> None:
    record = normalize(_user("use pnpm\n<system-reminder>remember the rules</system-reminder>"))
    assert record is not None and human_text(record) == "use pnpm"


def test_interrupt_and_compaction_records() -> None:
    interrupt = normalize(_user([{"type": "text", "text": "[Request interrupted by user]"}]))
    boundary = normalize({"type": "system", "subtype": "compact_boundary", "uuid": "b", "parentUuid": None,
                          "logicalParentUuid": "old"})  # fmt: skip
    assert interrupt is not None and interrupt.is_interrupt
    assert (
        boundary is not None and boundary.logical_parent == "old" and boundary.subtype == "compact_boundary"
    )


def test_attachment_and_progress_records_keep_their_place_in_the_chain() -> None:
    attachment = normalize(
        {"type": "attachment", "uuid": "x", "parentUuid": "u", "attachment": {"type": "date"}}
    )
    progress = normalize(
        {"type": "progress", "uuid": "y", "parentUuid": "x", "data": {"type": "hook_progress"}}
    )
    assert attachment is not None and attachment.parent == "u"
    assert progress is not None and progress.parent == "x"
