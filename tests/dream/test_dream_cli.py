from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.dream.run import DreamOptions, run_dream
from consolidate.engines import AUDITOR, DISCOVERER
from tests.dream.scripted import AUDIT, CLEAN, DISCOVERY
from tests.helpers.memory import snapshot_bytes

L0 = {
    "candidates": [
        {
            "kind": "preference",
            "principle": "answer in English even when asked in Russian",
            "layer": "L0",
            "confidence": 0.9,
            "impact": 0.9,
        }
    ]
}


def script(tmp_path: Path, audit=AUDIT, discovery=DISCOVERY) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path / "script.json"
    path.write_text(json.dumps({AUDITOR: [audit], DISCOVERER: [discovery]}))
    return f"scripted:{path}"


def dream(capsys, example, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(["dream", str(example.project), "--claude-home", str(example.claude_home), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_prints_only_the_plan_and_applies_nothing(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(example.memory_dir)
    code, out, err = dream(capsys, example, "--engine", script(tmp_path), "--json")
    assert code == 0
    plan = json.loads(out)
    assert [p["action"] for p in plan["proposals"]] == ["REMOVE", "CLUSTER", "ADD"]
    assert plan["mark_consolidation"] is True and plan["engine"] == "scripted"
    assert plan["snapshot"]["MEMORY.md"].startswith("sha256:")
    assert "### [" not in out and "note:" not in out
    assert snapshot_bytes(example.memory_dir) == before


def test_without_a_terminal_the_dream_shows_and_does_not_hang(example, tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    before = snapshot_bytes(example.memory_dir)
    code, out, err = dream(capsys, example, "--engine", script(tmp_path))
    assert code == 0
    assert "### [REMOVE] Learning: Write clean code and keep functions small.  (P1)" in out
    assert "**Target:** MEMORY.md → Feedback" in out and "-- Write clean code" in out
    assert "nothing applied" in err
    assert snapshot_bytes(example.memory_dir) == before


def _every_file(root: Path) -> dict[str, bytes | None]:
    return {str(p): p.read_bytes() if p.is_file() else None for p in sorted(root.rglob("*"))}


def test_dry_run_writes_nothing_even_for_a_new_memory(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    (example.memory_dir / "MEMORY.md").unlink()
    code, out, err = dream(capsys, example, "--engine", script(tmp_path), "--dry-run")
    assert code == 0 and "### [ADD]" in out
    assert not (example.memory_dir / "MEMORY.md").exists()
    assert "created" not in out + err and "MEMORY.md does not exist yet" in err


def test_a_dry_run_creates_no_file_anywhere(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Not in the memory dir, the project, Claude's config dir or our own state (no lock, no scan cache,
    no queue): the whole tree of the test is byte for byte the same."""
    before = _every_file(tmp_path)
    code, out, _ = dream(capsys, example, "--dry-run")
    assert code == 0 and "### [" in out
    assert _every_file(tmp_path) == before


def test_dry_run_with_plan_out_is_refused(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = dream(capsys, example, "--dry-run", "--plan-out", str(tmp_path / "plan.json"))
    assert code == 2 and err.count("\n") == 1 and "--dry-run writes nothing, not even a plan" in err
    assert not (tmp_path / "plan.json").exists()


def test_memory_md_is_created_only_when_a_proposal_is_applied(example, tmp_path, settings) -> None:  # type: ignore[no-untyped-def]
    (example.memory_dir / "MEMORY.md").unlink()
    options = DreamOptions(engine=script(tmp_path))
    answers = iter(["s", ""])  # none selected: the learnings wait in the backlog
    result = run_dream(
        settings,
        options,
        out=io.StringIO(),
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=lambda _: next(answers),
    )
    assert result.plan.proposals and not (example.memory_dir / "MEMORY.md").exists()
    run_dream(settings, options, out=io.StringIO(), err=io.StringIO(), stdin=io.StringIO(), ask=lambda _: "a")
    assert (example.memory_dir / "MEMORY.md").read_text().startswith("# Project Memory\n")


def test_yes_applies_and_marks_then_undo(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(example.memory_dir)
    code, out, _ = dream(capsys, example, "--engine", script(tmp_path), "--yes")
    assert code == 0
    assert (
        "| Write clean code and keep functions small. | REMOVE | MEMORY.md → Feedback | done |"
        in out
    )
    assert (example.memory_dir / ".last-consolidation").exists()
    assert (example.memory_dir / "clusters" / "reference.md").exists()
    capsys.readouterr()
    assert main(["undo", str(example.project), "--claude-home", str(example.claude_home)]) == 0
    assert snapshot_bytes(example.memory_dir) == before
    said = capsys.readouterr().out
    # the files it put back and the files the run had made, each told as what undo did to it
    assert ": restored " in said and " file(s) the run created to the trash" in said
    assert f"  {example.memory_dir / 'clusters' / 'reference.md'} (created by the run)\n" in said
    assert f"  {example.memory_dir / 'MEMORY.md'}\n" in said


def test_plan_out_then_apply_only(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan_file = tmp_path / "plan.json"
    code, _, _ = dream(capsys, example, "--engine", script(tmp_path), "--plan-out", str(plan_file))
    assert code == 0 and plan_file.exists()
    assert json.loads(plan_file.read_text())["claude_home"] == str(example.claude_home)
    here = ["--project", str(example.project), "--claude-home", str(example.claude_home)]
    assert main(["apply", str(plan_file), "--only", "P3", *here]) == 0
    out = capsys.readouterr().out
    assert "| use uv add, never pip install | ADD | MEMORY.md → Feedback | done |" in out
    text = (example.memory_dir / "MEMORY.md").read_text()
    assert "uv add" in text and CLEAN in text
    assert (example.memory_dir / ".last-consolidation").exists()


def test_interactive_approve_all(example, tmp_path, settings) -> None:  # type: ignore[no-untyped-def]
    options = DreamOptions(engine=script(tmp_path))
    out, err = io.StringIO(), io.StringIO()
    result = run_dream(settings, options, out=out, err=err, stdin=io.StringIO(), ask=lambda prompt: "a")
    assert result.report is not None and all(r.done for r in result.report.results)
    assert CLEAN not in (settings.memory_dir / "MEMORY.md").read_text()


def test_l0_needs_confirmation_even_with_yes(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = dream(capsys, example, "--engine", script(tmp_path, discovery=L0), "--yes")
    assert code == 0
    assert "skipped: changes ~/.claude/CLAUDE.md" in out
    user_md = example.claude_home / "CLAUDE.md"
    assert not user_md.exists()


def test_l0_confirmed_interactively(example, tmp_path, settings) -> None:  # type: ignore[no-untyped-def]
    answers = iter(["s", "P3", "y"])
    result = run_dream(
        settings,
        DreamOptions(engine=script(tmp_path, discovery=L0)),
        out=io.StringIO(),
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=lambda prompt: next(answers),
    )
    assert result.report is not None
    assert settings.layout.user_claude_md.read_text().endswith(
        "answer in English even when asked in Russian.\n"
    )


@pytest.mark.parametrize(
    "args", [["--yes", "--only", "P1"], ["--max-add", "0"], ["--since", "last tuesday"], ["--engine", "gpt"]]
)
def test_bad_options_exit_2(example, capsys, args) -> None:  # type: ignore[no-untyped-def]
    code, _, err = dream(capsys, example, *args)
    assert code == 2 and err.count("\n") == 1


def test_dry_run_wins_over_yes_and_only(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(example.memory_dir)
    for flags in (["--yes"], ["--only", "P1"]):
        code, out, _ = dream(capsys, example, "--engine", script(tmp_path), "--dry-run", *flags)
        assert code == 0 and "### [REMOVE]" in out and "| done |" not in out
    assert snapshot_bytes(example.memory_dir) == before


def test_plan_out_never_overwrites_memory(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(example.memory_dir)
    for target in (example.memory_dir / "plan.json", tmp_path / "CLAUDE.md"):
        code, _, err = dream(capsys, example, "--engine", script(tmp_path), "--plan-out", str(target))
        assert code == 2 and "write the plan outside the memory dir" in err
    assert snapshot_bytes(example.memory_dir) == before


def test_a_skipped_l0_learning_waits_in_the_backlog_and_is_proposed_again(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = dream(capsys, example, "--engine", script(tmp_path, discovery=L0), "--yes")
    assert code == 0 and "skipped: changes ~/.claude/CLAUDE.md" in out
    assert "1 learning(s) wait in the backlog" in out
    assert (example.memory_dir / ".last-consolidation").exists()  # the sessions are done; the learning waits
    assert not (example.claude_home / "CLAUDE.md").exists()
    code, out, _ = dream(
        capsys, example, "--engine", script(tmp_path, audit=CLEAN, discovery={"candidates": []}), "--dry-run"
    )
    assert code == 0 and "answer in English even when asked in Russian" in out
    assert "[ADD] Learning: answer in English" in out
    # it is proposed here: the dry run says so, not that a later dream will propose it
    assert "the next dream proposes them first" not in out
    assert "1 learning(s) of the backlog come first in this plan (P" in out
    assert "nothing was decided, so they still wait there" in out


def test_the_marker_is_the_time_gathering_started(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    before = datetime.now(UTC).replace(microsecond=0)
    code, _, _ = dream(capsys, example, "--engine", script(tmp_path), "--yes")
    assert code == 0
    marked = datetime.fromisoformat(
        (example.memory_dir / ".last-consolidation").read_text().strip().replace("Z", "+00:00")
    )
    assert before <= marked <= datetime.now(UTC)


def test_a_dream_with_nothing_left_lists_no_empty_table(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    engine = script(tmp_path, audit=CLEAN, discovery={"candidates": []})
    assert dream(capsys, example, "--engine", engine, "--yes")[0] == 0  # applies what the memory needs
    code, out, _ = dream(capsys, example, "--engine", engine, "--yes")
    assert code == 0 and "no proposals" in out
    assert "| Learning |" not in out
    assert (example.memory_dir / ".last-consolidation").exists()


def test_no_session_since_when_the_sessions_were_written_in_the_second_the_dream_began(  # type: ignore[no-untyped-def]
    example, tmp_path, capsys
) -> None:
    import os
    import time

    while time.time() % 1 > 0.5:  # early in a second, so the dream begins in the same second
        time.sleep(0.05)
    now = time.time()
    for path in example.transcripts_dir.glob("*.jsonl"):
        os.utime(path, (now, now))
    code, _, _ = dream(capsys, example, "--engine", script(tmp_path), "--yes")
    assert code == 0 and (example.memory_dir / ".last-consolidation").exists()
    assert main(["status", str(example.project), "--claude-home", str(example.claude_home)]) == 0
    assert "sessions since: 0" in capsys.readouterr().out


def test_plan_out_refuses_to_overwrite_what_is_not_a_plan(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    settings_json = tmp_path / "settings.json"
    settings_json.write_text('{"hooks": {}}\n')
    code, _, err = dream(capsys, example, "--engine", script(tmp_path), "--plan-out", str(settings_json))
    assert code == 2 and "not a plan" in err
    assert settings_json.read_text() == '{"hooks": {}}\n'


def test_select_can_turn_a_learning_down_for_good(example, tmp_path, settings) -> None:  # type: ignore[no-untyped-def]
    """At the select prompt "-P3" rejects P3 while P1 is applied: the learning is retired, like a
    reject of the whole plan, instead of waiting in the backlog to come first in every dream."""
    answers = iter(["s", "P1, -p3"])
    prompts: list[str] = []
    out = io.StringIO()
    result = run_dream(
        settings,
        DreamOptions(engine=script(tmp_path)),
        out=out,
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=lambda prompt: prompts.append(prompt) or next(answers),
    )
    assert "-P2 rejects P2 so it is not proposed again" in prompts[1]
    assert result.report is not None and [r.proposal.id for r in result.report.results if r.done] == ["P1"]
    assert "rejected P3: not applied; the rejected learnings (P3) will not be proposed again" in out.getvalue()
    text = (example.memory_dir / "MEMORY.md").read_text()
    assert CLEAN not in text and "uv add" not in text
    again = run_dream(
        settings, DreamOptions(engine=script(tmp_path), dry_run=True), out=io.StringIO(), err=io.StringIO(),
        stdin=io.StringIO(),
    )  # fmt: skip
    assert not [p for p in again.plan.proposals if "uv add" in p.summary]
    assert "waits in the backlog" not in out.getvalue()


THREE = {
    "candidates": [
        {"kind": "correction", "principle": p, "confidence": 0.9, "impact": 0.8}
        for p in (
            "Run `make lint` before every push",
            "Use `uv add` instead of `pip install` for new dependencies",
            "Sign release tags with `git tag -s`",
        )
    ]
}


def test_a_dry_run_says_what_a_real_run_would_keep_in_the_backlog(
    example, tmp_path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(example.memory_dir)
    engine = script(tmp_path, audit=CLEAN, discovery=THREE)
    code, out, err = dream(capsys, example, "--engine", engine, "--max-add", "1", "--dry-run")
    assert code == 0 and "### [ADD]" in out
    said = out + err
    assert "wait in the backlog" not in said and "waits in the backlog" not in said  # it saves none
    assert "2 more learning(s) past the ADD cap: a real run keeps them in the backlog" in out
    assert "note: past the ADD cap (1), a real run keeps it in the backlog: " in err
    assert snapshot_bytes(example.memory_dir) == before
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a real run that decides nothing keeps them
    code, out, err = dream(capsys, example, "--engine", engine, "--max-add", "1")
    assert code == 0 and "2 more learning(s) past the ADD cap wait in the backlog for the next dream" in out
