"""Repeated wishes: a one-off-looking intervention said again in another session is a standing rule."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from consolidate.discover.discover import build_report, find_candidates
from consolidate.discover.signals import Signal
from consolidate.discover.wishes import MAX_WISHES, WISH_FILE, WishStore
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.settings import Settings, load_settings
from tests.helpers.signals import signals_in


@pytest.fixture
def settings(tmp_path: Path, claude_home: Path) -> Settings:
    project = tmp_path / "project"
    project.mkdir()
    return load_settings(project, home=claude_home)


PLAN = ("ExitPlanMode", {"plan": "# Plan: add the cache"})
DAY = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _rejected_plan(directory: Path, session: str, reason: str, start: datetime) -> str:
    writer = SessionWriter(session, start=start, rng=random.Random(session))
    writer.user("add a cache to the loader")
    writer.assistant("Here is the plan.")
    _, ids = writer.assistant(tools=[PLAN])
    rejected = writer.reject(ids[0], reason)
    writer.assistant(tools=[("Read", {"file_path": "/work/project/notes/chores-2.md"})])
    write_session(directory, writer)
    return rejected


def _signals(directory: Path) -> list[Signal]:
    return signals_in(directory, echoes=True)


def test_the_same_wish_in_two_sessions_is_one_rule_citing_both(tmp_path: Path) -> None:
    first = _rejected_plan(
        tmp_path, "s1", "First save the plan to a new dated section in notes/chores-2", DAY
    )
    second = _rejected_plan(
        tmp_path, "s2", "Save this plan to a dated section in notes/chores-3 first", DAY + timedelta(days=2)
    )
    report = build_report(_signals(tmp_path))
    (candidate,) = report.candidates
    assert candidate.principle == "Save the plan to a new dated section in notes/chores-N"
    assert candidate.trigger == "presenting a plan"  # both times the user stopped the plan
    assert [e.uuid for e in candidate.evidence] == [first, second]
    assert candidate.frequency == 2 and report.stats["repeated_wishes"] == 1


def test_a_wish_said_once_or_twice_in_one_session_is_no_rule(tmp_path: Path) -> None:
    _rejected_plan(tmp_path, "s1", "First save the plan to a new dated section in notes/chores-2", DAY)
    assert build_report(_signals(tmp_path)).candidates == []
    writer = SessionWriter("s1", start=DAY + timedelta(hours=1), rng=random.Random("again"))
    writer.user("and the loader too")
    _, ids = writer.assistant(tools=[PLAN])
    writer.reject(ids[0], "Save this plan to a dated section in notes/chores-3 first")
    write_session(tmp_path / "again", writer)
    assert build_report(_signals(tmp_path)).candidates == []  # the same session twice: one moment


def test_different_wishes_questions_and_hedges_are_no_rule(tmp_path: Path) -> None:
    _rejected_plan(tmp_path, "s1", "First save the plan to a new dated section in notes/chores-2", DAY)
    _rejected_plan(tmp_path, "s2", "Rename the loader module to fetch first", DAY + timedelta(days=1))
    _rejected_plan(
        tmp_path, "s3", "Did you save the plan to a new dated section in notes?", DAY + timedelta(days=2)
    )
    _rejected_plan(
        tmp_path,
        "s4",
        "Save the plan to a new dated section in notes first, I think",
        DAY + timedelta(days=3),
    )
    assert build_report(_signals(tmp_path)).candidates == []


def test_a_wish_memory_already_speaks_of_is_not_proposed_again(tmp_path: Path) -> None:
    _rejected_plan(tmp_path, "s1", "First save the plan to a new dated section in notes/chores-2", DAY)
    _rejected_plan(
        tmp_path, "s2", "Save this plan to a dated section in notes/chores-3 first", DAY + timedelta(days=2)
    )
    memory = [
        "- Save every plan to a new dated section in `notes/chores-N.md` and reference it from the todo."
    ]
    report = build_report(_signals(tmp_path), memory)
    assert report.candidates == [] and report.stats["dropped_wish_remembered"] == 1


def test_the_scan_state_remembers_a_wish_for_a_later_scan(settings: Settings, tmp_path: Path) -> None:
    _rejected_plan(
        tmp_path / "week1", "s1", "First save the plan to a new dated section in notes/chores-2", DAY
    )
    assert find_candidates(settings, transcripts_dir=tmp_path / "week1").candidates == []
    stored = json.loads((settings.run_dir("scan") / WISH_FILE).read_text())
    assert [row["session"] for row in stored] == ["s1"]
    later = DAY + timedelta(days=5)
    second = _rejected_plan(
        tmp_path / "week2", "s2", "Save this plan to a dated section in notes/chores-3 first", later
    )
    report = find_candidates(settings, since=later - timedelta(hours=1), transcripts_dir=tmp_path / "week2")
    (candidate,) = report.candidates
    assert {e.session for e in candidate.evidence} == {"s1", "s2"}
    assert candidate.evidence[-1].uuid == second


def test_a_dry_run_remembers_no_wish(settings: Settings, tmp_path: Path) -> None:
    _rejected_plan(tmp_path, "s1", "First save the plan to a new dated section in notes/chores-2", DAY)
    find_candidates(settings, transcripts_dir=tmp_path, save_state=False)
    assert not (settings.run_dir("scan") / WISH_FILE).exists()


def _wish(number: int, principle: str, **extra: object) -> Signal:
    return Signal(
        kind="rejection",
        principle=principle,
        session=f"s{number}",
        uuid=f"u{number}",
        timestamp=f"2026-11-01T09:{number // 60:02d}:{number % 60:02d}Z",
        quote=principle,
        **extra,  # type: ignore[arg-type]
    )


def test_the_store_keeps_no_secret_and_only_the_newest(tmp_path: Path) -> None:
    store = WishStore(tmp_path)
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    store.remember(
        [
            _wish(0, f"Export GITHUB_TOKEN={token} before pushing", redacted=True),
            _wish(1, "Pass the token to the deploy step", context=f"running `deploy --token {token}`"),
            _wish(2, "Run the linter before every push"),
        ]
    )
    store.save()
    text = (tmp_path / WISH_FILE).read_text()
    assert token not in text and "REDACTED" not in text
    assert [r["uuid"] for r in json.loads(text)] == ["u2"]  # one that carried a secret is never kept
    many = WishStore(tmp_path)
    many.remember([_wish(n, f"Run step {n} before every push") for n in range(3, MAX_WISHES + 50)])
    many.save()
    kept = json.loads((tmp_path / WISH_FILE).read_text())
    assert len(kept) == MAX_WISHES and kept[-1]["uuid"] == f"u{MAX_WISHES + 49}"
    assert WishStore(tmp_path).past([_wish(MAX_WISHES + 49, "x")])[-1].uuid == f"u{MAX_WISHES + 48}"
    (tmp_path / WISH_FILE).write_text("{broken")
    assert WishStore(tmp_path).past([]) == []  # a broken store is an empty one


def test_a_wish_worded_only_by_what_leans_on_its_dialogue_is_no_rule(tmp_path: Path) -> None:
    _rejected_plan(tmp_path, "s1", "Add it to the chores notes under a new dated section first", DAY)
    _rejected_plan(
        tmp_path, "s2", "Add to the chores notes under a new dated section first", DAY + timedelta(days=1)
    )
    assert build_report(_signals(tmp_path)).candidates == []  # "it" and a lost object: nothing to write
    _rejected_plan(
        tmp_path,
        "s3",
        "Record the plan in the chores notes under a new dated section first",
        DAY + timedelta(days=2),
    )
    (candidate,) = build_report(_signals(tmp_path)).candidates
    assert candidate.principle == "Record the plan in the chores notes under a new dated section first"
    assert len(candidate.evidence) == 3  # the others are cited, though they cannot word it


def test_a_wish_that_does_not_name_the_action_it_stopped_is_no_rule(tmp_path: Path) -> None:
    for number, reason in enumerate(
        [
            "Add a body with a summary of the series to the release commit",
            "Add a summary of the series to the body of the release commit",
        ]
    ):
        writer = SessionWriter(f"s{number}", start=DAY + timedelta(days=number), rng=random.Random(number))
        writer.user("commit the release")
        _, ids = writer.assistant(tools=[("Bash", {"command": "git add -A && git commit -m 'release'"})])
        writer.reject(ids[0], reason)
        write_session(tmp_path, writer)
    # the rule does not name `git add`: not "when running `git add`", and no other action was stopped
    assert build_report(_signals(tmp_path)).candidates == []
