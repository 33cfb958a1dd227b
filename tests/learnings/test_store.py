from __future__ import annotations

import json
import multiprocessing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from consolidate.errors import UsageError
from consolidate.learnings.store import EpisodeStore, store_path

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def test_capture_allocates_daily_ids_and_bumps_near_duplicates(tmp_path: Path) -> None:
    store = EpisodeStore(tmp_path / "episodes.jsonl")
    first, new = store.capture({"rule": "Use make test, not pytest directly", "impact": "high"}, NOW)
    assert (first.id, new, first.freq) == ("EP-20261129-001", True, 1)
    again, new = store.capture({"rule": "use `make test`, not pytest directly"}, NOW)
    assert (again.id, new, again.freq) == (first.id, False, 2)
    other, _ = store.capture({"rule": "Keep fixtures synthetic"}, NOW)
    assert other.id == "EP-20261129-002"
    lines = [json.loads(line) for line in store.path.read_text().splitlines()]
    assert [line.get("op") for line in lines] == [None, "bump", None]  # append-only: the bump is an event


def test_status_events_fold_and_unknown_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "episodes.jsonl"
    seed_format = {
        "id": "EP-20260411-007", "ts": "2026-04-11T10:00:00Z", "type": "correction", "agent": "main",
        "source": "owner", "context": "c", "error": "e", "rule": "r", "impact": "high", "tags": ["git"],
        "freq": 2, "status": "active",
    }  # fmt: skip
    path.write_text(json.dumps(seed_format) + "\n{broken\n" + '["not", "an", "object"]\n')
    store = EpisodeStore(path)
    store.set_status("EP-20260411-007", "archived", NOW)
    store.bump("ep-20260411-007", NOW)
    (episode,) = store.episodes().values()
    assert (episode.freq, episode.status, episode.extra) == (3, "archived", {"agent": "main"})
    assert episode.to_record()["agent"] == "main"


def test_a_torn_last_line_does_not_swallow_the_next_append(tmp_path: Path) -> None:
    path = tmp_path / "episodes.jsonl"
    path.write_text('{"id": "EP-20261129-001", "rule": "one"}\n{"id": "EP-2026')
    store = EpisodeStore(path)
    store.capture({"rule": "a different rule entirely"}, NOW)
    assert sorted(store.episodes()) == ["EP-20261129-001", "EP-20261129-002"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"context": "x"}, "rule"),
        ({"rule": "r", "impact": "huge"}, "impact"),
        ({"rule": "r", "type": "rant"}, "type"),
        ({"rule": "r", "trigger": {"command": "(unclosed"}}, "not a valid regex"),
    ],
)
def test_invalid_captures_are_usage_errors(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        EpisodeStore(tmp_path / "e.jsonl").capture(data, NOW)  # type: ignore[arg-type]


def test_secrets_are_redacted_before_storing(tmp_path: Path) -> None:
    store = EpisodeStore(tmp_path / "e.jsonl")
    store.capture(
        {"rule": "export the key first", "context": "ANTHROPIC_API_KEY=sk-ant-abcdefghijklmnopqrstuvwx"}, NOW
    )
    assert "sk-ant-abcdefghijklmnop" not in store.path.read_text()


def _capture_many(path: str, start: int) -> None:
    store = EpisodeStore(Path(path))
    for i in range(start, start + 10):
        store.capture({"rule": f"distinct rule number {i} about topic {i * 7919}"}, NOW)


def test_concurrent_captures_get_distinct_ids(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_capture_many, args=(str(path), n * 100)) for n in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    episodes = EpisodeStore(path).episodes()
    assert len(episodes) == 30
    assert len(path.read_text().splitlines()) == 30


def test_store_paths_are_per_repository(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    assert store_path(tmp_path, a) != store_path(tmp_path, b)
    assert store_path(tmp_path, None).parent.name == "global"
