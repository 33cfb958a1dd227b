from __future__ import annotations

import json
from pathlib import Path

import pytest

from consolidate.capture import queue as q
from consolidate.cli import main


def _fill(project: Path, payloads: list[str], channel: str = "learning") -> list[str]:
    with q.open_queue() as queue:
        queue.enqueue(q.bucket_for(project), [q.NewItem(channel, p) for p in payloads])
    return [q.item_id(channel, p) for p in payloads]


def test_status_and_peek(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fill(tmp_path, ["first learning", "second learning"])
    _fill(tmp_path, ["alex: person"], "profile-fact")
    assert main(["queue", "status", "--project", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "3 pending" in out and "learning: 2" in out and "profile-fact: 1" in out
    assert main(["queue", "peek", "--project", str(tmp_path)]) == 0
    assert "first learning" in capsys.readouterr().out
    assert main(["queue", "--project", str(tmp_path), "peek", "--json", "--channel", "profile-fact"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["payload"] for i in items] == ["alex: person"]


def test_ack_by_prefix_then_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = _fill(tmp_path, ["one"])
    assert main(["queue", "ack", ids[0][:8], "--project", str(tmp_path)]) == 0
    assert f"acked {ids[0][:12]}" in capsys.readouterr().out
    assert main(["queue", "ack", ids[0][:8], "--project", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no pending item" in err and ids[0][:8] in err
    assert main(["queue", "peek", "--project", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "queue is empty\n"


def test_ambiguous_prefix_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = _fill(tmp_path, [f"item {i}" for i in range(40)])
    shared = next(i[0] for i in ids if sum(j[0] == i[0] for j in ids) > 1)
    assert main(["queue", "ack", shared, "--project", str(tmp_path)]) == 2
    assert "ambiguous" in capsys.readouterr().err
    assert len(q.pending_items(tmp_path)) == 40


def test_status_json_on_an_empty_queue(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queue", "status", "--json", "--project", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "project": str(tmp_path.resolve()),
        "pending": {},
        "total": 0,
    }
