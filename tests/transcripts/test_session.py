"""Finding main sessions and subagent transcripts; pairing tool uses with results."""

from __future__ import annotations

import json
import os
from pathlib import Path

from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.transcripts import find_transcripts, last_activity, read_transcript, tool_index


def test_main_sessions_subagents_and_meta(tmp_path: Path) -> None:
    main = SessionWriter("sess-1")
    main.user("hi")
    write_session(tmp_path, main)
    agent = SessionWriter("sess-1", agent_id="abc123")
    agent.user("explore the repo")
    write_session(tmp_path, agent)
    nested = tmp_path / "sess-1" / "subagents" / "workflows" / "run-1"
    nested.mkdir(parents=True)
    (nested / "agent-def456.jsonl").write_text("{}\n")
    (tmp_path / "notes.txt").write_text("not a transcript")
    files = find_transcripts(tmp_path)
    assert [(f.session_id, f.agent_id) for f in files] == [
        ("sess-1", ""),
        ("sess-1", "abc123"),
        ("sess-1", "def456"),
    ]
    assert files[1].is_subagent and files[1].meta()["agentType"] == "general-purpose"
    assert files[0].meta() == {} and files[2].meta() == {}


def test_missing_directory_lists_nothing(tmp_path: Path) -> None:
    assert find_transcripts(tmp_path / "nope") == []


def test_subagent_records_are_sidechain(tmp_path: Path) -> None:
    agent = SessionWriter("sess-2", agent_id="a1")
    agent.user("prompt from the main agent")
    agent.assistant("done")
    path = write_session(tmp_path, agent)
    transcript = read_transcript(find_transcripts(tmp_path)[0])
    assert path.name == "agent-a1.jsonl"
    assert all(r.sidechain for r in transcript.records)
    assert len(transcript.active()) == 2


def test_tool_uses_pair_with_results(tmp_path: Path) -> None:
    writer = SessionWriter("sess-3")
    writer.user("run it")
    writer.tool_call("Bash", {"command": "make test"}, "Exit code 1\nboom", is_error=True)
    writer.tool_call("Bash", {"command": "make check"}, "ok")
    transcript = read_transcript(find_transcripts(writer.write(tmp_path / "sess-3.jsonl").parent)[0])
    uses, results = tool_index(transcript.records)
    paired = {uses[i].input["command"]: results[i].is_error for i in uses}
    assert paired == {"make test": True, "make check": False}


def test_last_activity_prefers_the_newest_timestamp(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"type": "user", "timestamp": "2026-01-02T03:04:05Z"}) + "\n")
    os.utime(path, (0, 0))
    assert last_activity(path) == 1767323045.0
    empty = tmp_path / "e.jsonl"
    empty.write_text("")
    os.utime(empty, (100, 100))
    assert last_activity(empty) == 100.0


def test_lean_read_leaves_progress_unparsed_and_keeps_the_chain(tmp_path: Path) -> None:
    writer = SessionWriter("sess-4")
    writer.user("run it")
    _, ids = writer.assistant("", tools=[("Bash", {"command": "make"})])
    writer.progress(ids[0])
    writer.tool_result(ids[0], "ok")
    writer.assistant("done")
    path = writer.write(tmp_path / "sess-4.jsonl")
    full = read_transcript(find_transcripts(path.parent)[0])
    lean = read_transcript(find_transcripts(path.parent)[0], lean=True)
    assert [r.type for r in full.records].count("progress") == 1
    assert "progress" not in [r.type for r in lean.records]
    assert [r.uuid for r in lean.active()] == [r.uuid for r in full.active() if r.type != "progress"]
    assert lean.end_offset == full.end_offset == path.stat().st_size
