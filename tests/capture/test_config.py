from __future__ import annotations

from pathlib import Path

from consolidate.capture.config import LEARNING, PROJECT_CONFIG, USER_CONFIG, load_config


def test_defaults_follow_the_spec(tmp_path: Path) -> None:
    config = load_config(tmp_path / "state", None)
    assert list(config.channels) == [LEARNING]
    assert (config.reminder_hours, config.reminder_sessions) == (24.0, 5)
    assert (config.inject_max_lessons, config.inject_max_bytes) == (3, 4096)
    assert (config.watchdog_turns, config.watchdog_chars) == (2, 1000)
    assert config.problems == ()


def test_project_file_overrides_the_user_file(tmp_path: Path) -> None:
    state, repo = tmp_path / "state", tmp_path / "repo"
    state.mkdir()
    repo.mkdir()
    (state / USER_CONFIG).write_text(
        '[channels.profile-fact]\nsignal = "{n} profile fact(s) pending"\n[reminder]\nhours = 48\nsessions = 3\n'
    )
    (repo / PROJECT_CONFIG).write_text("[reminder]\nsessions = 7\n[inject]\nmax_lessons = 2\n")
    config = load_config(state, repo)
    assert config.channels["profile-fact"] == "{n} profile fact(s) pending"
    assert config.signal("profile-fact", 4) == "4 profile fact(s) pending"
    assert (config.reminder_hours, config.reminder_sessions, config.inject_max_lessons) == (48.0, 7, 2)


def test_broken_files_are_skipped_with_a_problem(tmp_path: Path) -> None:
    (tmp_path / USER_CONFIG).write_text("[reminder\nhours = ")
    (tmp_path / PROJECT_CONFIG).write_text('[reminder]\nhours = "soon"\n[channels."Bad Name"]\n')
    config = load_config(tmp_path, tmp_path)
    assert config.reminder_hours == 24.0
    assert len(config.problems) == 3
    assert "skipped" in config.problems[0]
    assert any("hours must be" in p for p in config.problems)
    assert any("'Bad Name'" in p for p in config.problems)
