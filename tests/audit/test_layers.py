"""Every layer is audited: MEMORY.md, clusters and topic files, both CLAUDE.md files and what they
import with `@path` (recursively, each file once), with or without MEMORY.md; the counts add up."""

from __future__ import annotations

from pathlib import Path

from consolidate.audit import audit_tree
from consolidate.gitrepo import GitRepo
from consolidate.imports import import_targets, resolve_imports
from consolidate.models import AuditReport
from memory_layout import load_memory_tree
from tests.audit.conftest import Project


def _audit(project: Project, claude_md: Path | None, user_md: Path | None = None) -> AuditReport:
    return audit_tree(
        load_memory_tree(project.memory),
        project_root=project.repo.path,
        repo=GitRepo.find(project.repo.path),
        project_claude_md=claude_md,
        user_claude_md=user_md,
    )


def _adds_up(report: AuditReport) -> None:
    assert sum(f.units for f in report.files) == report.entries_audited
    assert sum(f.findings for f in report.files) == len(report.findings)


def test_imports_are_found_outside_code_only() -> None:
    text = "@AGENTS.md\nSee @docs/rules.md and `@not/this.md`.\n```\n@nor/this.md\n```\nmail me@x.org\n"
    assert import_targets(text) == [(1, "AGENTS.md"), (2, "docs/rules.md")]


def test_imports_are_followed_recursively_once_and_within_the_allowed_roots(tmp_path: Path) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / "docs").mkdir(parents=True)
    outside.mkdir()
    (repo / "CLAUDE.md").write_text("@AGENTS.md\n")
    (repo / "AGENTS.md").write_text("@docs/rules.md\n@CLAUDE.md\n@../outside/secret.md\n")
    (repo / "docs" / "rules.md").write_text("@../AGENTS.md\n- a rule\n")
    (outside / "secret.md").write_text("- not ours\n")
    found = resolve_imports(repo / "CLAUDE.md", [repo])
    assert [(i.path.relative_to(repo).as_posix(), i.depth) for i in found] == [
        ("AGENTS.md", 1),
        ("docs/rules.md", 2),
    ]


def test_without_memory_md_the_project_claude_md_and_its_imports_are_audited(project: Project) -> None:
    claude = project.repo.write("CLAUDE.md", "# Guide\n\n@AGENTS.md\n")
    agents = project.repo.write(
        "AGENTS.md",
        "# Agents\n\n- `src/shop/handlers.py` registers every route.\n"
        "- Deploy with `src/shop/legacy.py --now`.\n- `src/shop/orders.py` places orders.\n",
    )
    report = _audit(project, claude)
    assert "no MEMORY.md" in report.notes[0]
    stale = [f for f in report.findings if f.category == "STALE"]
    assert [(Path(f.file).name, f.line) for f in stale] == [("AGENTS.md", 3), ("AGENTS.md", 4)]
    assert stale[0].replacement == "- `src/shop/routes.py` registers every route."
    files = {Path(f.file).name: f for f in report.files}
    assert files["AGENTS.md"].imported_by == str(claude) and files["AGENTS.md"].units == 3
    assert files["AGENTS.md"].layer == "L1" and files["AGENTS.md"].findings == 2
    assert str(agents) in {f.file for f in report.files}
    _adds_up(report)


def test_counts_add_up_across_every_layer(project: Project, tmp_path: Path) -> None:
    project.write_memory(
        "# Project Memory\n\n- **When billing:** totals. → [billing](billing.md)\n"
        "- `src/shop/legacy.py` computes the old tax.\n- Write clean code.\n"
    )
    project.write_memory("# Billing\n\n`InvoiceService.total` sums lines.\n", "billing.md")
    claude = project.repo.write("CLAUDE.md", "# Guide\n\n- Run `npm test` before pushing.\n")
    user = tmp_path / "cfg" / "CLAUDE.md"
    user.parent.mkdir()
    user.write_text("# Me\n\n- Answer tersely, yesterday's rule.\n")
    report = _audit(project, claude, user)
    layers = {(Path(f.file).name, f.layer): f.units for f in report.files}
    assert layers == {
        ("MEMORY.md", "L2"): 3,
        ("billing.md", "L3"): 1,
        ("CLAUDE.md", "L1"): 1,
        ("CLAUDE.md", "L0"): 1,
    }
    assert report.entries_audited == 6
    assert {f.category for f in report.findings} >= {"STALE", "LOW-VALUE", "DATE_FIX"}
    _adds_up(report)


def test_a_memory_link_to_a_project_file_is_not_dangling(project: Project) -> None:
    project.repo.write("docs/guide.md", "# Guide\n")
    project.entries("Read the [guide](docs/guide.md) first.", "[gone](docs/gone.md)")
    hygiene = [f for f in project.findings("HYGIENE") if "dangling" in f.evidence]
    assert [f.entry for f in hygiene] == ["- [gone](docs/gone.md)"]


def test_numbered_steps_are_never_merged_and_removed_only_with_their_whole_list(project: Project) -> None:
    steps = "1. Claude makes the final commit on the branch\n2. User merges the branch to main\n3. User pushes main\n"
    project.write_memory(
        "# Memory\n\n## Release\n\n1. Update the changelog with the result\n"
        "2. User merges branch to main (Claude cannot merge)\n\n## Merge workflow\n\n"
        + steps
        + "\nThe same again:\n\n"
        + steps
        + "\n## Other\n\n- User merges the branch to main\n"
    )
    findings = project.findings()
    assert not [f for f in findings if f.action == "MERGE"]
    assert [f.line for f in findings if f.action == "REMOVE"] == [
        16,
        17,
        18,
    ]  # the duplicated list goes whole


def test_an_entry_claude_md_says_with_another_value_is_a_contradiction_not_a_removal(
    project: Project,
) -> None:
    claude = project.repo.write(
        "CLAUDE.md", "# Guide\n\n- `use_vision` (default: `auto`): vision mode for every step of the agent\n"
    )
    project.entries("`use_vision` (default: `True`): vision mode for every step of the agent")
    [finding] = [f for f in project.audit(claude).findings if f.entry.startswith("- `use_vision`")]
    assert (finding.category, finding.action) == ("CONTRADICT", "NONE")
    assert "`True`" in finding.evidence and "CLAUDE.md:3" in finding.fact


def test_a_version_suffix_that_changed_is_another_value(project: Project) -> None:
    claude = project.repo.write(
        "CLAUDE.md", "# Guide\n\n- Bump the version, use `X.Y.Z-dev0` for multi-step work\n"
    )
    project.entries("Bump the version, use `X.Y.Z-dev` for multi-step work")
    assert [f.category for f in project.audit(claude).findings] == ["CONTRADICT"]


def test_the_team_memory_folder_is_not_followed_as_an_import(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".claude" / "team-memory").mkdir(parents=True)
    (repo / "CLAUDE.md").write_text("@AGENTS.md\n@.claude/team-memory/MEMORY.md\n")
    (repo / "AGENTS.md").write_text("- a rule\n")
    (repo / ".claude" / "team-memory" / "MEMORY.md").write_text("- a shared rule\n")
    found = resolve_imports(repo / "CLAUDE.md", [repo], skip=[repo / ".claude" / "team-memory"])
    assert [i.path.name for i in found] == ["AGENTS.md"]
