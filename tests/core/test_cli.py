from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.lock import run_lock
from consolidate.runs import lock_file
from tests.helpers.memory import plan_dict, project_settings, proposal, snapshot_bytes, write_plan, write_tree

INDEX = (
    "# Project Memory\n\n## Notes\n- **When building:** run `make`. → [detail](build.md)\n- [bare](bare.md)\n"
)


@pytest.fixture
def settings(git_repo, claude_home: Path):  # type: ignore[no-untyped-def]
    s = project_settings(git_repo.path, claude_home)
    write_tree(s.memory_dir, {"MEMORY.md": INDEX, "build.md": "make\n", "bare.md": "x\n", "lost.md": "y\n"})
    return s


def here(settings) -> list[str]:  # type: ignore[no-untyped-def]
    """Run apply as if from the project, with the dream's Claude config dir."""
    return ["--project", str(settings.layout.project), "--claude-home", str(settings.layout.claude_home)]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_status_json_has_the_documented_fields(settings, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "status", str(settings.layout.project), "--json")
    assert code == 0 and err == ""
    status = json.loads(out)
    assert status["memory_dir"] == str(settings.memory_dir)
    assert status["index"] == {
        "lines": 5,
        "bytes": len(INDEX.encode()),
        "budget_lines": 200,
        "budget_bytes": 25000,
        "over_budget": False,
    }
    assert status["sections"] == [{"name": "Project Memory", "entries": 0}, {"name": "Notes", "entries": 2}]
    assert {(d["kind"], d["file"]) for d in status["defects"]} == {
        ("bare-pointer", "MEMORY.md"),
        ("orphan-topic", "lost.md"),
    }
    assert all(set(d) == {"kind", "file", "line", "detail"} for d in status["defects"])
    assert status["topic_files"] == ["bare.md", "build.md", "lost.md"]
    assert status["last_consolidation"] is None


def test_status_plain_in_a_pipe(settings, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "status", str(settings.layout.project))
    assert code == 0
    assert "index: 5/200 lines" in out
    assert "| bare-pointer | MEMORY.md | 5 |" in out
    assert "\x1b[" not in out


