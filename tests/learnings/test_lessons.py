from __future__ import annotations

import threading

import pytest

from consolidate.hooks.dedup import SessionMarks
from consolidate.learnings.episodes import Episode, Trigger
from consolidate.learnings.lessons import ToolCall, glob_regex, matches, render_lesson, select_lessons

ROOT = "/work/app"


def call(tool: str = "Bash", command: str = "", path: str = "", cwd: str = ROOT) -> ToolCall:
    return ToolCall(tool, command, (path,) if path else (), cwd)


@pytest.mark.parametrize(
    ("trigger", "tool_call", "expected"),
    [
        (Trigger(tool="Bash"), call("Bash", "ls"), True),
        (Trigger(tool="Bash"), call("BashOutput"), False),  # full match, not a prefix
        (Trigger(tool="Edit|Write"), call("Write", path="a.py"), True),
        (Trigger(command=r"\bpytest\b"), call(command="uv run pytest -q"), True),
        (Trigger(command=r"\bpytest\b"), call(command="pytest-cov report"), True),
        (Trigger(command=r"^git push.*--force"), call(command="git push origin main --force"), True),
        (Trigger(command=r"\bpytest\b"), call("Read", path="pytest.ini"), False),  # no command at all
        (Trigger(path="migrations/**"), call("Edit", path=f"{ROOT}/migrations/0001_init.py"), True),
        (Trigger(path="migrations/**"), call("Edit", path="migrations/v2/0002.py"), True),
        (Trigger(path="src/*.py"), call("Edit", path=f"{ROOT}/src/deep/x.py"), False),
        (Trigger(path="**/*.sql"), call("Write", path=f"{ROOT}/db/schema.sql"), True),
        (Trigger(path="*.lock"), call("Edit", path=f"{ROOT}/sub/uv.lock"), True),  # no slash: base name
        (Trigger(path=".env*"), call("Read", path=f"{ROOT}/.env.local"), True),
        (Trigger(tool="Edit", path="*.md"), call("Write", path="README.md"), False),  # every field must match
        (Trigger(tool="Bash", project="/work/app"), call(cwd="/work/app/sub"), True),
        (Trigger(tool="Bash", project="/work/app"), call(cwd="/work/apple"), False),
        (Trigger(project="/work/app"), call(), False),  # scope alone never fires
        (Trigger(command="(unclosed"), call(command="(unclosed"), False),  # a broken regex never fires
    ],
)
def test_trigger_matching(trigger: Trigger, tool_call: ToolCall, expected: bool) -> None:
    assert matches(trigger, tool_call, ROOT) is expected


def test_tool_call_from_a_real_payload_shape() -> None:
    payload = {
        "session_id": "abc", "transcript_path": "/t.jsonl", "cwd": ROOT, "hook_event_name": "PreToolUse",
        "permission_mode": "default", "tool_name": "Write",
        "tool_input": {"file_path": f"{ROOT}/a.py", "content": "x"}, "tool_use_id": "toolu_01",
    }  # fmt: skip
    assert ToolCall.from_payload(payload) == ToolCall("Write", "", (f"{ROOT}/a.py",), ROOT)
    assert ToolCall.from_payload({"tool_name": "Bash", "tool_input": "odd"}).command == ""


def test_glob_classes() -> None:
    assert glob_regex("file[0-9].txt").fullmatch("file3.txt")
    assert not glob_regex("file[!0-9].txt").fullmatch("file3.txt")


def lesson(n: int, rule: str = "") -> Episode:
    return Episode(id=f"EP-20261129-{n:03d}", ts="2026-11-29T00:00:00Z", rule=rule or f"rule {n}")


def test_budget_caps_count_and_bytes() -> None:
    lessons = [lesson(i) for i in range(1, 6)]
    assert len(select_lessons(lessons, max_lessons=3, max_bytes=4096, claim=lambda _: True)) == 3
    big = [lesson(1, "x" * 3000), lesson(2, "y" * 3000), lesson(3, "short")]
    chosen = select_lessons(big, max_lessons=3, max_bytes=4096, claim=lambda _: True)
    assert chosen == [render_lesson(big[0]), render_lesson(big[2])]
    assert sum(len(c.encode()) + 1 for c in chosen) <= 4096


def test_each_lesson_once_per_session_even_in_parallel(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lessons = [lesson(1), lesson(2)]
    results: list[list[str]] = []

    def inject() -> None:
        marks = SessionMarks(tmp_path, "session-1")
        results.append(select_lessons(lessons, max_lessons=3, max_bytes=4096, claim=marks.claim))

    threads = [threading.Thread(target=inject) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    injected = [text for result in results for text in result]
    assert sorted(injected) == sorted(render_lesson(e) for e in lessons)
    assert select_lessons(
        lessons, max_lessons=3, max_bytes=4096, claim=SessionMarks(tmp_path, "session-2").claim
    )
    SessionMarks(tmp_path, "session-1").reset()
    assert (
        len(
            select_lessons(
                lessons, max_lessons=3, max_bytes=4096, claim=SessionMarks(tmp_path, "session-1").claim
            )
        )
        == 2
    )
