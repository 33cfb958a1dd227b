"""`consolidate recall`: JSON shape, plain output, the project given either way, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from consolidate.cli import main
from tests.capture.fixtures import Session, write_session
from tests.helpers.memory import write_tree


@pytest.fixture
def project(tmp_path: Path, claude_home: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    session = Session(session_id="s-kiwi", cwd=str(project))
    session.user("let's keep the kiwi importer in tools/ because the CI image runs it").assistant("Moved it.")
    write_session(claude_home, project, session)
    return project


def test_json_hits_name_session_time_role_snippet_and_memory_file(
    project: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from consolidate.settings import load_settings

    write_tree(load_settings(project).memory_dir, {"kiwi.md": "---\ndescription: the kiwi importer\n---\n"})
    assert main(["recall", "kiwi importer", str(project), "--json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert err == "" and document["query"] == "kiwi importer" and document["terms"] == ["kiwi", "importer"]
    by_role = {h["role"]: h for h in document["hits"]}
    assert set(by_role) == {"user", "memory"}
    said = by_role["user"]
    assert (said["session"], said["kind"], said["memory_file"]) == ("s-kiwi", "decision", "")
    assert said["timestamp"].startswith("2026-11-29T") and "kiwi importer in tools/" in said["snippet"]
    assert said["matched"] == ["importer", "kiwi"]
    assert (by_role["memory"]["memory_file"], by_role["memory"]["snippet"]) == (
        "kiwi.md",
        "the kiwi importer",
    )
    assert document["index"]["sessions"] == 1 and document["index"]["path"].endswith("index.sqlite3")


def test_plain_output_and_the_project_as_an_option(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recall", "kiwi", "--project", str(project), "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "1. session s-kiwi 2026-11-29 10:00 user (decision)\n   let's keep the kiwi importer"
    )
    assert out.endswith("1 hit for 'kiwi'\n")


def test_update_alone_takes_the_project_as_its_positional(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recall", "--update", str(project)]) == 0
    assert capsys.readouterr().out.startswith("index: 1 session(s), 1 read now, 0 unchanged;")
    assert main(["recall", "--update", str(project), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["index"]["unchanged"] == 1


def test_no_hits_is_not_an_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recall", "pineapple", str(project)]) == 0
    assert capsys.readouterr().out == "0 hits for 'pineapple'\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "a QUERY is required"),
        (["kiwi", "/nonexistent/dir"], "no such project directory: /nonexistent/dir"),
        (["kiwi", "--limit", "0"], "--limit: must be at least 1"),
        (["kiwi", "--since", "yesterdayish"], "--since: cannot read 'yesterdayish'"),
    ],
)
def test_usage_errors_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recall", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and err.count("\n") == 1
