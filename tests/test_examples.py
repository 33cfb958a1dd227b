"""Every example runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.helpers.example import example_module


def _load(name: str):  # type: ignore[no-untyped-def]
    return example_module(name)


def test_example_project_builds_a_repo_memory_and_sessions(tmp_path: Path) -> None:
    example = _load("example_project").build_example(tmp_path / "ex")
    log = subprocess.run(
        ["git", "log", "--oneline"], cwd=example.project, capture_output=True, text=True, check=True
    )
    assert len(log.stdout.splitlines()) == 3
    assert (example.memory_dir / "MEMORY.md").read_text().startswith("# Project Memory\n")
    assert len(list(example.transcripts_dir.glob("*.jsonl"))) == 2
    assert not (example.project / "src/acme/settings.py").exists()


def test_demo_runs_a_full_dream(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    code = _load("demo").demo(tmp_path)
    out = capsys.readouterr().out
    assert code == 0
    for action in ("REMOVE", "MERGE", "EDIT", "CLUSTER", "ADD"):
        assert f"### [{action}] Learning:" in out or f"### [{action} ×" in out, action
        assert f"| {action} |" in out, action
    assert "| failed" not in out and "unverified" not in out
    assert "no proposals: memory is consistent" in out
