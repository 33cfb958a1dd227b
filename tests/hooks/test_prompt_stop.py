from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from consolidate.capture import queue as q
from consolidate.capture.handoff import handoff_path, read_handoff
from consolidate.capture.places import claude_home, state_root
from tests.capture.fixtures import Session, append_session, write_session
from tests.hooks.helpers import context_of, hook, payload


def prompt(cwd: Path, text: str, transcript: Path | None = None, session: str = "s-1") -> str:
    data = payload(
        "UserPromptSubmit", cwd, prompt=text, permission_mode="default", prompt_id="p1", session_id=session
    )
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    code, answer, raw = hook("UserPromptSubmit", data)
    assert code == 0
    if answer is None:
        assert raw == ""
        return ""
    assert answer["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    return context_of(answer)


def test_quiet_prompt_prints_nothing(tmp_path: Path) -> None:
    assert prompt(tmp_path, "please add a test for the parser") == ""


def test_correction_injects_the_capture_reminder(tmp_path: Path) -> None:
    for text in ("no, do it this way", "не надо так делать", "不对", "yanlış olmuş"):
        reminder = prompt(tmp_path, text)
        assert "reads like a correction" in reminder and "<!-- learning:" in reminder


def test_prompt_ticks_and_signals_then_watchdog(tmp_path: Path) -> None:
    session = (
        Session(session_id="s-1", cwd=str(tmp_path))
        .user("x")
        .assistant("<!-- learning: tick on every prompt -->")
    )
    path = write_session(claude_home(), tmp_path, session)
    assert prompt(tmp_path, "go on", path).startswith("1 learning(s) pending — ")
    assert [i["payload"] for i in q.pending_items(tmp_path)] == ["tick on every prompt"]
    start = len(session.records)
    session.user("u" * 800).assistant("a").user("v" * 300).assistant("b")
    append_session(path, session, start)
    text = prompt(tmp_path, "and now?", path)
    assert "capture watchdog" in text
    assert "1 learning(s) pending" not in text  # already said in this context; it has not changed
    assert "capture watchdog" not in prompt(tmp_path, "and now?", path)
    with q.open_queue() as queue:
        queue.enqueue(q.bucket_for(tmp_path), [q.NewItem("learning", "a second one")])
    assert prompt(tmp_path, "more?", path).startswith("2 learning(s) pending — ")


def test_a_nudge_due_at_stop_reaches_the_next_prompt_once(tmp_path: Path) -> None:
    """Stop cannot speak to the model: the dry stretch it sees stays due for the next prompt."""
    session = Session(session_id="s-1", cwd=str(tmp_path)).user("u" * 800).assistant("a")
    session.user("v" * 300).assistant("b")
    path = write_session(claude_home(), tmp_path, session)
    assert stop(tmp_path, path, "s-1") == (0, "")
    assert "capture watchdog: 2 assistant turns" in prompt(tmp_path, "next", path)
    assert stop(tmp_path, path, "s-1") == (0, "")
    assert "capture watchdog" not in prompt(tmp_path, "and next", path)


def test_the_session_start_signal_is_not_repeated_by_the_first_prompt(tmp_path: Path) -> None:
    """Both land in the first request: the signal is said once; after /clear it is said again."""
    with q.open_queue() as queue:
        queue.enqueue(q.bucket_for(tmp_path), [q.NewItem("learning", "one pending")])

    def start(source: str) -> str:
        code, answer, _ = hook(
            "SessionStart", payload("SessionStart", tmp_path, source=source, session_id="s-1")
        )
        return context_of(answer) if answer else ""

    assert start("startup").startswith("1 learning(s) pending — ")
    assert prompt(tmp_path, "hello") == ""
    assert start("clear").startswith("1 learning(s) pending — ")
    assert prompt(tmp_path, "hello again") == ""


def stop(cwd: Path, transcript: Path, session: str, active: bool = False) -> tuple[int, str]:
    data = payload("Stop", cwd, transcript_path=str(transcript), session_id=session, stop_hook_active=active,
                   last_assistant_message="done", background_tasks=[], session_crons=[])  # fmt: skip
    code, _, raw = hook("Stop", data)
    return code, raw


def test_stop_writes_a_handoff_for_the_next_session(tmp_path: Path) -> None:
    session = Session(session_id="s-1", cwd=str(tmp_path)).title("Fix the flaky parser test")
    session.user("the parser test fails on CI, token=ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    session.assistant(
        "Fixing it.",
        tools=[
            {
                "name": "Edit",
                "input": {"file_path": str(tmp_path / "src/parse.py"), "old_string": "a", "new_string": "b"},
            }
        ],
    )
    session.tool_result("ok").assistant("Fixed: the tokenizer dropped the last line.")
    path = write_session(claude_home(), tmp_path, session)
    assert stop(tmp_path, path, "s-1") == (0, "")
    state = state_root(claude_home())
    note = handoff_path(state, tmp_path.resolve()).read_text()
    assert (
        "Fix the flaky parser test" in note
        and "src/parse.py" in note
        and "Active topics: Fix the flaky parser test; src" in note
    )
    assert "user: the parser test fails on CI" in note and "assistant: Fixed: the tokenizer" in note
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in note
    start = len(session.records)
    session.user("also update the docs").assistant(
        "", tools=[{"name": "Write", "input": {"file_path": str(tmp_path / "docs/parse.md"), "content": "x"}}]
    )
    append_session(path, session, start)
    stop(tmp_path, path, "s-1")
    note = read_handoff(state, tmp_path.resolve(), "s-2", datetime.now(UTC))
    assert "Changed files: src/parse.py, docs/parse.md" in note and "also update the docs" in note


def test_stop_queues_the_markers_of_the_last_turn(tmp_path: Path) -> None:
    session = Session(session_id="s-1", cwd=str(tmp_path)).user("why?")
    session.assistant(
        "Because the cache is per user.\n<!-- learning: the cache is per user, so tests must set HOME -->"
    )
    path = write_session(claude_home(), tmp_path, session)
    assert stop(tmp_path, path, "s-1") == (0, "")
    assert [i["payload"] for i in q.pending_items(tmp_path)] == [
        "the cache is per user, so tests must set HOME"
    ]


def test_stop_respects_stop_hook_active(tmp_path: Path) -> None:
    path = write_session(claude_home(), tmp_path, Session(cwd=str(tmp_path)).user("hi").assistant("hello"))
    assert stop(tmp_path, path, "s-1", active=True) == (0, "")
    assert not handoff_path(state_root(claude_home()), tmp_path.resolve()).exists()
    assert not (state_root(claude_home()) / "tick").exists()  # not even a tick


def test_a_session_that_moved_into_a_subdirectory_still_ticks_its_project(tmp_path: Path) -> None:
    session = (
        Session(session_id="s-1", cwd=str(tmp_path))
        .user("x")
        .assistant("<!-- learning: found after a cd -->")
    )
    path = write_session(claude_home(), tmp_path, session)
    sub = tmp_path / "pkg" / "deep"
    sub.mkdir(parents=True)
    data = payload("UserPromptSubmit", sub, prompt="go on", transcript_path=str(path), session_id="s-1")
    _, answer, _ = hook("UserPromptSubmit", data, {"CLAUDE_PROJECT_DIR": str(tmp_path)})
    assert context_of(answer).startswith("1 learning(s) pending")
    assert [i["payload"] for i in q.pending_items(tmp_path)] == ["found after a cd"]
