"""`undo` puts the backlog back with the files: a learning a run took from the backlog and applied waits
there again once the run is undone, so it is never lost (its sessions were marked consolidated by an
earlier run, so reading them again would not find it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from consolidate.cli import main
from consolidate.dream.backlog import Backlog
from consolidate.engines import AUDITOR, DISCOVERER
from consolidate.settings import load_settings

NO_FINDINGS = {"findings": [], "entries_audited": 0}


def _learning(principle: str, session: str) -> dict[str, Any]:
    return {
        "kind": "correction",
        "principle": principle,
        "confidence": 0.9,
        "impact": 0.8,
        "evidence": [{"session": session, "quote": principle}],
    }


FIRST = "run `make lint` before every push to the shared remote"
SECOND = "keep the changelog entries in the imperative mood"
THIRD = "name the feature branches after their ticket number"


def _script(tmp_path: Path, *principles: str) -> str:
    path = tmp_path / "script.json"
    discovery = {
        "candidates": [_learning(p, f"s{n}") for n, p in enumerate(principles)],
        "sessions_scanned": len(principles),
    }
    path.write_text(json.dumps({AUDITOR: [NO_FINDINGS], DISCOVERER: [discovery]}))
    return f"scripted:{path}"


def _run(example: Any, *args: str) -> int:
    return main([args[0], str(example.project), "--claude-home", str(example.claude_home), *args[1:]])


def _waiting(example: Any) -> set[str]:
    backlog = Backlog.load(load_settings(example.project, home=example.claude_home))
    return {w.candidate.principle for w in backlog.waiting.values()}


def _memory(example: Any) -> str:
    return "\n".join(p.read_text() for p in sorted(example.memory_dir.glob("*.md")))


def test_undo_of_a_run_that_applied_a_backlog_learning_lets_it_wait_again(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _run(example, "dream", "--engine", _script(tmp_path, FIRST, SECOND, THIRD), "--yes", "--max-add", "1") == 0
    waiting = _waiting(example)
    assert len(waiting) == 2 and FIRST not in waiting  # one applied, two past the cap
    # the next dream reads no new session: it proposes the backlog, applies one, leaves one
    assert _run(example, "dream", "--engine", _script(tmp_path), "--yes", "--max-add", "1") == 0
    applied = next(p for p in waiting if p not in _waiting(example))
    assert applied.split()[0].lower() in _memory(example).lower()
    capsys.readouterr()
    assert _run(example, "undo") == 0
    out = capsys.readouterr().out
    assert _waiting(example) == waiting  # the backlog as the undone run found it
    assert "backlog" in out
    capsys.readouterr()
    assert _run(example, "dream", "--engine", _script(tmp_path), "--dry-run", "--json", "--max-add", "5") == 0
    proposed = {p["learning"]["principle"] for p in json.loads(capsys.readouterr().out)["proposals"] if p.get("learning")}
    assert applied in proposed


def test_undo_keeps_a_decision_made_on_the_backlog_after_the_run(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A reject after the run changes no memory file, so no run records it: undoing the run before
    it brings back what the run settled and keeps the later rejection."""
    assert _run(example, "dream", "--engine", _script(tmp_path, FIRST, SECOND, THIRD), "--yes", "--max-add", "1") == 0
    plan = tmp_path / "plan.json"
    assert _run(example, "dream", "--engine", _script(tmp_path), "--plan-out", str(plan), "--max-add", "1") == 0
    proposals = json.loads(plan.read_text())["proposals"]
    first = next(p for p in proposals if p.get("learning"))
    assert _run(example, "dream", "--engine", _script(tmp_path), "--yes", "--max-add", "5") == 0
    assert _waiting(example) == set()  # both backlog learnings applied
    # a saved plan of learnings since applied: rejecting it retires that learning
    main(["apply", str(plan), "--reject", first["id"], "--project", str(example.project),
          "--claude-home", str(example.claude_home)])  # fmt: skip
    rejected = first["learning"]["principle"]
    assert _run(example, "undo") == 0
    waiting = _waiting(example)
    assert rejected not in waiting  # the later decision stands
    assert waiting == {SECOND, THIRD} - {rejected}


def test_a_review_that_decides_nothing_counts_the_backlog_learnings_it_proposes(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Two learnings wait; a dry run under an ADD cap of one proposes one of them: it says one of two,
    not "2 learning(s) … come first" beside a single id."""
    assert _run(example, "dream", "--engine", _script(tmp_path, FIRST, SECOND, THIRD), "--yes", "--max-add", "1") == 0
    capsys.readouterr()
    assert _run(example, "dream", "--engine", _script(tmp_path), "--dry-run", "--max-add", "1") == 0
    out = capsys.readouterr().out
    assert "1 of the 2 learning(s) waiting in the backlog come first in this plan (P1); nothing was decided" in out
    assert "2 learning(s) of the backlog come first" not in out


def test_undo_of_a_saved_plan_applied_lets_its_backlog_learning_wait_again(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _run(example, "dream", "--engine", _script(tmp_path, FIRST, SECOND, THIRD), "--yes", "--max-add", "1") == 0
    waiting = _waiting(example)
    plan = tmp_path / "plan.json"
    assert _run(example, "dream", "--engine", _script(tmp_path), "--plan-out", str(plan), "--max-add", "1") == 0
    assert main(["apply", str(plan), "--yes", "--project", str(example.project),
                 "--claude-home", str(example.claude_home)]) == 0  # fmt: skip
    assert len(_waiting(example)) == 1
    assert _run(example, "undo") == 0
    assert _waiting(example) == waiting


def test_status_shows_what_waits_in_the_backlog(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert _run(example, "status") == 0
    assert "backlog: no learning waits\n" in capsys.readouterr().out
    assert _run(example, "dream", "--engine", _script(tmp_path, FIRST, SECOND, THIRD), "--yes", "--max-add", "1") == 0
    capsys.readouterr()
    assert _run(example, "status") == 0
    assert "backlog: 2 learning(s) wait; the next dream proposes them first\n" in capsys.readouterr().out
    assert _run(example, "status", "--json") == 0
    backlog = json.loads(capsys.readouterr().out)["backlog"]
    assert backlog["waiting"] == 2 and backlog["rejected"] == 0
    assert {b["principle"] for b in backlog["learnings"]} == _waiting(example)
    assert {b["reason"] for b in backlog["learnings"]} == {"ADD cap 1"}
