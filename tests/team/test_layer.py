"""The team folder as a layer: found through git from any clone or worktree, in the write scope and
nothing else of the repository, audited by the dream, shown by status."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from consolidate.plan import PlanError
from consolidate.runs import write_scope
from consolidate.settings import load_settings
from consolidate.team.layer import imports_team
from memory_layout import resolve_layout
from tests.team.conftest import Clone, run


def test_a_linked_worktree_resolves_the_same_memory_and_its_own_team_folder(
    alice: Clone, tmp_path: Path
) -> None:
    worktree = tmp_path / "feature"
    alice.git("worktree", "add", "-q", str(worktree), "-b", "feature")
    (worktree / "src").mkdir(exist_ok=True)
    main = resolve_layout(alice.path, home=alice.home)
    linked = resolve_layout(worktree / "src", home=alice.home)
    assert linked.memory_dir == main.memory_dir
    assert (
        linked.git_root == worktree.resolve()
        and linked.team_dir == worktree.resolve() / ".claude/team-memory"
    )
    assert linked.project_claude_md == worktree.resolve() / "CLAUDE.md"
    assert linked.transcripts_dir != main.transcripts_dir  # sessions stay under the cwd's key


def test_a_second_clone_finds_the_team_folder_through_git(alice: Clone, bob: Clone) -> None:
    deep = bob.path / "src" / "app"
    assert resolve_layout(deep, home=bob.home).team_dir == bob.path.resolve() / ".claude/team-memory"
    assert (
        resolve_layout(alice.path, home=alice.home).team_dir == alice.path.resolve() / ".claude/team-memory"
    )


def test_the_write_scope_takes_the_team_folder_and_nothing_else_of_the_repository(
    alice: Clone, tmp_path: Path
) -> None:
    scope = write_scope(load_settings(alice.path, home=alice.home))
    team = alice.path.resolve() / ".claude" / "team-memory"
    assert scope.resolve(str(team / "x.md"), "P1") == team / "x.md"
    assert scope.resolve(str(team / "sub" / "y.md"), "P1") == team / "sub" / "y.md"
    for outside in (alice.path / "README.md", alice.path / ".claude" / "settings.md", team / "notes.txt"):
        with pytest.raises(PlanError):
            scope.resolve(str(outside), "P1")
    team.mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", team / "link")
    with pytest.raises(PlanError, match="outside the memory dir"):
        scope.resolve(str(team / "link" / "z.md"), "P1")


def test_a_team_folder_that_leads_out_of_the_repository_is_not_in_scope(alice: Clone, tmp_path: Path) -> None:
    (alice.path / ".claude").mkdir()
    (tmp_path / "outside").mkdir()
    os.symlink(tmp_path / "outside", alice.path / ".claude" / "team-memory")
    scope = write_scope(load_settings(alice.path, home=alice.home))
    with pytest.raises(PlanError):
        scope.resolve(str(alice.path / ".claude" / "team-memory" / "x.md"), "P1")


def test_the_import_line_is_recognised_outside_code_only() -> None:
    assert imports_team("- Shared: @.claude/team-memory/MEMORY.md\n")
    assert imports_team("See @./.claude/team-memory/MEMORY.md for more.")
    assert not imports_team("Run `cat @.claude/team-memory/MEMORY.md`.")
    assert not imports_team("```\n@.claude/team-memory/MEMORY.md\n```\n")
    assert not imports_team("mail me@.claude/team-memory/MEMORY.md")


def test_status_shows_the_team_layer(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "status", str(alice.path), "--claude-home", str(alice.home))
    assert code == 0 and "team memory: none yet" in out
    alice.team.mkdir(parents=True)
    (alice.team / "MEMORY.md").write_text(
        "# Team Memory\n\n- **When migrating:** wait for Monday. → [detail](staging.md)\n"
    )
    (alice.team / "staging.md").write_text("---\nname: s\nprovenance:\n  shared_by: Alice\n---\nWait.\n")
    code, out, _ = run(capsys, "status", str(alice.path), "--claude-home", str(alice.home), "--json")
    team = json.loads(out)["team"]
    assert team["exists"] and team["entries"] == 1 and team["topic_files"] == 1
    assert team["sharers"] == ["Alice"] and team["imported"] is False and team["index"]["lines"] == 3
    code, out, _ = run(capsys, "status", str(alice.path), "--claude-home", str(alice.home))
    assert (
        "team memory: 1 entries, 1 topic files, 3/200 lines (within budget), NOT imported by CLAUDE.md" in out
    )


def test_the_dream_audits_the_team_folder_and_fixes_a_renamed_path_there(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.team.mkdir(parents=True)
    index = "# Team Memory\n\n## Project\n- **When editing config:** settings live in `src/app/config.py`. → [detail](project_config.md)\n"
    (alice.team / "MEMORY.md").write_text(index)
    (alice.team / "project_config.md").write_text(
        "---\nname: config\n---\nSettings live in `src/app/config.py`.\n"
    )
    alice.commit_all("Team memory")
    alice.git("mv", "src/app/config.py", "src/app/settings.py")
    alice.git("commit", "-qm", "Rename config to settings")
    args = [str(alice.path), "--claude-home", str(alice.home)]
    code, out, err = run(capsys, "dream", *args, "--json", "--since", "2000-01-01")
    assert code == 0, err
    team_proposals = [p for p in json.loads(out)["proposals"] if p["layer"] == "team"]
    assert team_proposals and all(p["summary"].startswith("team memory: STALE") for p in team_proposals)
    files = {c["file"] for p in team_proposals for c in p["changes"]}
    assert files <= {str(alice.team.resolve() / "MEMORY.md"), str(alice.team.resolve() / "project_config.md")}
    assert run(capsys, "dream", *args, "--yes", "--since", "2000-01-01")[0] == 0
    assert "src/app/settings.py" in (alice.team / "MEMORY.md").read_text()
    assert "src/app/config.py" not in (alice.team / "MEMORY.md").read_text()


def test_consolidate_audit_reports_the_team_folder_too(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.team.mkdir(parents=True)
    (alice.team / "MEMORY.md").write_text(
        "# Team Memory\n\n- **When editing config:** settings live in `src/app/config.py`. → [detail](c.md)\n"
    )
    (alice.team / "c.md").write_text("---\nname: c\n---\nSettings live in `src/app/config.py`.\n")
    alice.commit_all("Team memory")
    alice.git("mv", "src/app/config.py", "src/app/settings.py")
    alice.git("commit", "-qm", "Rename config to settings")
    code, out, _ = run(capsys, "audit", str(alice.path), "--claude-home", str(alice.home), "--json")
    assert code == 0
    report = json.loads(out)
    stale = [f for f in report["findings"] if f["category"] == "STALE"]
    assert {f["file"] for f in stale} == {
        str(alice.team.resolve() / "MEMORY.md"),
        str(alice.team.resolve() / "c.md"),
    }
    assert any("team memory: 2 entries audited" in n for n in report["notes"])
