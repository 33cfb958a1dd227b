"""The active branch: rewinds and edited prompts leave side branches; compaction keeps history."""

from __future__ import annotations

import json
from pathlib import Path

from consolidate.evaluate.synthetic_sessions import SessionWriter
from consolidate.transcripts import TranscriptFile, active_records, read_transcript


def _active_texts(writer: SessionWriter, tmp_path: Path) -> tuple[list[str], list[str]]:
    path = writer.write(tmp_path / f"{writer.session_id}.jsonl")
    transcript = read_transcript(TranscriptFile(path, writer.session_id))
    active = active_records(transcript.records)
    return [r.text for r in active if r.type == "user"], [r.uuid for r in active]


def test_rewound_prompt_and_its_reply_are_off_the_active_branch(tmp_path: Path) -> None:
    writer = SessionWriter("s1")
    writer.user("first question")
    writer.assistant("first answer")
    fork = writer.leaf
    abandoned = writer.user("no, always use tabs instead of spaces")
    reply, _ = writer.assistant("Switching to tabs.")
    writer.leaf = fork
    writer.user("let's look at the handlers")
    writer.assistant("Looking.")
    texts, uuids = _active_texts(writer, tmp_path)
    assert texts == ["first question", "let's look at the handlers"]
    assert abandoned not in uuids and reply not in uuids


def test_edited_prompt_drafts_are_dropped(tmp_path: Path) -> None:
    writer = SessionWriter("s2")
    writer.user("start")
    anchor, _ = writer.assistant("ok")
    writer.user("add teh tests", parent=anchor)
    writer.leaf = anchor
    writer.user("add the tests")
    writer.assistant("Adding them.")
    texts, _ = _active_texts(writer, tmp_path)
    assert texts == ["start", "add the tests"]


def test_parallel_tool_results_and_progress_stay_active(tmp_path: Path) -> None:
    writer = SessionWriter("s3")
    writer.user("read both files")
    last, ids = writer.assistant("", tools=[("Read", {"file_path": "a"}), ("Read", {"file_path": "b"})])
    first_use = writer.lines[-2]["uuid"]
    progress = writer.progress(ids[0])
    first_result = writer.tool_result(ids[0], "A", parent=first_use)  # hangs off the first tool_use record
    writer.leaf = last
    second_result = writer.tool_result(ids[1], "B")
    writer.assistant("Both read.")
    _, uuids = _active_texts(writer, tmp_path)
    assert {first_use, progress, first_result, second_result} <= set(uuids)


def test_compaction_keeps_the_records_before_it(tmp_path: Path) -> None:
    writer = SessionWriter("s4")
    before = writer.user("no, use pnpm instead of npm")
    writer.assistant("ok")
    boundary, summary = writer.compact("earlier work")
    writer.user("continue")
    writer.assistant("continuing")
    _, uuids = _active_texts(writer, tmp_path)
    assert {before, boundary, summary} <= set(uuids)


def test_compaction_whose_logical_parent_is_missing_still_keeps_history(tmp_path: Path) -> None:
    writer = SessionWriter("s5")
    before = writer.user("early prompt")
    writer.assistant("ok")
    writer.compact("summary")
    writer.lines[-2]["logicalParentUuid"] = "not-in-this-file"
    writer.user("later prompt")
    _, uuids = _active_texts(writer, tmp_path)
    assert before in uuids


def test_dangling_parent_does_not_cut_the_conversation(tmp_path: Path) -> None:
    writer = SessionWriter("s6")
    early = writer.user("early")
    writer.assistant("ok")
    writer.lines.append({"type": "user", "uuid": "lost-parent-child", "parentUuid": "missing-line",
                         "message": {"role": "user", "content": "after a lost line"}, "sessionId": "s6"})  # fmt: skip
    writer.leaf = "lost-parent-child"
    writer.assistant("fine")
    _, uuids = _active_texts(writer, tmp_path)
    assert early in uuids and "lost-parent-child" in uuids


def test_records_without_uuid_and_empty_input() -> None:
    assert active_records([]) == []


def test_large_linear_session_is_fast_enough(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    parent = None
    with open(path, "w") as handle:
        for i in range(20000):
            record = {"type": "user" if i % 2 else "assistant", "uuid": f"r{i}", "parentUuid": parent,
                      "message": {"role": "user", "content": "x"}}  # fmt: skip
            handle.write(json.dumps(record) + "\n")
            parent = f"r{i}"
    transcript = read_transcript(TranscriptFile(path, "long"))
    assert len(active_records(transcript.records)) == 20000
