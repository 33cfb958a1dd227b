"""A path git renamed is fixed in every file that names it, in one proposal; a finding about a file
CLAUDE.md imports is reported for a person, never written; rationales say what was found in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.apply import apply_plan
from consolidate.audit import audit
from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.synthesize import synthesize
from consolidate.models import DiscoveryReport
from consolidate.runs import journal_dir, write_scope
from consolidate.settings import Settings, load_settings
from tests.helpers import gitrepo


@pytest.fixture
def renamed(git_repo: gitrepo.GitRepo, tmp_path: Path) -> Settings:
    git_repo.write("scripts/deploy.sh", "#!/bin/sh\necho deploy\n")
    git_repo.write("src/app.py", "def main():\n    return 0\n")
    git_repo.commit("Initial", date="2026-01-05T10:00:00+00:00")
    git_repo.git("mv", "scripts/deploy.sh", "scripts/release.sh")
    git_repo.commit("Rename the deploy script", date="2026-02-01T10:00:00+00:00")
    git_repo.write("CLAUDE.md", "# Guide\n\n- Ship with `scripts/deploy.sh --prod`.\n\n@AGENTS.md\n")
    git_repo.write("AGENTS.md", "# Agents\n\n- Never edit `src/app.py` by hand; run `scripts/deploy.sh`.\n")
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text(
        "# Project Memory\n\n- **When releasing:** run `scripts/deploy.sh --prod` first. → [release](release.md)\n"
    )
    (memory / "release.md").write_text("# Release\n\nThe release runs `./scripts/deploy.sh --prod --tag`.\n")
    return load_settings(git_repo.path, memory_dir=memory, home=tmp_path / "cfg")


def _plan(settings: Settings):  # type: ignore[no-untyped-def]
    snapshot = orient(settings, create=False)
    report = audit(settings, tree=snapshot.tree)
    gathered = GatherResult(audit=report, discovery=DiscoveryReport())
    return synthesize(snapshot, gathered, engine="test")


def test_a_renamed_path_is_fixed_in_every_file_in_one_proposal(renamed: Settings) -> None:
    synthesis = _plan(renamed)
    stale = [p for p in synthesis.plan.proposals if p.category == "STALE"]
    assert len(stale) == 1
    [proposal] = stale
    assert {c.file for c in proposal.changes} == {
        "MEMORY.md",
        "release.md",
        str(renamed.layout.project_claude_md),
    }
    assert "fixed in" in proposal.summary and "scripts/deploy.sh" in proposal.summary
    assert "Jaccard" not in proposal.rationale and "renamed" in proposal.rationale
    assert [e.quote for e in proposal.evidence] == [
        next(e.quote for e in proposal.evidence)
    ] and "Rename the deploy script" in proposal.evidence[0].quote
    assert any("AGENTS.md" in n and "read-only" in n for n in synthesis.notes)
    report = apply_plan(
        synthesis.plan, write_scope(renamed), only=[proposal.id], journal_dir=journal_dir(renamed)
    )
    assert report.ok
    for path in (
        renamed.memory_dir / "MEMORY.md",
        renamed.memory_dir / "release.md",
        renamed.layout.project_claude_md,
    ):
        text = path.read_text()
        assert "scripts/release.sh" in text and "scripts/deploy.sh" not in text
    assert (
        "scripts/deploy.sh" in (renamed.layout.project / "AGENTS.md").read_text()
    )  # imported: never written
