from __future__ import annotations

import json

import pytest

from consolidate.cli import main
from tests.audit.conftest import Project


def test_audit_json_shape(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    project.entries("`src/shop/legacy.py` computes the old tax table.", "Write clean code.")
    code = main(["audit", str(project.repo.path), "--memory-dir", str(project.memory), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["entries_audited"] == 2
    first = data["findings"][0]
    assert {"category", "file", "entry", "evidence", "action", "replacement", "confidence"} <= first.keys()
    assert [(f["category"], f["action"]) for f in data["findings"]] == [
        ("STALE", "REMOVE"),
        ("LOW-VALUE", "REMOVE"),
    ]


def test_audit_table_in_a_pipe(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    project.entries("`src/shop/handlers.py` registers every route.")
    assert main(["audit", str(project.repo.path), "--memory-dir", str(project.memory)]) == 0
    out = capsys.readouterr().out
    assert "| Category | Action | Where |" in out and "| STALE | EDIT | MEMORY.md:4 |" in out


def test_audit_without_memory_and_bad_project(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(project.repo.path), "--memory-dir", str(project.memory), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []
    assert main(["audit", str(project.repo.path / "nope")]) == 2
    assert "no such project directory" in capsys.readouterr().err


def test_audit_reads_claude_md_and_its_imports_without_memory(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.repo.write("CLAUDE.md", "@AGENTS.md\n")
    project.repo.write("AGENTS.md", "# Rules\n\n- Run `src/shop/legacy.py --all` nightly.\n- Be terse.\n")
    assert main(["audit", str(project.repo.path), "--memory-dir", str(project.memory)]) == 0
    out = capsys.readouterr().out
    assert "entries audited: 3 in 2 file(s); findings: 1" in out
    assert "| L1 |" in out and "AGENTS.md (imported by" in out and "| STALE | NONE |" in out
