"""A project on which every doctor check passes; each test breaks one thing."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from consolidate.doctor import CHECKS, Check, run_doctor
from consolidate.hooks.install import hook_commands, install_hooks, package_dir, write_launcher
from consolidate.settings import Settings, load_settings
from tests.helpers.gitrepo import GitRepo, init_repo
from tests.helpers.memory import write_tree

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
MEMORY = {
    "MEMORY.md": "# Project Memory\n\n## Build\n- **When building:** run `make dist`. → [build](build.md)\n",
    "build.md": "---\nname: build\ndescription: how the dist archive is made\n---\n\nThe archive goes to dist/.\n",
}


@dataclass
class Setup:
    repo: GitRepo
    settings: Settings
    claude_home: Path

    @property
    def memory(self) -> Path:
        return self.settings.memory_dir

    def check(self, check_id: str, now: datetime = NOW) -> Check:
        """Run the one check (named like its function); it must report under that id."""
        (function,) = [f for f in CHECKS if f.__name__ == check_id.replace("-", "_")]
        (check,) = run_doctor(self.settings, now, (function,)).checks
        assert check.id == check_id
        return check

    def write_settings(self, settings: dict[str, object], where: Path | None = None) -> Path:
        path = where or self.claude_home / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings), encoding="utf-8")
        return path


@pytest.fixture
def setup(tmp_path: Path, claude_home: Path) -> Setup:
    repo = init_repo(tmp_path / "project")
    repo.write(".gitignore", ".env\n*.pem\n*.key\n")
    repo.write("CLAUDE.md", "# Project\n\n- Run `make test` before committing.\n")
    repo.commit("start")
    settings = load_settings(repo.path, home=claude_home)
    write_tree(settings.memory_dir, MEMORY)
    (settings.memory_dir / ".last-consolidation").write_text("2026-11-29T10:00:00Z\n")
    launcher = write_launcher(settings.state_dir)
    hooks, _ = install_hooks({}, hook_commands(launcher, sys.executable, package_dir()))
    result = Setup(repo, settings, claude_home)
    result.write_settings(hooks)
    return result
