"""The count that matters: secrets found anywhere on disk after hooks, tick, scan, snapshot, dream,
remember and learnings capture have read a generated corpus of every kind in every channel — 0."""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers.gitrepo import init_repo
from tests.reliability.secret_channels import CHANNELS, COMMAND_CHANNELS, measure
from tests.reliability.secret_corpus import plantings


def test_no_secret_reaches_the_disk(tmp_path: Path, claude_home: Path) -> None:
    repo = init_repo(tmp_path / "project")
    repo.write("CLAUDE.md", "# Project\n\n- Run `make test` before pushing.\n")
    repo.write("src/app.py", "print('hi')\n")
    repo.commit("init")
    secrets = plantings(seed=1)
    home = claude_home.parent
    roots = [home, repo.path, tmp_path / "work", Path(os.environ["XDG_DATA_HOME"])]
    (tmp_path / "work").mkdir()
    outcome = measure(claude_home, repo.path, secrets, tmp_path / "work", roots)
    assert outcome.plantings == len(secrets) * (len(CHANNELS) + len(COMMAND_CHANNELS)) >= 40 * 15
    assert outcome.files > 10  # the run really wrote its state, plan, memory and journal
    assert outcome.leaks == [], f"{len(outcome.leaks)} secrets on disk: {outcome.leaks[:20]}"
