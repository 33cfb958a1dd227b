from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from consolidate.capture import queue as q
from consolidate.capture.handoff import write_handoff
from consolidate.capture.places import claude_home, memory_dir, state_root
from consolidate.hooks.dedup import SessionMarks
from consolidate.learnings.store import EpisodeStore, store_path
from tests.capture.fixtures import Session, write_session
from tests.hooks.helpers import SESSION, context_of, hook, payload

NOW = datetime.now(UTC)


def start(cwd: Path, source: str = "startup", session: str = SESSION) -> str:
    code, answer, raw = hook("SessionStart", payload("SessionStart", cwd, source=source, session_id=session))
    assert code == 0
    if answer is None:
        return ""
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    return context_of(answer)


def test_nothing_to_say_prints_nothing(tmp_path: Path) -> None:
    assert hook("SessionStart", payload("SessionStart", tmp_path, source="startup"))[1:] == (None, "")


def test_top_five_active_lessons_best_first(tmp_path: Path) -> None:
    store = EpisodeStore(store_path(state_root(claude_home()), tmp_path))
    for i, impact in enumerate(["low", "medium", "high", "critical", "low", "medium", "high"]):
        store.capture({"rule": f"distinct lesson {i} " + "word " * i + impact, "impact": impact}, NOW)
    promoted = store.capture({"rule": "already in CLAUDE.md", "impact": "critical"}, NOW)[0]
    store.set_status(promoted.id, "promoted", NOW)
    text = start(tmp_path)
    lessons = [line for line in text.splitlines() if line.startswith("- [EP-")]
    assert len(lessons) == 5
    assert "critical" in lessons[0] and "already in CLAUDE.md" not in text


def test_pending_queue_signal(tmp_path: Path) -> None:
    with q.open_queue() as queue:
        queue.enqueue(q.bucket_for(tmp_path), [q.NewItem("learning", "a"), q.NewItem("learning", "b")])
    assert start(tmp_path).startswith("2 learning(s) pending — ")


def test_markers_written_at_the_end_of_the_last_session_are_picked_up(tmp_path: Path) -> None:
    session = Session(cwd=str(tmp_path)).user("x").assistant("<!-- learning: the last words count too -->")
    write_session(claude_home(), tmp_path, session)
    assert "1 learning(s) pending" in start(tmp_path)


def _sessions(cwd: Path, count: int, age_hours: float = 0) -> None:
    for _ in range(count):
        path = write_session(claude_home(), cwd, Session(cwd=str(cwd)).user("hello"))
        stamp = time.time() - age_hours * 3600
        os.utime(path, (stamp, stamp))


def _mark_consolidated(cwd: Path, hours_ago: float) -> None:
    memory = memory_dir(claude_home(), cwd)
    memory.mkdir(parents=True, exist_ok=True)
    stamp = (NOW - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
    (memory / ".last-consolidation").write_text(stamp + "\n")


def test_reminder_needs_both_thresholds(tmp_path: Path) -> None:
    _mark_consolidated(tmp_path, hours_ago=36)
    _sessions(tmp_path, 4, age_hours=1)
    assert "consolidated" not in start(tmp_path)  # 36 h but only 4 sessions
    _sessions(tmp_path, 3, age_hours=40)  # older than the marker: not counted
    assert "consolidated" not in start(tmp_path)
    _sessions(tmp_path, 1, age_hours=1)
    text = start(tmp_path)
    assert "has not been consolidated for 1.5 days (5 sessions since)" in text and "consolidate dream" in text


def test_reminder_waits_a_day_and_has_a_cooldown(tmp_path: Path) -> None:
    _mark_consolidated(tmp_path, hours_ago=10)
    _sessions(tmp_path, 8)
    assert "consolidated" not in start(tmp_path)  # only 10 h
    _mark_consolidated(tmp_path, hours_ago=25)
    assert "consolidated" in start(tmp_path)
    assert "consolidated" not in start(tmp_path, session="next")  # cooldown
    (tmp_path / ".consolidate.toml").write_text("[reminder]\ncooldown_hours = 0\n")
    assert "consolidated" in start(tmp_path, session="third")


def test_never_consolidated_reminds_after_enough_sessions(tmp_path: Path) -> None:
    _sessions(tmp_path, 4)
    assert "consolidated" not in start(tmp_path)
    _sessions(tmp_path, 1)
    assert "Memory has never been consolidated (5 sessions since)" in start(tmp_path)


def test_clear_and_compact_reset_the_session_marks(tmp_path: Path) -> None:
    marks = SessionMarks(state_root(claude_home()), SESSION)
    assert marks.claim("EP-1")
    start(tmp_path, source="resume")
    assert not marks.claim("EP-1")
    start(tmp_path, source="compact")
    assert marks.claim("EP-1")


def test_handoff_from_another_recent_session(tmp_path: Path) -> None:
    state = state_root(claude_home())
    write_handoff(
        state,
        tmp_path.resolve(),
        "earlier-session",
        "Handoff from the previous session: fixed the parser",
        NOW,
    )
    assert "fixed the parser" in start(tmp_path)
    assert "fixed the parser" not in start(tmp_path, session="earlier-session")  # its own note
    assert "fixed the parser" not in start(tmp_path, source="resume")
    write_handoff(state, tmp_path.resolve(), "earlier-session", "stale note", NOW - timedelta(days=8))
    assert "stale note" not in start(tmp_path)
