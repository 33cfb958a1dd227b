"""One grammar for every command (PROJECT or --project, only the options that act, ids in any case),
usage errors in one line with exit 2, and plans applied in parts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consolidate.cli import main
from tests.helpers.memory import plan_dict, project_settings, proposal, snapshot_bytes, write_plan, write_tree

INDEX = "# Project Memory\n\n## Notes\n- **When building:** run `make`. → [detail](build.md)\n"


@pytest.fixture
def settings(git_repo, claude_home: Path):  # type: ignore[no-untyped-def]
    s = project_settings(git_repo.path, claude_home)
    write_tree(s.memory_dir, {"MEMORY.md": INDEX, "build.md": "make\n", "old.md": "y\n", "older.md": "z\n"})
    return s


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("consolidate") and not err.startswith("consolidate: consolidate")
    return err.strip()


PROJECT_COMMANDS = ["status", "dream", "snapshot", "audit", "scan", "undo", "tick"]


@pytest.mark.parametrize("command", PROJECT_COMMANDS)
def test_project_is_positional_and_an_option(command, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    project = str(settings.layout.project)
    extra = ["--dry-run"] if command == "dream" else []
    for argv in ([command, project, *extra], [command, "--project", project, *extra]):
        code, _, err = run(capsys, *argv)
        assert code in (0, 1), err  # undo with nothing to undo exits 1
        assert "unrecognized arguments" not in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["status", "/no/such/dir"], "no such project directory: /no/such/dir"),
        (["status", "--project", "/no/such/dir"], "no such project directory"),
        (["dream", "/no/such/dir", "--dry-run"], "no such project directory"),
        (["scan", "/no/such/dir"], "no such project directory"),
        (["undo", "/no/such/dir"], "no such project directory"),
        (["tick", "/no/such/dir"], "no such project directory"),
        (["remember", "use uv", "--project", "/no/such/dir", "--yes"], "no such project directory"),
        (["queue", "status", "/no/such/dir"], "no such project directory"),
        (["learnings", "score", "/no/such/dir"], "no such project directory"),
        (["install", "--scope", "project", "/no/such/dir"], "no such project directory"),
        (["status", "--memory-dir", "/no/such/memory"], "no such memory dir: /no/such/memory"),
        (["apply", "/no/such/plan.json", "--yes"], "cannot read plan /no/such/plan.json"),
        (["eval", "--memory-dir", "x"], "unrecognized arguments: --memory-dir"),
        (["eval", "--claude-home", "x"], "unrecognized arguments: --claude-home"),
        (["install", "--memory-dir", "x"], "unrecognized arguments: --memory-dir"),
        (["hook", "Stop", "--memory-dir", "x"], "unrecognized arguments: --memory-dir"),
        (["tick", "--memory-dir", "x"], "unrecognized arguments: --memory-dir"),
        (["install", "--project", "."], "a project is only used with --scope project"),
        (["install", "--scope", "everywhere"], "invalid choice: 'everywhere'"),
        (["learnings", "score", "--global", "."], "--global and a project exclude each other"),
        (["dream", "--max-add", "x"], "consolidate dream: argument --max-add: invalid int value"),
        (["queue", "ack"], "consolidate queue ack: the following arguments are required: ID"),
    ],
)
def test_usage_errors_exit_2_with_one_line(argv, says, capsys, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert says in one_line(err)


def test_two_different_projects_are_a_usage_error(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, "status", str(settings.layout.project), "--project", str(tmp_path))
    assert code == 2 and "name different directories" in one_line(err)
    code, _, _ = run(
        capsys, "status", str(settings.layout.project), "--project", str(settings.layout.project)
    )
    assert code == 0


@pytest.mark.parametrize("engine", ["anthropic", "claude-sdk"])
def test_an_llm_engine_that_cannot_run_exits_1_unless_offline_is_allowed(  # type: ignore[no-untyped-def]
    engine, settings, capsys, monkeypatch
) -> None:
    monkeypatch.setenv("CONSOLIDATE_CLAUDE_CLI", "/no/such/claude")  # a CLI path, but no credentials
    before = snapshot_bytes(settings.memory_dir)
    project = str(settings.layout.project)
    code, out, err = run(capsys, "dream", project, "--engine", engine, "--dry-run")
    assert code == 1 and out == ""
    assert "has no" in one_line(err) and "or pass --fallback offline" in err
    code, out, err = run(capsys, "dream", project, "--engine", engine, "--dry-run", "--fallback", "offline")
    assert code == 0 and "running the offline engine instead" in err
    assert snapshot_bytes(settings.memory_dir) == before


def _plan(settings, tmp_path: Path) -> Path:  # type: ignore[no-untyped-def]
    proposals = [
        proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "section": "Notes", "text": "One."}],
                 section="Notes", summary="add one"),
        proposal("P2", "REMOVE", [{"op": "trash_file", "file": "old.md"}], file="old.md", summary="retire old"),
        proposal("P3", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "section": "Notes", "text": "Two."}],
                 section="Notes", summary="add two"),
        proposal("P4", "REMOVE", [{"op": "trash_file", "file": "older.md"}], file="older.md",
                 summary="retire older"),
    ]  # fmt: skip
    return write_plan(tmp_path / "plan.json", plan_dict(settings, proposals))


def test_a_plan_is_applied_in_parts_in_any_order(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = str(_plan(settings, tmp_path))
    where = ["--project", str(settings.layout.project), "--claude-home", str(settings.layout.claude_home)]
    code, out, err = run(capsys, "apply", plan, *where, "--only", "p3")
    assert code == 0, err
    assert "still to apply from this plan: P1, P2, P4" in out
    code, out, err = run(capsys, "apply", plan, *where, "--only", "P2")
    assert code == 0, err
    assert not (settings.memory_dir / "old.md").exists()
    code, out, _ = run(capsys, "apply", plan, *where, "--yes")
    assert code == 0
    assert "| retire old | REMOVE | old.md | skipped: already applied |" in out
    assert "| add one | ADD | MEMORY.md → Notes | done |" in out
    assert "every proposal of this plan is applied" in out
    index = (settings.memory_dir / "MEMORY.md").read_text()
    assert index.count("One.") == 1 and index.count("Two.") == 1
    assert not (settings.memory_dir / "older.md").exists()


def test_a_part_after_an_edit_by_hand_is_refused(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = str(_plan(settings, tmp_path))
    where = ["--project", str(settings.layout.project), "--claude-home", str(settings.layout.claude_home)]
    assert run(capsys, "apply", plan, *where, "--only", "P1")[0] == 0
    index = settings.memory_dir / "MEMORY.md"
    index.write_text(index.read_text() + "- A line typed by hand.\n")
    before = snapshot_bytes(settings.memory_dir)
    code, _, err = run(capsys, "apply", plan, *where, "--only", "P3")
    assert code == 1 and "MEMORY.md changed since the plan was made" in one_line(err)
    assert snapshot_bytes(settings.memory_dir) == before


def test_undoing_every_part_restores_the_start_and_the_plan_applies_again(settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = str(_plan(settings, tmp_path))
    where = ["--project", str(settings.layout.project), "--claude-home", str(settings.layout.claude_home)]
    before = snapshot_bytes(settings.memory_dir)
    assert run(capsys, "apply", plan, *where, "--only", "P1")[0] == 0
    assert run(capsys, "undo", str(settings.layout.project))[0] == 0
    assert snapshot_bytes(settings.memory_dir) == before
    code, out, _ = run(capsys, "apply", plan, *where, "--only", "P1")
    assert code == 0 and "| add one | ADD | MEMORY.md → Notes | done |" in out


def test_ids_ignore_case_everywhere(settings, tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    from consolidate.capture.queue import NewItem, bucket_for, open_queue

    with open_queue() as queue:
        (item,) = queue.enqueue(bucket_for(settings.layout.project), [NewItem("learning", "a fact")])
    code, out, _ = run(capsys, "queue", "ack", item[:8].upper(), "--project", str(settings.layout.project))
    assert code == 0 and out == f"acked {item[:12]}\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"rule": "Run make test before pushing"})))
    code, out, _ = run(capsys, "learnings", "capture", str(settings.layout.project), "--json")
    episode = json.loads(out)[0]["id"]
    code, out, _ = run(
        capsys, "learnings", "bump", episode.lower(), "--project", str(settings.layout.project)
    )
    assert code == 0 and out.startswith(f"{episode}: freq 2")


def test_version(capsys) -> None:  # type: ignore[no-untyped-def]
    from consolidate import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"consolidate {__version__}\n"
