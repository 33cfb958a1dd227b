"""The real-history dev set: stripped transcripts, windows between versions, recall and verdicts.

A small synthetic corpus stands in for `../shared/corpus` (the real one is measured by
`bench/scan_history.py` and by the last test, which skips without it)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from consolidate.evaluate.history_corpus import STRIPPED, copy_sessions, copy_stripped, reverse_edits
from consolidate.evaluate.history_labels import load_labels, verdict_key
from consolidate.evaluate.history_run import restatements, run_history, summary, windows
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
RULE = "the docs need to be clear that we configure builds per package, not per crate"


def _corpus(root: Path) -> tuple[Path, str, str]:
    """A project with two CLAUDE.md versions and one session that taught the rule the second adds."""
    history = root / "demo" / "history"
    history.mkdir(parents=True)
    (history / "CLAUDE.md@a.md").write_text("# CLAUDE.md\n\n- Run `make test`.\n")
    (history / "CLAUDE.md@b.md").write_text(f"# CLAUDE.md\n\n- Run `make test`.\n- {RULE}\n")
    (history / "HISTORY.txt").write_text(
        "CLAUDE.md@a.md  aaaaaaaa11  2026-11-01T08:00:00-0000  first\n"
        "CLAUDE.md@b.md  bbbbbbbb22  2026-11-01T12:00:00-0000  docs rule\n"
    )
    writer = SessionWriter("s-one", start=datetime(2026, 11, 1, 9, 0, tzinfo=UTC))
    writer.user(RULE)
    writer.assistant("Here is what I would change.")
    moment = writer.user("yep, remember that, let's finish the renaming first")
    writer.assistant("Renaming now.")
    writer.tool_call(
        "Edit", {"file_path": "/p/CLAUDE.md", "old_string": "x", "new_string": f"- {RULE}"}, "ok"
    )
    _, ids = writer.assistant("Merging.", tools=[("Bash", {"command": "git merge main"})])
    writer.reject(ids[0], "do a fast-forward only")
    write_session(root / "demo" / ".claude", writer)
    return root, writer.session_id, moment


def _labels(directory: Path, session: str, moment: str) -> None:
    data = {
        "corpus": "demo",
        "transcripts": ".claude",
        "history": "history",
        "memory_file": "CLAUDE.md",
        "heldout_after": "bbbbbbbb",
        "rules": [
            {
                "id": "docs-packages",
                "version": "bbbbbbbb",
                "about": "packages, not crates",
                "key": "package",
                "status": "taught",
                "moments": [f"{session}/{moment}"],
            },
        ],  # fmt: skip
        "non_lessons": [],
    }
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "demo.json").write_text(json.dumps(data))


def test_memory_writes_are_stripped_and_rejection_reasons_kept(tmp_path: Path) -> None:
    root, session, _ = _corpus(tmp_path)
    source = root / "demo" / ".claude" / f"{session}.jsonl"
    target = tmp_path / "out" / "s.jsonl"
    assert copy_stripped(source, target)
    text = target.read_text()
    assert RULE in text  # the talk stays
    assert f"- {RULE}" not in text  # the assistant's own edit of CLAUDE.md is gone
    assert STRIPPED in text and "do a fast-forward only" in text
    early = tmp_path / "early.jsonl"
    assert copy_stripped(source, early, until=datetime(2026, 11, 1, 9, 0, 1, tzinfo=UTC)) is False
    assert (
        copy_sessions(root / "demo" / ".claude", tmp_path / "none", datetime(2026, 12, 1, tzinfo=UTC), None)
        == 0
    )


def test_an_edit_undone_gives_the_earlier_version(tmp_path: Path) -> None:
    writer = SessionWriter("s-two")
    uuid, _ = writer.tool_call(
        "Edit", {"file_path": "/p/AGENTS.md", "old_string": "old rule", "new_string": "new rule"}
    )
    write_session(tmp_path, writer)
    assert reverse_edits("a\nnew rule\n", tmp_path, [("s-two", uuid)]) == "a\nold rule\n"


def test_windows_run_from_version_to_version(tmp_path: Path) -> None:
    root, session, moment = _corpus(tmp_path)
    _labels(tmp_path / "labels", session, moment)
    labels = load_labels("demo", tmp_path / "labels")
    found = windows(labels, root)
    assert [(w.split, bool(w.memory)) for w in found] == [("dev", False), ("heldout", True)]
    assert found[1].memory["CLAUDE.md"].endswith(f"{RULE}\n")


def test_recall_and_verdicts_over_the_history(tmp_path: Path, claude_home: Path) -> None:
    root, session, moment = _corpus(tmp_path)
    _labels(tmp_path / "labels", session, moment)
    labels = load_labels("demo", tmp_path / "labels")
    result = run_history(labels, root, tmp_path / "work")
    assert result.found["docs-packages"] == [
        "We configure builds per package, not per crate"
    ]  # the fact the user asked the docs to make clear, not the one-off task of writing it
    (add,) = result.adds
    assert add.key == verdict_key(session, moment, add.candidate.principle) and add.verdict == ""
    verdict = {"key": add.key, "verdict": "keep", "reason": "the rule of version b", "about": "docs"}
    (tmp_path / "labels" / "demo.verdicts.json").write_text(json.dumps([verdict]))
    again = run_history(load_labels("demo", tmp_path / "labels"), root, tmp_path / "work2")
    assert summary(again)["splits"]["dev"] == {
        "rules_found": 1, "rules_taught": 1, "recall": 1.0, "moments_found": 1, "moments_labeled": 1, "adds": 1,
        "adds_kept": 1, "adds_unjudged": 0,
        "add_precision": 1.0,
    }  # fmt: skip


@pytest.mark.skipif(
    not (CORPUS / "winksaville__tspec").is_dir(), reason="needs ../shared/corpus (real sessions)"
)
def test_real_tspec_history_meets_the_targets(tmp_path: Path, claude_home: Path) -> None:
    result = run_history(load_labels("tspec"), CORPUS, tmp_path)
    found, taught = result.recall("dev")
    kept, judged, unjudged = result.precision("dev")
    assert taught and found / taught >= 0.5
    cited, labeled = result.moment_recall("dev")
    assert labeled and cited / labeled >= 0.5  # the teaching moments, not only one per rule
    assert judged and kept / judged >= 0.8 and unjudged == 0
    assert not result.non_lesson_hits


@pytest.mark.skipif(
    not (CORPUS / "winksaville__tspec").is_dir(), reason="needs ../shared/corpus (real sessions)"
)
def test_rules_the_cut_already_states_are_mostly_set_aside(tmp_path: Path) -> None:
    """Every tuned-on session against the CLAUDE.md that holds all the rules they taught: what the plan
    still writes restates one, so most must be set aside as already recorded."""
    written, aside = restatements(load_labels("tspec"), CORPUS, tmp_path)
    assert len(aside) > len(written)
    assert any("install" in line.lower() for line in aside)  # "don't install it until after it passes"
