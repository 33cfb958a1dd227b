"""The dream drains the capture queue: items feed the discoverer and are acked only once applied or rejected."""

from __future__ import annotations

import io
import json

from consolidate.capture.queue import NewItem, bucket_for, open_queue, pending_items
from consolidate.cli import main
from consolidate.dream.run import DreamOptions, run_dream

ITEM = "When deploying to staging: run the smoke tests first, they catch broken migrations."


def _enqueue(example, payload: str = ITEM) -> None:  # type: ignore[no-untyped-def]
    with open_queue(example.claude_home) as queue:
        queue.enqueue(bucket_for(example.project), [NewItem("learning", payload)])


def _pending(example) -> list[str]:  # type: ignore[no-untyped-def]
    return [i["payload"] for i in pending_items(example.project, home=example.claude_home)]


def test_applied_items_are_acked_and_dry_runs_ack_nothing(example, capsys) -> None:  # type: ignore[no-untyped-def]
    _enqueue(example)
    args = [str(example.project), "--claude-home", str(example.claude_home)]
    assert main(["dream", *args, "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    [add] = [p for p in plan["proposals"] if "smoke tests" in p["summary"]]
    assert add["queue_ids"] and add["action"] == "ADD"
    assert _pending(example) == [ITEM]
    assert main(["dream", *args, "--yes"]) == 0
    capsys.readouterr()
    assert _pending(example) == []
    assert "smoke tests" in (example.memory_dir / "MEMORY.md").read_text()


def test_rejected_items_are_acked_too(example, settings) -> None:  # type: ignore[no-untyped-def]
    _enqueue(example)
    run_dream(
        settings, DreamOptions(), out=io.StringIO(), err=io.StringIO(), stdin=io.StringIO(), ask=lambda _: "r"
    )
    assert _pending(example) == []
    assert "smoke tests" not in (example.memory_dir / "MEMORY.md").read_text()


def test_apply_of_a_saved_plan_acks_what_it_applied(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    _enqueue(example)
    plan_file = tmp_path / "plan.json"
    args = [str(example.project), "--claude-home", str(example.claude_home), "--plan-out", str(plan_file)]
    assert main(["dream", *args]) == 0
    assert _pending(example) == [ITEM]  # planning acks nothing
    plan = json.loads(plan_file.read_text())
    [add] = [p["id"] for p in plan["proposals"] if "smoke tests" in p["summary"]]
    assert (
        main(
            [
                "apply",
                str(plan_file),
                "--only",
                add,
                "--project",
                str(example.project),
                "--claude-home",
                str(example.claude_home),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert _pending(example) == []
