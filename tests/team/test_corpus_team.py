"""Share and onboard over a real project's sessions from the shared corpus (skipped without it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memory_layout import project_key
from tests.team.conftest import Clone, run

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "winksaville__zc-ring-x1.claude"
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is not at {CORPUS}")


def test_what_a_real_dream_learned_is_shared_checked_and_briefed(alice: Clone, bob: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    for name in ("CLAUDE.md", "AGENTS.md"):
        shutil.copy(CORPUS / "work_repo_zc-ring-x1" / f"{name}@54f2023.md", alice.path / name)
    alice.commit_all("The project's instructions")
    sessions = alice.home / "projects" / project_key(alice.path)
    sessions.mkdir(parents=True)
    for path in CORPUS.glob("*.jsonl"):
        shutil.copy(path, sessions / path.name)
    args = [str(alice.path), "--claude-home", str(alice.home)]
    assert run(capsys, "dream", *args, "--yes")[0] == 0
    learned = [p for p in alice.memory.glob("*.md") if p.name != "MEMORY.md"]
    code, out, err = run(capsys, "share", *args, "--yes")
    assert code == 0, err
    shared = [p for p in alice.team.glob("*.md") if p.name != "MEMORY.md"]
    assert learned and len(shared) == len(learned)
    for path in shared:
        text = path.read_text()
        assert "shared_by: Alice" in text and "originSessionId" not in text and str(Path.home()) not in text
    assert run(capsys, "share", "--check", str(alice.path))[0] == 0
    alice.git("add", "-A")
    alice.git("commit", "-qm", "Share")
    alice.git("push", "-q", "origin", "HEAD:main")

    bob.git("pull", "-q", "origin", "main")
    code, brief, err = run(capsys, "onboard", str(bob.path), "--claude-home", str(bob.home))
    assert code == 0, err
    assert "`CLAUDE.md` (with `AGENTS.md`)" in brief and "shared by Alice" in brief
    assert all(f"`.claude/team-memory/{p.name}`" in brief for p in shared)
