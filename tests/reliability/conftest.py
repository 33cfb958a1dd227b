from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.gitrepo import GitRepo, init_repo


@pytest.fixture
def repo(tmp_path: Path, claude_home: Path) -> GitRepo:
    """A committed git project in `tmp_path/proj`, with Claude's config dir in place."""
    repo = init_repo(tmp_path / "proj")
    repo.write("src/app.py", "print('hi')\n")
    repo.commit("init")
    return repo
