from __future__ import annotations

import json

from consolidate.cli import main


def test_a_dream_right_after_an_applied_dream_proposes_nothing(example, capsys) -> None:  # type: ignore[no-untyped-def]
    args = [str(example.project), "--claude-home", str(example.claude_home)]
    assert main(["dream", *args, "--yes"]) == 0
    first = capsys.readouterr().out
    assert first.count("| done |") >= 8
    assert main(["dream", *args, "--json", "--since", "2000-01-01"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["proposals"] == []
