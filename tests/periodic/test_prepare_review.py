"""dream --prepare keeps a pending plan; review settles it the way the dream does; status shows it."""

from __future__ import annotations

import io
import json
import re

from consolidate.cli import main
from consolidate.dream.run import DreamOptions
from consolidate.periodic import store
from consolidate.periodic.pending import folder_of, load_pending
from consolidate.periodic.review import review_pending
from tests.dream.scripted import CLEAN, DISCOVERY
from tests.dream.test_dream_cli import L0
from tests.helpers.memory import snapshot_bytes
from tests.periodic.conftest import script_file


def cli(capsys, example, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main([*args, str(example.project), "--claude-home", str(example.claude_home)])
    out, err = capsys.readouterr()
    return code, out, err


def prepare(capsys, example, engine: str, *more: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    return cli(capsys, example, "dream", "--prepare", "--engine", engine, *more)


def test_prepare_applies_nothing_and_keeps_the_plan(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(example.memory_dir)
    code, out, err = prepare(capsys, example, script)
    assert code == 0
    assert "pending plan saved: 3 proposal(s) to decide (1 ADD, 1 CLUSTER, 1 REMOVE; 1 removal(s))" in out
    assert snapshot_bytes(example.memory_dir) == before  # not even .last-consolidation
    pending = load_pending(settings)
    assert pending is not None
    assert [p.action for p in pending.plan.proposals] == ["REMOVE", "CLUSTER", "ADD"]
    assert pending.summary["files"]["MEMORY.md"]["sha256"] == pending.plan.snapshot["MEMORY.md"]
    assert pending.summary["files"]["MEMORY.md"]["size"] == (example.memory_dir / "MEMORY.md").stat().st_size
    assert pending.summary["engine"] == "scripted" and pending.summary["usage"] is None


def test_a_newer_plan_replaces_the_older(example, settings, script, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    first = load_pending(settings)
    prepare(capsys, example, "offline")
    second = load_pending(settings)
    assert first is not None and second is not None
    assert second.plan.engine == "offline" and second.summary["created_at"] >= first.summary["created_at"]
    assert len(list(folder_of(settings).glob("plan-*.json"))) == 1


def test_prepare_refuses_apply_options(example, script, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = prepare(capsys, example, script, "--yes")
    assert code == 2 and "--prepare applies nothing" in err


def test_status_shows_the_pending_plan_and_when_its_files_changed(example, script, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli(capsys, example, "status", "--json")
    assert code == 0 and json.loads(out)["pending_plan"] is None
    prepare(capsys, example, script)
    code, out, _ = cli(capsys, example, "status", "--json")
    pending = json.loads(out)["pending_plan"]
    assert pending["proposals"] == 3 and pending["by_action"] == {"ADD": 1, "CLUSTER": 1, "REMOVE": 1}
    assert pending["changed_since"] is False and pending["engine"] == "scripted"
    with (example.memory_dir / "MEMORY.md").open("a") as index:
        index.write("- a line written by hand\n")
    (example.memory_dir / "new_topic.md").write_text("# new\n")
    code, out, _ = cli(capsys, example, "status", "--json")
    pending = json.loads(out)["pending_plan"]
    assert pending["changed_since"] is True
    assert "MEMORY.md changed" in pending["changes"] and "new_topic.md appeared" in pending["changes"]
    code, out, _ = cli(capsys, example, "status")
    assert (
        "pending plan: 3 proposal(s) to decide (1 ADD, 1 CLUSTER, 1 REMOVE)" in out
        and "review rebuilds it" in out
    )


RECORDED = {
    "candidates": [
        {  # MEMORY.md says it already: set aside, no decision needed
            "kind": "correction",
            "principle": "use `make test` to run the tests; plain pytest misses the DB fixture",
            "trigger": "running tests",
            "confidence": 0.9,
            "impact": 0.8,
            "evidence": [{"session": "s1", "uuid": "u1", "quote": "use make test"}],
        },
        *DISCOVERY["candidates"],
    ],
    "sessions_scanned": 2,
}


def test_what_needs_deciding_is_counted_apart_from_what_is_already_recorded(
    example, tmp_path, capsys
) -> None:  # type: ignore[no-untyped-def]
    engine = f"scripted:{script_file(tmp_path, discovery=RECORDED)}"
    code, out, _ = prepare(capsys, example, engine)
    assert code == 0
    assert (
        "pending plan saved: 3 proposal(s) to decide (1 ADD, 1 CLUSTER, 1 REMOVE; 1 removal(s); 1 already recorded, set aside)"
        in out
    )
    code, out, _ = cli(capsys, example, "status", "--json")
    pending = json.loads(out)["pending_plan"]
    assert pending["proposals"] == 3 and pending["already_recorded"] == 1
    assert pending["by_action"] == {"ADD": 1, "CLUSTER": 1, "REMOVE": 1}
    code, out, _ = cli(capsys, example, "review", "--dry-run")
    assert code == 0
    assert "(scripted engine): 3 proposal(s) to decide; 1 already recorded, set aside" in out.splitlines()[0]
    assert "skipped P" in out and "already recorded as" in out
    assert store.announcement(load_pending_summary(example)).startswith(
        "A consolidation plan is ready: 3 proposal(s) to decide (1 removal(s); 1 already recorded, set aside)"
    )


def load_pending_summary(example):  # type: ignore[no-untyped-def]
    from consolidate.settings import load_settings

    pending = load_pending(load_settings(example.project, home=example.claude_home))
    assert pending is not None
    return pending.summary


def test_llm_usage_is_recorded_and_shown(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = prepare(capsys, example, "fake:offline-with-usage")
    assert code == 0 and "24000 input + 1800 output tokens, $0.0660" in out
    code, out, _ = cli(capsys, example, "status", "--json")
    assert json.loads(out)["pending_plan"]["usage"] == {
        "input_tokens": 24000,
        "output_tokens": 1800,
        "cost_usd": 0.066,
    }
    code, out, _ = cli(capsys, example, "review", "--dry-run")
    assert (
        out.startswith("## Pending plan of ")
        and "24000 input + 1800 output tokens, $0.0660" in out.splitlines()[0]
    )


def test_review_shows_exactly_what_the_dream_shows(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    _, dreamed, _ = cli(capsys, example, "dream", "--dry-run", "--engine", script)
    prepare(capsys, example, script)
    code, reviewed, _ = cli(capsys, example, "review", "--dry-run")
    assert code == 0
    header, _, body = reviewed.partition("\n\n")
    assert header.startswith("## Pending plan of ") and header.endswith(
        "(scripted engine): 3 proposal(s) to decide"
    )
    assert body == dreamed
    assert load_pending(settings) is not None  # a dry run keeps it


def test_review_approve_all_applies_journals_and_clears_the_plan(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    result = review_pending(
        settings, DreamOptions(), out=io.StringIO(), err=io.StringIO(), stdin=io.StringIO(), ask=lambda _: "a"
    )
    assert result is not None and result.report is not None and result.report.ok
    assert CLEAN not in (example.memory_dir / "MEMORY.md").read_text()
    assert (example.memory_dir / ".last-consolidation").exists()
    assert load_pending(settings) is None and not list(folder_of(settings).glob("plan-*.json"))
    assert main(["undo", str(example.project), "--claude-home", str(example.claude_home)]) == 0
    assert CLEAN in (example.memory_dir / "MEMORY.md").read_text()


def test_review_only_and_reject(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    code, out, _ = cli(capsys, example, "review", "--only", "p1")
    assert code == 0 and "| REMOVE |" in out
    assert CLEAN not in (example.memory_dir / "MEMORY.md").read_text()
    assert load_pending(settings) is None
    prepare(capsys, example, "offline")
    before = snapshot_bytes(example.memory_dir)
    out = io.StringIO()
    result = review_pending(
        settings, DreamOptions(), out=out, err=io.StringIO(), stdin=io.StringIO(), ask=lambda _: "r"
    )
    assert result is not None and result.decided
    after = snapshot_bytes(example.memory_dir)
    assert {k: after[k] for k in before if k != ".last-consolidation"} == {
        k: v for k, v in before.items() if k != ".last-consolidation"
    }
    assert load_pending(settings) is None


def test_without_a_terminal_the_plan_waits(example, settings, script, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    before = snapshot_bytes(example.memory_dir)
    code, out, err = cli(capsys, example, "review")
    assert code == 0 and "nothing applied" in err and "the pending plan is kept" in out
    assert snapshot_bytes(example.memory_dir) == before and load_pending(settings) is not None


def test_review_json_prints_only_the_plan(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    code, out, err = cli(capsys, example, "review", "--json")
    assert code == 0 and json.loads(out)["proposals"][0]["id"] == "P1"
    assert "## Pending plan" in err and load_pending(settings) is not None


def test_l0_needs_its_own_confirmation_in_review(example, settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, f"scripted:{script_file(tmp_path, discovery=L0)}")
    code, out, _ = cli(capsys, example, "review", "--yes")
    assert code == 0 and "skipped: changes ~/.claude/CLAUDE.md" in out
    assert not settings.layout.user_claude_md.exists()
    prepare(capsys, example, f"scripted:{script_file(tmp_path, discovery=L0)}")
    answers = iter(["a", "y"])  # all, then the L0 change confirmed on its own
    review_pending(
        settings,
        DreamOptions(),
        out=io.StringIO(),
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=lambda _: next(answers),
    )
    assert settings.layout.user_claude_md.read_text().endswith(
        "answer in English even when asked in Russian.\n"
    )


def test_a_stale_plan_is_rebuilt_and_says_so(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    old = load_pending(settings)
    index = example.memory_dir / "MEMORY.md"
    index.write_text(index.read_text().replace(CLEAN + "\n", ""))  # the person fixed it by hand meanwhile
    code, out, err = cli(capsys, example, "review", "--dry-run")
    assert code == 0
    assert "is out of date (MEMORY.md changed); preparing a new one with the scripted engine" in err
    assert "[REMOVE] Learning: Write clean code" not in out  # the rebuilt plan no longer proposes what is done
    assert load_pending(settings).plan.created_at == old.plan.created_at  # type: ignore[union-attr]  # dry: not saved
    code, out, err = cli(capsys, example, "review", "--yes")
    assert code == 1 and "the pending plan was rebuilt, so nothing was applied" in err
    fresh = load_pending(settings)
    assert (
        fresh is not None
        and fresh.summary["files"]["MEMORY.md"]["sha256"] != old.summary["files"]["MEMORY.md"]["sha256"]
    )  # type: ignore[union-attr]
    assert not (example.memory_dir / ".last-consolidation").exists()
    code, out, err = cli(capsys, example, "review", "--yes")
    assert code == 0 and "out of date" not in err and load_pending(settings) is None


def test_no_pending_plan_says_how_to_make_one(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli(capsys, example, "review")
    assert code == 0 and out == "" and "no pending plan for" in err and "dream --prepare" in err


def test_an_unreadable_plan_is_one_line(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    summary = store.read_summary(folder_of(settings))
    assert summary is not None
    store.plan_path(folder_of(settings), summary).write_text("{not json")
    code, _, err = cli(capsys, example, "review")
    assert code == 1 and err.count("\n") == 1 and "the pending plan cannot be read" in err


def test_reject_lets_the_whole_plan_go(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    before = snapshot_bytes(example.memory_dir)
    code, out, _ = cli(capsys, example, "review", "--reject")
    assert code == 0 and load_pending(settings) is None
    after = snapshot_bytes(example.memory_dir)
    assert {k: after[k] for k in before} == before and CLEAN in after["MEMORY.md"].decode()
    assert cli(capsys, example, "review", "--reject", "--yes")[0] == 2


def test_a_dream_reviewed_meanwhile_supersedes_the_pending_plan(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    code, _, _ = cli(capsys, example, "dream", "--engine", script, "--yes")
    assert code == 0 and load_pending(settings) is None
    prepare(capsys, example, script)
    cli(capsys, example, "dream", "--engine", script, "--dry-run")
    assert load_pending(settings) is not None  # a dry run decides nothing


TWO_LEARNINGS = {
    "candidates": [
        DISCOVERY["candidates"][0],  # type: ignore[index]
        {
            "kind": "decision",
            "principle": "run `make migrate` before `make test` after pulling, the test DB is not migrated by the fixture",
            "trigger": "running the tests after a pull",
            "confidence": 0.9,
            "impact": 0.7,
            "evidence": [{"session": "s2", "quote": "the fixture never migrates, run make migrate first"}],
        },
    ],
    "sessions_scanned": 2,
}


def _adds(plan) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {p.id: p.summary for p in plan.proposals if p.action == "ADD"}


def test_learnings_not_applied_wait_in_the_backlog_and_feed_the_next_pending_plan(
    example, settings, tmp_path, capsys
) -> None:  # type: ignore[no-untyped-def]
    from consolidate.dream.backlog import Backlog

    engine = f"scripted:{script_file(tmp_path, discovery=TWO_LEARNINGS)}"
    prepare(capsys, example, engine)
    pending = load_pending(settings)
    assert pending is not None
    adds = _adds(pending.plan)
    uv = next(pid for pid, summary in adds.items() if "uv add" in summary)
    migrate = next(pid for pid, summary in adds.items() if "migrate" in summary)
    code, out, _ = cli(capsys, example, "review", "--only", uv)
    assert code == 0 and "1 learning(s) wait in the backlog" in out
    waiting = Backlog.load(settings).pending()
    assert len(waiting) == 1 and "make migrate" in waiting[0].principle and migrate != uv
    prepare(capsys, example, f"scripted:{script_file(tmp_path, discovery={'candidates': []})}")
    fresh = load_pending(settings)
    assert fresh is not None and fresh.plan.from_backlog  # the waiting learning comes back, proposed again
    assert any("migrate" in summary for summary in _adds(fresh.plan).values())
    assert not any("uv add" in summary for summary in _adds(fresh.plan).values())  # applied: not again


def test_a_rejected_pending_plan_retires_its_learnings(example, settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from consolidate.dream.backlog import Backlog

    engine = f"scripted:{script_file(tmp_path, discovery=TWO_LEARNINGS)}"
    prepare(capsys, example, engine)
    code, out, _ = cli(capsys, example, "review", "--reject")
    assert code == 0 and re.search(r"the rejected learnings \(P\d(, P\d)*\) will not be proposed again", out)
    backlog = Backlog.load(settings)
    assert len(backlog) == 0 and len(backlog.rejected) == 2
    prepare(capsys, example, engine)  # the same sessions say the same again
    again = load_pending(settings)
    assert again is not None and not _adds(again.plan)


def test_rejecting_an_audit_finding_says_it_comes_back_and_a_learning_that_it_does_not(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan_file = tmp_path / "plan.json"
    code, _, err = cli(capsys, example, "dream", "--engine", "offline", "--plan-out", str(plan_file))
    assert code == 0, err
    plan = json.loads(plan_file.read_text())
    finding = next(p["id"] for p in plan["proposals"] if not p.get("learning_id"))
    learning = next(p["id"] for p in plan["proposals"] if p.get("learning_id"))
    code = main(
        ["apply", str(plan_file), "--reject", f"{finding},{learning}", "--project", str(example.project),
         "--claude-home", str(example.claude_home)]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"the rejected learnings ({learning}) will not be proposed again" in out
    assert f"{finding} is an audit finding, proposed again while the memory still holds what was found" in out


def test_review_without_a_terminal_names_only_options_review_takes(example, script, capsys) -> None:  # type: ignore[no-untyped-def]
    prepare(capsys, example, script)
    code, _, err = cli(capsys, example, "review")
    assert "pass --yes, --only P1,P3, or --reject; the plan stays pending" in err
    assert "--plan-out" not in err
