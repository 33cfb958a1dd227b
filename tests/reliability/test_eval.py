"""`consolidate eval` scores a real dream over a generated scenario."""

from __future__ import annotations

import json

from consolidate.cli import main


def test_eval_reports_every_measure_and_meets_the_safety_targets(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["eval", "--seeds", "1", "--first-seed", "3", "--json", "--strict"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["discoverer"]["by_kind"]) == {
        "marker",
        "remember",
        "correction",
        "error-fix",
        "rejection",
        "decision",
    }
    assert "STALE" in result["auditor"]["by_category"] and "MERGE" in result["proposals"]["by_category"]
    assert result["false_removes"] == 0 and result["secrets_leaked"] == 0
    assert result["within_budget"] and result["idempotent"]
    assert result["discoverer"]["precision"] >= 0.9 and result["discoverer"]["recall"] >= 0.8
    assert result["auditor"]["recall"] >= 0.9
    [scenario] = result["scenarios"]
    assert scenario["applied"] > 5 and scenario["failed"] == 0
