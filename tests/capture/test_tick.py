from __future__ import annotations

import json
from pathlib import Path

import pytest

from consolidate.capture import queue as q
from consolidate.capture.config import PROJECT_CONFIG
from consolidate.cli import main
from consolidate.learnings.store import EpisodeStore, store_path
from consolidate.settings import load_settings
from tests.capture.fixtures import Session, append_session, write_session


def tick(project: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["tick", "--project", str(project), *extra]) == 0
    return capsys.readouterr().out


def test_markers_are_queued_once_and_signalled(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tick(tmp_path, capsys) == ""  # nothing pending: nothing printed
    session = Session(cwd=str(tmp_path)).user("why do the tests hang?")
    session.assistant(
        "Found it.\n📝 Learned: the fake server needs a closed port.\n<!-- learning: tests hang when the fake API port is open; use a closed port because the client retries -->"
    )
    session.assistant("Also <!-- learning:\n  Multi-line markers\n  keep their lines.\n-->")
    path = write_session(claude_home, tmp_path, session)
    out = tick(tmp_path, capsys)
    assert out.startswith("2 learning(s) pending — ")
    payloads = [i["payload"] for i in q.pending_items(tmp_path)]
    assert payloads == [
        "tests hang when the fake API port is open; use a closed port because the client retries",
        "Multi-line markers\nkeep their lines.",
    ]
    assert tick(tmp_path, capsys).startswith("2 learning(s)")  # repeated: nothing new
    start = len(session.records)
    session.user("ok").assistant("<!-- learning: appended later, read from the saved offset -->")
    append_session(path, session, start)
    tick(tmp_path, capsys)
    assert len(q.pending_items(tmp_path)) == 3
    item = q.pending_items(tmp_path)[2]
    assert item["source"]["session"] == session.session_id and item["source"]["form"] == "comment"


def test_acked_items_never_return_even_after_a_full_rescan(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = (
        Session(cwd=str(tmp_path))
        .user("x")
        .assistant("<!-- learning: one -->")
        .assistant("<!-- learning: two -->")
    )
    write_session(claude_home, tmp_path, session)
    tick(tmp_path, capsys)
    items = q.pending_items(tmp_path)
    q.ack(tmp_path, [items[0]["id"]])
    state = load_settings(tmp_path).state_dir
    for scan in (state / "tick").glob("*.json"):
        scan.unlink()  # offsets lost: the whole transcript is read again
    out = tick(tmp_path, capsys)
    assert [i["payload"] for i in q.pending_items(tmp_path)] == ["two"]
    assert out.startswith("1 learning(s) pending")


def test_declared_channels_and_typos(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / PROJECT_CONFIG).write_text(
        '[channels.profile-fact]\nsignal = "{n} profile fact(s) pending — run the profile drain"\n'
    )
    session = Session(cwd=str(tmp_path)).user("hi")
    session.assistant(
        "<!-- profile-fact:\n  entity: alex\n  type: person\n-->\n<!-- profile-fct: entity: bo -->\n<!-- decision: not a channel -->"
    )
    write_session(claude_home, tmp_path, session)
    lines = tick(tmp_path, capsys).splitlines()
    assert lines[0] == "1 profile fact(s) pending — run the profile drain"
    assert "likely typo" in lines[1] and "<!-- profile-fct:" in lines[1] and "`profile-fact`" in lines[1]
    assert len(lines) == 2
    assert [i["channel"] for i in q.pending_items(tmp_path)] == ["profile-fact"]
    assert "likely typo" not in tick(tmp_path, capsys)  # reported once, when first read


def test_lesson_blocks_land_in_the_lesson_store_once(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    block = "#lesson\nrule: Run the suite with make test\ntool: Bash\ncommand: pytest\n#/lesson"
    session = Session(cwd=str(tmp_path)).user("x").assistant(block).assistant(block)
    path = write_session(claude_home, tmp_path, session)
    tick(tmp_path, capsys)
    store = EpisodeStore(store_path(load_settings(tmp_path).state_dir, tmp_path))
    (episode,) = store.episodes().values()
    assert episode.rule == "Run the suite with make test" and episode.trigger is not None
    assert episode.trigger.command == "pytest" and episode.source == "marker"
    path.rename(path.with_name("moved.jsonl"))  # a replaced file is read again: still one episode
    tick(tmp_path, capsys)
    assert len(store.episodes()) == 1 and next(iter(store.episodes().values())).freq == 1


def test_watchdog_nudges_once_per_dry_stretch(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = Session(cwd=str(tmp_path)).user("a" * 700).assistant("one").user("b" * 400).assistant("two")
    path = write_session(claude_home, tmp_path, session)
    out = tick(tmp_path, capsys, "--transcript", str(path))
    assert "capture watchdog: 2 assistant turns and 1100 characters" in out
    assert tick(tmp_path, capsys, "--transcript", str(path)) == ""
    start = len(session.records)
    session.user("c" * 2000).assistant("three").assistant("<!-- learning: marked -->")
    append_session(path, session, start)
    assert "watchdog" not in tick(tmp_path, capsys, "--transcript", str(path))
    start = len(session.records)
    session.user("d" * 1000).assistant("four").user("e").assistant("five")
    append_session(path, session, start)
    assert "capture watchdog: 2 assistant turns and 1001 characters" in tick(
        tmp_path, capsys, "--transcript", str(path)
    )


def test_byte_budget_spreads_a_backlog_over_ticks(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in range(4):
        session = Session(cwd=str(tmp_path)).user("x" * 2000).assistant(f"<!-- learning: marker {n} -->")
        write_session(claude_home, tmp_path, session)
    data = json.loads(tick(tmp_path, capsys, "--max-bytes", "1", "--json"))
    assert data["added"] == [] and data["records"] == 1  # one record, then the budget is spent
    for _ in range(7):  # eight records in all
        tick(tmp_path, capsys, "--max-bytes", "1")
    assert sorted(i["payload"] for i in q.pending_items(tmp_path)) == [f"marker {n}" for n in range(4)]


def test_subagent_and_malformed_lines(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = Session(cwd=str(tmp_path)).user("x").assistant("<!-- learning: from the main session -->")
    path = write_session(claude_home, tmp_path, session)
    with path.open("a") as handle:
        handle.write("{not json\n\x00\x01binary\n")
    agent = Session(session_id="agent-a1", cwd=str(tmp_path)).assistant("<!-- learning: from a subagent -->")
    sub = path.with_suffix("") / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-a1.jsonl").write_text(agent.lines())
    tick(tmp_path, capsys)
    payloads = sorted(i["payload"] for i in q.pending_items(tmp_path))
    assert payloads == ["from a subagent", "from the main session"]


def test_markers_in_code_and_user_text_are_not_queued(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = Session(cwd=str(tmp_path)).user("<!-- learning: typed by the user -->")
    session.assistant("The format is `<!-- learning: … -->`:\n```\n<!-- learning: an example -->\n```")
    write_session(claude_home, tmp_path, session)
    assert tick(tmp_path, capsys) == ""
    assert q.pending_items(tmp_path) == []


def test_handoff_facts_of_quiet_sessions_are_dropped(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import time

    from consolidate.transcripts.state import ScanState

    old = write_session(claude_home, tmp_path, Session(cwd=str(tmp_path)).user("old work").assistant("done"))
    stamp = time.time() - 3 * 86400
    os.utime(old, (stamp, stamp))
    new = write_session(claude_home, tmp_path, Session(cwd=str(tmp_path)).user("new work").assistant("done"))
    tick(tmp_path, capsys)
    (scan_file,) = (load_settings(tmp_path).state_dir / "tick").glob("*.json")
    files = ScanState.load(scan_file).files
    assert "handoff" not in files[str(old)].data and "watch" in files[str(old)].data
    assert files[str(new)].data["handoff"]["entries"] == [["user", "new work"], ["assistant", "done"]]


def test_records_a_tick_has_no_use_for_are_passed_over_unparsed(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Attachments, progress and metadata other than titles are skipped before parsing; markers,
    the watchdog and the handoff's title still see what they need."""
    session = Session(cwd=str(tmp_path)).user("x" * 1200).title("Fixing the flaky port")
    snapshot = {"parentUuid": None, "isSidechain": False, "attachment": {"type": "prompt_snapshot",
                "systemPrompt": ["<!-- learning: not a marker: an attachment -->"]}, "type": "attachment"}  # fmt: skip
    session.records += [
        snapshot,
        {"type": "progress", "data": {"type": "hook_progress"}, "uuid": "p1"},
        {"type": "api-request-shape", "shape": {"tools": ["Bash"]}},
        {"type": "last-prompt", "lastPrompt": "x"},
    ]
    session.assistant("done <!-- learning: the port must be closed -->").user("y" * 10).assistant("ok")
    write_session(claude_home, tmp_path, session)
    data = json.loads(tick(tmp_path, capsys, "--json"))
    assert [i["payload"] for i in q.pending_items(tmp_path)] == ["the port must be closed"]
    assert data["lines"] == 9 and data["records"] == 5 and data["bad_json"] == 0  # users, assistants, title
    (saved,) = (load_settings(tmp_path).state_dir / "tick").glob("*.json")
    assert "Fixing the flaky port" in saved.read_text()
