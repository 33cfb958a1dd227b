"""A dream over a copy of a real Claude Code project directory from the shared corpus."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from consolidate.cli import main
from memory_layout import BUDGET_BYTES, BUDGET_LINES, measure_index, project_key
from tests.helpers.memory import snapshot_bytes

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "winksaville__zc-ring-x1.claude"
pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS} (a fresh clone)"
)


def _layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    project = tmp_path / "zc-ring"
    project.mkdir()
    for name in ("CLAUDE.md", "AGENTS.md"):
        shutil.copy(CORPUS / "work_repo_zc-ring-x1" / f"{name}@54f2023.md", project / name)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init"], cwd=project, check=True
    )
    home = tmp_path / "claude"
    sessions = home / "projects" / project_key(project)
    sessions.mkdir(parents=True)
    for path in CORPUS.glob("*.jsonl"):
        shutil.copy(path, sessions / path.name)
    shutil.copytree(CORPUS / "memory", sessions / "memory")
    for path in [*sessions.rglob("*"), sessions]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return project, home, sessions / "memory"


def test_dream_over_a_real_project_dir(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    project, home, memory = _layout(tmp_path)
    before = snapshot_bytes(tmp_path)
    code = main(["dream", str(project), "--claude-home", str(home), "--yes"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Traceback" not in err
    after = snapshot_bytes(tmp_path)
    changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
    inside = f"claude/projects/{project_key(project)}/memory/"
    state = "home/.consolidate-state/"  # our own journal and locks (CONSOLIDATE_STATE_DIR in tests)
    assert changed, "the dream changed nothing at all"
    assert all(name.startswith((inside, state)) for name in changed), sorted(changed)
    budget = measure_index((memory / "MEMORY.md").read_bytes())
    assert budget.lines <= BUDGET_LINES and budget.bytes <= BUDGET_BYTES
    assert (memory / ".last-consolidation").exists()
