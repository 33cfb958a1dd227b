"""Incremental reading: unchanged files are skipped, appends read from the offset, rewrites from 0."""

from __future__ import annotations

import json
import os
from pathlib import Path

from consolidate.transcripts import Change, ScanState, classify_change, iter_new_records, state_key


def _line(n: int) -> str:
    return json.dumps({"type": "user", "uuid": f"u{n}", "n": n}) + "\n"


def _read(path: Path, state: ScanState) -> list[int]:
    return [record["n"] for record in iter_new_records(path, state)]


def test_new_unchanged_appended(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1) + _line(2))
    state = ScanState()
    assert _read(path, state) == [1, 2]
    assert _read(path, state) == []
    with open(path, "a") as handle:
        handle.write(_line(3))
    assert classify_change(path, state.files[state_key(path)])[0] is Change.APPENDED
    assert _read(path, state) == [3]
    assert state.files[state_key(path)].offset == path.stat().st_size


def test_partial_line_is_read_once_complete(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1) + '{"type": "user", "n": 2')
    state = ScanState()
    assert _read(path, state) == [1]
    with open(path, "a") as handle:
        handle.write("}\n")
    assert _read(path, state) == [2]


def test_truncated_file_is_read_again_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1) + _line(2) + _line(3))
    state = ScanState()
    _read(path, state)
    path.write_text(_line(7))
    assert classify_change(path, state.files[state_key(path)])[0] is Change.TRUNCATED
    assert _read(path, state) == [7]


def test_replaced_file_is_read_again_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1))
    state = ScanState()
    _read(path, state)
    other = tmp_path / "other.jsonl"
    other.write_text(_line(8) + _line(9))
    os.replace(other, path)  # a new inode
    assert classify_change(path, state.files[state_key(path)])[0] is Change.REPLACED
    assert _read(path, state) == [8, 9]


def test_same_inode_rewritten_with_other_head_is_a_replacement(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1))
    state = ScanState()
    _read(path, state)
    with open(path, "r+") as handle:
        handle.write(_line(5) + _line(6))  # same inode, first bytes differ, longer
    assert _read(path, state) == [5, 6]


def test_state_round_trip_and_corrupt_state(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1))
    state = ScanState()
    _read(path, state)
    state.files[state_key(path)].data = {"signals": [1]}
    saved = tmp_path / "state" / "state.json"
    state.save(saved)
    loaded = ScanState.load(saved)
    assert loaded.files[state_key(path)].offset == state.files[state_key(path)].offset
    assert loaded.files[state_key(path)].data == {"signals": [1]}
    assert _read(path, loaded) == []
    saved.write_text("{not json")
    assert ScanState.load(saved).files == {}
    assert ScanState.load(tmp_path / "absent.json").files == {}


def test_missing_file_and_forgetting_it(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(_line(1))
    state = ScanState()
    _read(path, state)
    path.unlink()
    assert classify_change(path, state.files[state_key(path)])[0] is Change.MISSING
    assert _read(path, state) == []
    assert state.forget_missing() == [state_key(path)]