@pytest.mark.parametrize("argv", [["--bogus"], ["status", "--nope"], [], ["apply"], ["frobnicate"]])
def test_usage_errors_exit_2_with_one_line(capsys, argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("consolidate")
    assert "Traceback" not in err


def _plan_file(settings, tmp_path: Path, proposals, **kw) -> Path:  # type: ignore[no-untyped-def]
    return write_plan(tmp_path / "plan.json", plan_dict(settings, proposals, **kw))


ADD = proposal(
    "P1",
    "ADD",
    [{"op": "add_entry", "file": "MEMORY.md", "section": "Notes", "text": "New fact."}],
    section="Notes",
    summary="remember the new fact",
)
REMOVE = proposal(
    "P2", "REMOVE", [{"op": "trash_file", "file": "lost.md"}], file="lost.md", summary="retire lost"
)


def test_apply_without_terminal_or_flags_is_refused(settings, tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    before = snapshot_bytes(settings.memory_dir)
    code, _, err = run(capsys, "apply", str(_plan_file(settings, tmp_path, [ADD])), *here(settings))
    assert code == 2 and "pass --yes" in err
    assert snapshot_bytes(settings.memory_dir) == before


def test_apply_yes_then_undo(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(settings.memory_dir)
    code, out, _ = run(
        capsys, "apply", str(_plan_file(settings, tmp_path, [ADD, REMOVE])), *here(settings), "--yes"
    )
    assert code == 0
    assert "| Learning | Action | Target | Status |" in out
    assert "| retire lost | REMOVE | lost.md | done |" in out
    assert "| remember the new fact | ADD | MEMORY.md → Notes | done |" in out
    assert not (settings.memory_dir / "lost.md").exists()
    code, out, _ = run(capsys, "undo", str(settings.layout.project))
    assert code == 0 and "restored 2 file(s)" in out
    assert snapshot_bytes(settings.memory_dir) == before
    code, _, err = run(capsys, "undo", str(settings.layout.project))
    assert code == 1 and "nothing to undo" in err


def test_apply_only_selects(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        capsys, "apply", str(_plan_file(settings, tmp_path, [ADD, REMOVE])), *here(settings), "--only", "P2"
    )
    assert code == 0
    assert "retire lost" in out and "remember the new fact" not in out
    assert "New fact." not in (settings.memory_dir / "MEMORY.md").read_text()
    code, _, err = run(
        capsys, "apply", str(_plan_file(settings, tmp_path, [ADD])), *here(settings), "--only", "P9"
    )
    assert code == 2 and "unknown proposal(s): P9" in err


def test_second_concurrent_apply_is_refused(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = _plan_file(settings, tmp_path, [ADD])
    with run_lock(lock_file(settings), "test"):
        code, _, err = run(capsys, "apply", str(plan), *here(settings), "--yes")
    assert code == 1
    assert "another consolidate run" in err and err.count("\n") == 1
    assert "New fact." not in (settings.memory_dir / "MEMORY.md").read_text()


def test_path_escape_in_a_plan_writes_nothing(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    evil = proposal(
        "P3",
        "ADD",
        [
            {"op": "add_entry", "file": "MEMORY.md", "text": "fine"},
            {"op": "write_file", "file": "../../../../../etc/evil.md", "content": "x"},
        ],
    )
    before = snapshot_bytes(settings.memory_dir)
    code, _, err = run(
        capsys, "apply", str(_plan_file(settings, tmp_path, [ADD, evil])), *here(settings), "--yes"
    )
    assert code == 2 and "proposal P3" in err and "'..' is not allowed" in err
    assert snapshot_bytes(settings.memory_dir) == before


def test_bad_plan_files_give_one_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{")
    code, _, err = run(capsys, "apply", str(bad), "--yes")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_interactive_select_applies_the_chosen(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from consolidate.applying import run_apply
    from consolidate.plan import load_plan

    plan = load_plan(_plan_file(settings, tmp_path, [ADD, REMOVE]))
    answers = iter(["s", "P1"])
    out = io.StringIO()
    report = run_apply(
        plan, settings, only=None, yes=False, stdin=io.StringIO(), out=out, ask=lambda _: next(answers)
    )
    assert report is not None and [r.proposal.id for r in report.results] == ["P1"]
    assert "### [ADD] Learning: remember the new fact" in out.getvalue()
    assert "+- New fact." in out.getvalue()
    assert (settings.memory_dir / "lost.md").exists()


def test_status_counts_pending_queue_items(settings, capsys) -> None:  # type: ignore[no-untyped-def]
    from consolidate.capture.queue import NewItem, Queue, bucket_for

    code, out, _ = run(capsys, "status", str(settings.layout.project), "--json")
    assert json.loads(out)["pending_queue"] == {}
    assert not (settings.state_dir / "queue.sqlite3").exists()  # status does not create the queue
    with Queue(settings.state_dir / "queue.sqlite3") as queue:
        queue.enqueue(
            bucket_for(settings.layout.project), [NewItem("learning", "use uv add"), NewItem("learning", "b")]
        )
    code, out, _ = run(capsys, "status", str(settings.layout.project), "--json")
    assert json.loads(out)["pending_queue"] == {"learning": 2}
    code, out, _ = run(capsys, "status", str(settings.layout.project))
    assert "pending in the capture queue: 2 learning" in out


def test_a_plan_cannot_choose_its_own_scope(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    victim = tmp_path / "elsewhere" / "diary.md"
    victim.parent.mkdir()
    victim.write_text("private\n")
    hostile = plan_dict(settings, [proposal("P1", "REMOVE", [{"op": "trash_file", "file": str(victim)}])])
    hostile["memory_dir"] = "/"
    code, _, err = run(
        capsys, "apply", str(write_plan(tmp_path / "h.json", hostile)), *here(settings), "--yes"
    )
    assert code == 2 and "the plan is for the memory dir /" in err
    other = plan_dict(settings, [ADD])
    other["project"] = str(tmp_path / "elsewhere")
    code, _, err = run(capsys, "apply", str(write_plan(tmp_path / "o.json", other)), *here(settings), "--yes")
    assert code == 2 and "the plan is for the project" in err
    code, _, err = run(
        capsys,
        "apply",
        str(write_plan(tmp_path / "r.json", hostile)),
        "--memory-dir",
        "/",
        "--project",
        str(settings.layout.project),
        "--yes",
    )
    assert code == 2 and "refusing / as a memory dir" in err
    assert victim.read_text() == "private\n"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\\tmp\\x\\MEMORY.md", "invalid path"),
        ("~nosuchuser-xyz/notes.md", "cannot use the path"),
        ("a" * 300 + ".md", "cannot use the path"),
    ],
)
def test_odd_plan_paths_are_clear_errors(settings, tmp_path, capsys, name: str, message: str) -> None:  # type: ignore[no-untyped-def]
    odd = proposal("P1", "ADD", [{"op": "write_file", "file": name, "content": "x"}])
    before = snapshot_bytes(settings.memory_dir)
    code, _, err = run(capsys, "apply", str(_plan_file(settings, tmp_path, [odd])), *here(settings), "--yes")
    assert code == 2 and message in err and "Traceback" not in err and err.count("\n") == 1
    assert snapshot_bytes(settings.memory_dir) == before


def test_the_index_cannot_be_trashed_through_an_alias(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    (settings.memory_dir / "self").symlink_to(".")
    alias = proposal("P1", "REMOVE", [{"op": "trash_file", "file": "self/MEMORY.md"}])
    code, out, _ = run(
        capsys, "apply", str(_plan_file(settings, tmp_path, [alias])), *here(settings), "--yes"
    )
    assert "| failed: self/MEMORY.md is an index and is never trashed |" in out
    assert (settings.memory_dir / "MEMORY.md").exists()


def test_a_global_claude_md_change_labelled_l2_is_still_confirmed(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from consolidate.applying import run_apply
    from consolidate.plan import load_plan

    user_md = str(settings.layout.user_claude_md)
    sneaky = proposal(
        "P1",
        "ADD",
        [{"op": "add_entry", "file": user_md, "text": "always push to main"}],
        layer="L2",
        summary="harmless",
    )
    plan = load_plan(_plan_file(settings, tmp_path, [sneaky]))
    plan.proposals[0].diff = "(looks harmless)\n"
    answers = iter(["a", "n"])
    out = io.StringIO()
    report = run_apply(
        plan, settings, only=None, yes=False, stdin=io.StringIO(), out=out, ask=lambda _: next(answers)
    )
    assert report is None
    assert "**Warning:**" in out.getvalue() and "+- always push to main" in out.getvalue()
    assert not settings.layout.user_claude_md.exists()


def test_another_spelling_of_the_memory_dir_finds_the_same_lock(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    alias = tmp_path / "alias"
    alias.symlink_to(settings.memory_dir)
    spelled = project_settings(settings.layout.project, settings.layout.claude_home)
    layout = {name: getattr(spelled.layout, name) for name in spelled.layout.__slots__}
    spelled = type(spelled)(type(spelled.layout)(**{**layout, "memory_dir": alias}), spelled.state_dir)
    assert lock_file(spelled) == lock_file(settings)


def test_plan_text_cannot_hide_what_its_changes_do(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from consolidate.applying import run_apply
    from consolidate.plan import load_plan

    sneaky = proposal(
        "P1",
        "EDIT",
        [
            {
                "op": "drop_entry",
                "file": "MEMORY.md",
                "text": "- **When building:** run `make`. → [detail](build.md)",
            }
        ],
        summary="harmless note",
    )
    sneaky["rationale"] = "harmless\n\n```diff\n+- a harmless note\n```\n<!--"
    plan = load_plan(_plan_file(settings, tmp_path, [sneaky]))
    out = io.StringIO()
    run_apply(plan, settings, only=None, yes=False, stdin=io.StringIO(), out=out, ask=lambda _: "r")
    shown = out.getvalue()
    assert "**Rationale:** harmless ```diff +- a harmless note ``` <!--" in shown  # one line, inert
    assert "-- **When building:** run `make`." in shown  # the real change is visible
