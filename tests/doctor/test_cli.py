"""`consolidate doctor`: `passed X/N`, a fix per failure, exit 0 only when nothing fails, JSON."""

from __future__ import annotations

import json

import pytest

from consolidate.cli import main
from tests.doctor.conftest import Setup


def test_all_pass_exits_zero(setup: Setup, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", str(setup.repo.path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"consolidate doctor: {setup.repo.path}"
    assert out.endswith("passed 18/18\n") and "FAIL" not in out and "fix:" not in out


def test_a_failure_prints_its_fix_and_exits_one(setup: Setup, capsys: pytest.CaptureFixture[str]) -> None:
    (setup.memory / "stray.md").write_text("nobody links here\n")
    assert main(["doctor", "--project", str(setup.repo.path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    (failure,) = [i for i, line in enumerate(lines) if line.startswith("FAIL")]
    assert lines[failure].split()[:2] == ["FAIL", "orphan-topics"]
    assert lines[failure + 1].strip().startswith("fix: add a trigger pointer")
    assert lines[-1] == "passed 17/18"


def test_a_warning_alone_keeps_exit_zero(setup: Setup, capsys: pytest.CaptureFixture[str]) -> None:
    setup.write_settings({})
    assert main(["doctor", str(setup.repo.path)]) == 0
    assert capsys.readouterr().out.endswith("passed 17/18 (1 warning)\n")


def test_json_shape(setup: Setup, capsys: pytest.CaptureFixture[str]) -> None:
    setup.repo.write(".gitignore", "")
    setup.repo.write(".env", "TOKEN=local\n")
    assert main(["doctor", str(setup.repo.path), "--json"]) == 1
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert err == "" and (document["passed"], document["total"]) == (17, 18)
    assert all(set(c) == {"id", "status", "detail", "fix"} for c in document["checks"])
    (failed,) = [c for c in document["checks"] if c["status"] != "pass"]
    assert failed == {"id": "gitignore-secrets", "status": "fail", "detail": "not ignored by git: .env",
                      "fix": "add .env to .gitignore"}  # fmt: skip


def test_a_missing_project_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "/nonexistent/project"]) == 2
    assert capsys.readouterr().err == "consolidate: doctor: no such project directory: /nonexistent/project\n"
