"""`discover` end to end: the window, the incremental cache, the fallback, the labeled dev set."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from consolidate.discover import discover, discover_recent, parse_since
from consolidate.evaluate.discover_devset import generate_devset
from consolidate.evaluate.discover_score import evaluate
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.settings import Settings, load_settings


@pytest.fixture
def settings(tmp_path: Path, claude_home: Path) -> Settings:
    project = tmp_path / "project"
    project.mkdir()
    return load_settings(project, home=claude_home)


def _session(
    directory: Path, session_id: str, text: str, start: datetime, command: str = "npm ci"
) -> SessionWriter:
    writer = SessionWriter(session_id, start=start)
    writer.tool_call("Bash", {"command": command}, "ok")
    writer.user(text)
    write_session(directory, writer)
    return writer


def test_sessions_in_the_project_transcripts_dir(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    _session(directory, "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    progress: list[tuple[int, int]] = []
    report = discover(settings, progress=lambda done, total, path: progress.append((done, total)))
    assert [c.principle for c in report.candidates] == ["Use pnpm instead of npm"]
    assert report.sessions_scanned == 1 and progress == [(1, 1)]
    assert report.stats["files_new"] == 1 and report.stats["signals"] == 1


def test_window_after_the_last_consolidation_and_since(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    old = datetime(2026, 10, 1, tzinfo=UTC)
    new = datetime(2026, 11, 20, tzinfo=UTC)
    _session(directory, "old", "no, use pnpm instead of npm", old)
    _session(directory, "new", "no, always use `make test` instead of pytest", new, command="pytest")
    for name in ("old.jsonl", "new.jsonl"):
        stamp = (old if name == "old.jsonl" else new).timestamp()
        os.utime(directory / name, (stamp, stamp))
    settings.memory_dir.mkdir(parents=True)
    (settings.memory_dir / ".last-consolidation").write_text("2026-11-01T00:00:00Z\n")
    windowed = discover(settings)
    assert [c.evidence[0].session for c in windowed.candidates] == ["new"]
    everything = discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC))
    assert {c.evidence[0].session for c in everything.candidates} == {"old", "new"}


def test_parse_since() -> None:
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    assert parse_since("7d", now) == now - timedelta(days=7)
    assert parse_since("12h", now) == now - timedelta(hours=12)
    assert parse_since("2w", now) == now - timedelta(weeks=2)
    assert parse_since("2026-11-01") == datetime(2026, 11, 1, tzinfo=UTC)
    assert parse_since("2026-11-01T10:00:00Z") == datetime(2026, 11, 1, 10, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_since("last tuesday")


def test_old_sessions_that_change_are_read_again_in_full(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    writer = _session(directory, "old", "no, use pnpm instead of npm", datetime(2026, 1, 1, tzinfo=UTC))
    discover(settings, since=datetime(2025, 1, 1, tzinfo=UTC))
    writer.user("no, always run `make test` instead of pytest")
    write_session(directory, writer)
    report = discover(settings, since=datetime(2025, 1, 1, tzinfo=UTC))
    assert report.stats["bytes_read"] == (directory / "old.jsonl").stat().st_size
    assert len(report.candidates) == 2


def test_unchanged_sessions_come_from_the_cache_and_appends_are_read_once(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    live = datetime.now(UTC) - timedelta(hours=1)  # context is carried over for sessions active lately
    writer = _session(directory, "live", "no, use pnpm instead of npm", live)
    first = discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC))
    again = discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC))
    assert again.stats["files_unchanged"] == 1 and again.stats.get("lines", 0) == 0
    assert [c.principle for c in again.candidates] == [c.principle for c in first.candidates]
    size = (directory / "live.jsonl").stat().st_size
    writer.tool_call(
        "Bash", {"command": "make tests"}, "make: *** No rule to make target 'tests'.  Stop.", is_error=True
    )
    writer.tool_call("Bash", {"command": "make test"}, "ok")
    write_session(directory, writer)
    appended = discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC))
    assert appended.stats["files_appended"] == 1
    assert appended.stats["bytes_read"] == (directory / "live.jsonl").stat().st_size - size
    assert sorted(c.kind for c in appended.candidates) == ["correction", "error-fix"]


def test_signals_cached_by_other_code_are_computed_again(settings: Settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from consolidate.discover import scanner

    _session(settings.layout.transcripts_dir, "s", "no, use pnpm instead of npm", datetime.now(UTC))
    since = datetime(2026, 1, 1, tzinfo=UTC)
    discover(settings, since=since)
    assert discover(settings, since=since).stats["files_unchanged"] == 1
    scanner.detector_version.cache_clear()  # an upgrade: the detecting modules changed
    monkeypatch.setattr(scanner, "code_fingerprint", lambda *_: "other code")
    again = discover(settings, since=since)
    assert again.stats.get("files_unchanged", 0) == 0 and again.stats["lines"] > 0
    assert [c.kind for c in again.candidates] == ["correction"]
    scanner.detector_version.cache_clear()


def test_a_rewind_in_appended_records_rereads_the_session(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    writer = SessionWriter("rw", start=datetime.now(UTC) - timedelta(hours=1))
    writer.user("start")
    fork, _ = writer.assistant("ok")
    writer.tool_call("Bash", {"command": "npm ci"}, "ok")
    writer.user("no, use pnpm instead of npm")
    write_session(directory, writer)
    assert [c.kind for c in discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC)).candidates] == [
        "correction"
    ]
    writer.leaf = fork  # the user rewinds to before the correction and goes another way
    writer.user("let's look at the README instead")
    writer.assistant("Looking.")
    write_session(directory, writer)
    report = discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC))
    assert report.candidates == []
    assert report.stats["bytes_read"] == (directory / "rw.jsonl").stat().st_size


def test_discover_recent_reads_only_the_latest_sessions(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    lessons = ["pnpm over npm", "ruff over black", "uv over pip", "podman over docker", "httpx over requests",
               "pytest-xdist over serial runs", "structlog over print debugging"]  # fmt: skip
    for day, lesson in enumerate(lessons, 1):
        preferred, rejected = lesson.split(" over ")
        _session(
            directory,
            f"d{day}",
            f"no, always use {preferred} instead of {rejected}",
            datetime(2026, 11, day, tzinfo=UTC),
        )
    report = discover_recent(settings, limit=2)
    assert report.sessions_scanned == 2
    assert {c.evidence[0].session for c in report.candidates} == {"d6", "d7"}
    assert report.notes == ["fallback scan of the 2 most recent sessions"]


def test_explicit_sessions_and_missing_directory(settings: Settings, tmp_path: Path) -> None:
    _session(tmp_path / "elsewhere", "x1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    report = discover(settings, sessions=["x1"], transcripts_dir=tmp_path / "elsewhere")
    assert len(report.candidates) == 1
    assert discover(settings, transcripts_dir=tmp_path / "none").candidates == []


def test_dev_set_precision_and_recall(settings: Settings, tmp_path: Path) -> None:
    devset = generate_devset(tmp_path / "dev", pool="dev", seed=11)
    report = discover(settings, transcripts_dir=tmp_path / "dev")
    result = evaluate(report, devset)
    precision, recall = result.overall()
    assert precision >= 0.9 and recall >= 0.8, (result.misses, result.false)
    assert not result.noise_hits and result.repeat_merged


def test_deleted_transcripts_leave_the_scan_state(settings: Settings) -> None:
    import json as jsonlib

    directory = settings.layout.transcripts_dir
    _session(directory, "gone", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC))
    state_file = settings.run_dir("scan") / "state.json"
    assert any(name.endswith("gone.jsonl") for name in jsonlib.loads(state_file.read_text())["files"])
    (directory / "gone.jsonl").unlink()
    assert discover(settings, since=datetime(2026, 1, 1, tzinfo=UTC)).candidates == []
    assert jsonlib.loads(state_file.read_text())["files"] == {}


def test_the_plain_scan_report_is_the_validated_report(settings: Settings, tmp_path: Path) -> None:
    from consolidate.discover import find_candidates
    from consolidate.models import DiscoveryReport

    generate_devset(tmp_path / "dev", pool="dev", seed=5)
    plain = find_candidates(settings, transcripts_dir=tmp_path / "dev").to_dict()
    validated = discover(settings, transcripts_dir=tmp_path / "dev").model_dump(mode="json")
    assert len(plain["candidates"]) >= 5
    # the second run reads from the scan cache: the same report either way
    assert {k: v for k, v in plain.items() if k != "stats"} == {
        k: v for k, v in validated.items() if k != "stats"
    }
    assert DiscoveryReport.model_validate(plain).model_dump(mode="json")["candidates"] == plain["candidates"]


def test_an_unchanged_scan_answers_from_the_saved_report(settings: Settings, tmp_path: Path) -> None:
    from consolidate.discover import find_candidates
    from consolidate.discover.reportcache import REPORT_FILE

    _session(tmp_path / "t", "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    first = find_candidates(settings, transcripts_dir=tmp_path / "t", sessions=None).to_dict()
    saved = settings.run_dir("scan") / REPORT_FILE
    assert saved.is_file() and [c["principle"] for c in first["candidates"]] == ["Use pnpm instead of npm"]
    document = json.loads(saved.read_text())
    document["report"]["candidates"][0]["principle"] = "Use yarn"  # what the cache says is what comes back
    saved.write_text(json.dumps(document))
    again = find_candidates(settings, transcripts_dir=tmp_path / "t").to_dict()
    assert [c["principle"] for c in again["candidates"]] == ["Use yarn"]
    assert again["stats"]["files_unchanged"] == 1
    # other memory: the report is built again (and the rule now recorded is dropped)
    recorded = find_candidates(
        settings, ["- Use pnpm instead of npm."], transcripts_dir=tmp_path / "t"
    ).to_dict()
    assert recorded["candidates"] == [] and recorded["stats"]["dropped_recorded"] == 1
    saved.write_text("{not json")
    rebuilt = find_candidates(settings, transcripts_dir=tmp_path / "t").to_dict()
    assert [c["principle"] for c in rebuilt["candidates"]] == ["Use pnpm instead of npm"]
    assert json.loads(saved.read_text())["report"]["candidates"][0]["principle"] == "Use pnpm instead of npm"


def test_a_dry_run_writes_no_saved_report(settings: Settings, tmp_path: Path) -> None:
    from consolidate.discover import find_candidates
    from consolidate.discover.reportcache import REPORT_FILE

    _session(tmp_path / "t", "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    report = find_candidates(settings, transcripts_dir=tmp_path / "t", save_state=False)
    assert [c.principle for c in report.candidates] == ["Use pnpm instead of npm"]
    assert not (settings.run_dir("scan") / REPORT_FILE).exists()


def test_a_dry_run_answers_from_the_saved_report(settings: Settings, tmp_path: Path) -> None:
    from consolidate.discover import find_candidates
    from consolidate.discover.reportcache import REPORT_FILE

    _session(tmp_path / "t", "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    find_candidates(settings, transcripts_dir=tmp_path / "t")
    saved = settings.run_dir("scan") / REPORT_FILE
    document = json.loads(saved.read_text())
    document["report"]["candidates"][0]["principle"] = "Use yarn"
    saved.write_text(json.dumps(document))
    dry = find_candidates(settings, transcripts_dir=tmp_path / "t", save_state=False)
    assert [c.principle for c in dry.candidates] == ["Use yarn"]
    assert json.loads(saved.read_text()) == document


def test_the_report_key_follows_every_signal_across_chunks() -> None:
    from consolidate.discover.reportcache import _CHUNK, _key
    from consolidate.discover.signals import Signal

    signals = [Signal("echo", f"rule {n}") for n in range(_CHUNK + 1)]
    key = _key(signals, [])
    assert _key([Signal("echo", f"rule {n}") for n in range(_CHUNK + 1)], []) == key
    changed = [*signals[:-1], Signal("echo", "another rule")]
    assert _key(changed, []) != key
    assert _key(signals[:-1], []) != key and _key(signals, ["a memory"]) != key


def test_the_report_key_follows_every_text_of_a_kept_echo() -> None:
    from consolidate.discover.echopool import Echo
    from consolidate.discover.reportcache import _key

    echo = Echo("s", "u", "2026-11-01T10:00:00Z", "use pnpm for installs", "use pnpm for installs", "f.jsonl")
    key = _key([echo], [])
    assert _key([Echo(*echo)], []) == key
    for field in Echo._fields:
        assert _key([echo._replace(**{field: "other"})], []) != key, field


def _scan_files(settings: Settings) -> tuple[dict, list[Path]]:
    folder = settings.run_dir("scan")
    return json.loads((folder / "state.json").read_text()), sorted(folder.glob("signals-*.jsonl"))


def test_the_scan_state_points_at_the_signals_streamed_to_a_file_beside_it(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    _session(directory, "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    _session(directory, "s2", "no, use ruff instead of flake8", datetime(2026, 11, 2, tzinfo=UTC), "flake8")
    first = discover(settings)
    state, files = _scan_files(settings)
    assert len(files) == 1 and state["data"]["signals_file"] == files[0].name
    entries = list(state["files"].values())
    assert all("signals" not in e["data"] and len(e["data"]["at"]) == 2 for e in entries)
    lines = files[0].read_bytes().splitlines(keepends=True)
    assert sorted(len(line) for line in lines) == sorted(e["data"]["at"][1] for e in entries)
    said = {s["quote"] for line in lines for s in json.loads(line)}
    assert {"no, use pnpm instead of npm", "no, use ruff instead of flake8"} <= said
    _session(directory, "s3", "no, use uv instead of pip", datetime(2026, 11, 3, tzinfo=UTC), "pip install")
    again = discover(settings)  # two answered from the file, one read: a new file replaces the old
    assert again.stats["files_unchanged"] == 2 and again.stats["files_new"] == 1
    assert {c.principle for c in first.candidates} < {c.principle for c in again.candidates}
    state, newer = _scan_files(settings)
    assert len(newer) == 1 and newer != files and state["data"]["signals_file"] == newer[0].name
    assert discover(settings).candidates == again.candidates


def test_signals_the_scan_state_cannot_find_are_found_again(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    _session(directory, "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    first = discover(settings)
    _, files = _scan_files(settings)
    files[0].write_bytes(b"garbage\n")
    again = discover(settings)
    assert again.stats["files_new"] == 1 and again.candidates == first.candidates
    _, files = _scan_files(settings)
    files[0].unlink()
    assert discover(settings).candidates == first.candidates


def test_a_scan_state_with_the_signals_inline_is_still_read(settings: Settings) -> None:
    from consolidate.discover.scanner import SignalCache

    directory = settings.layout.transcripts_dir
    _session(directory, "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    first = discover(settings)
    folder = settings.run_dir("scan")
    cache = SignalCache(folder)
    (entry,) = cache.state.files.values()
    signals = cache.signals.signals(entry)
    assert signals and signals[0]["quote"] == "no, use pnpm instead of npm"
    state, files = _scan_files(settings)  # as an older version saved it: the signals in the state
    for saved in state["files"].values():
        saved["data"] = {"version": saved["data"]["version"], "signals": signals}
    del state["data"]["signals_file"]
    (folder / "state.json").write_text(json.dumps(state))
    files[0].unlink()
    (folder / "report.json").unlink()  # the report is built again from the signals
    again = discover(settings)
    assert again.stats["files_unchanged"] == 1 and again.candidates == first.candidates


def test_a_dry_run_writes_no_signals(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    _session(directory, "s1", "no, use pnpm instead of npm", datetime(2026, 11, 1, tzinfo=UTC))
    report = discover(settings, save_state=False)
    assert [c.principle for c in report.candidates] == ["Use pnpm instead of npm"]
    folder = settings.run_dir("scan")
    assert not list(folder.glob("signals-*")) and not list(folder.glob(".signals-*"))


def test_a_learning_the_memory_states_is_left_out_with_a_note_naming_the_entry(
    settings: Settings, tmp_path: Path
) -> None:
    from consolidate.discover import find_candidates

    for number in range(3):  # said in three sessions: the memory states it, and it was not followed
        _session(
            tmp_path / "t",
            f"s{number}",
            "no, use pnpm instead of npm",
            datetime(2026, 11, 1 + number, tzinfo=UTC),
        )
    report = find_candidates(
        settings, ["## Tools\n\n- Use pnpm instead of npm.\n"], transcripts_dir=tmp_path / "t"
    ).to_dict()
    assert report["candidates"] == [] and report["stats"]["dropped_recorded"] == 1
    [note] = report["notes"]
    assert note.startswith("already recorded (seen 3×): Use pnpm instead of npm — as “")
    assert "Use pnpm instead of npm." in note.split("— as", 1)[1]


def test_the_review_shows_what_the_discoverer_left_out(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from tests.dream.fidelity_project import build_project

    acme = build_project(tmp_path)
    folder = tmp_path / "left-out"
    folder.mkdir()
    (folder / "signal-discoverer.json").write_text(
        json.dumps({"candidates": [], "notes": ["skipped the lockfile churn: a one-off of that branch"]})
    )
    (folder / "memory-auditor.json").write_text('{"findings": []}')
    code, out, err = acme.dream(capsys, f"reports:{folder}", "--dry-run")
    assert code == 0, err
    assert "skipped the lockfile churn: a one-off of that branch" in out + err
