"""Claims as real files write them: scripts run with flags, shell blocks, prose class names, and the
rules that forbid — against a repository whose history deleted a script and a class."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.audit.conftest import Project
from tests.helpers import gitrepo


@pytest.fixture
def ops(git_repo: gitrepo.GitRepo, tmp_path: Path) -> Project:
    """scripts/deploy.sh and class RustcConfig committed, then the script deleted and RustcConfig
    dropped from types.rs (a notes file still tells its story)."""
    git_repo.write("scripts/deploy.sh", "#!/bin/sh\necho deploy\n")
    git_repo.write("scripts/check.sh", "#!/bin/sh\necho check\n")
    git_repo.write(
        "src/types.rs",
        "pub struct CargoConfig {}\npub struct RustcConfig {}\npub struct LinkerConfig {}\n",
    )
    git_repo.write("src/build.rs", "fn build(cfg: OldBuildOptions) {}\n")
    git_repo.commit("Initial tool", date="2026-01-05T10:00:00+00:00")
    git_repo.git("rm", "-q", "scripts/deploy.sh")
    git_repo.write("src/types.rs", "pub struct CargoConfig {}\npub struct LinkerConfig {}\n")
    git_repo.write("src/build.rs", "fn build(cfg: BuildOptions) {}\n")
    git_repo.write("notes/chores.md", "1. delete `RustcConfig`, rename `OldBuildOptions`\n")
    git_repo.commit("Drop the deploy script and RustcConfig", date="2026-02-10T10:00:00+00:00")
    memory = tmp_path / "memory"
    memory.mkdir()
    return Project(git_repo, memory)


def test_a_topic_file_running_a_deleted_script_with_flags_is_stale(ops: Project) -> None:
    ops.write_memory("# Project Memory\n\n- **When deploying:** see the steps. → [deploy](deploy.md)\n")
    ops.write_memory("# Deploy\n\nRun `scripts/deploy.sh --prod --region eu` from the root.\n", "deploy.md")
    [finding] = ops.findings("STALE")
    assert finding.file == "deploy.md"
    assert "scripts/deploy.sh was deleted in" in finding.evidence
    assert "Drop the deploy script and RustcConfig" in finding.evidence


def test_a_shell_block_running_a_deleted_script_is_stale(ops: Project) -> None:
    ops.write_memory("# Deploy\n\n```bash\n$ ./scripts/deploy.sh --prod\n```\n", "deploy.md")
    ops.write_memory("# Project Memory\n\n- **When deploying:** run the script. → [deploy](deploy.md)\n")
    assert [f.file for f in ops.findings("STALE")] == ["deploy.md"]


def test_a_class_removed_from_the_code_is_stale_though_notes_still_name_it(ops: Project) -> None:
    ops.entries("`types.rs` holds the spec types (CargoConfig, RustcConfig, LinkerConfig).")
    [finding] = ops.findings("STALE")
    assert "RustcConfig no longer occurs" in finding.evidence
    assert "Drop the deploy script and RustcConfig" in finding.evidence
    assert finding.action == "NONE"  # the other two names still hold: reported, not removed


def test_a_removed_symbol_with_a_replacement_on_the_same_line_becomes_an_edit(ops: Project) -> None:
    ops.entries("`build()` takes an `OldBuildOptions` value.")
    [finding] = ops.findings("STALE")
    assert finding.action == "EDIT"
    assert finding.replacement == "- `build()` takes an `BuildOptions` value."


def test_a_rule_that_forbids_is_not_stale_because_its_object_is_gone(ops: Project) -> None:
    ops.write_memory(
        "# Project Memory\n\n## Git operations Claude cannot perform\n\n"
        "Claude cannot perform these git operations:\n\n"
        "- Amending commits with `scripts/deploy.sh` changes\n"
        "- Never run `scripts/deploy.sh --prod` by hand\n"
    )
    assert ops.findings("STALE") == []


def test_a_script_that_still_exists_is_valid(ops: Project) -> None:
    ops.entries("Run `scripts/check.sh --all` before pushing.")
    assert ops.findings() == []
