"""Every test runs with HOME, the Claude config dir, the trash and our state isolated in tmp_path,
and with model requests pointed at a closed loopback port so nothing can reach a real API."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.helpers.example import build_example
from tests.helpers.gitrepo import GitRepo, init_repo


def pytest_configure(config: pytest.Config) -> None:
    # send2trash reads XDG_DATA_HOME once, at import: give the whole session its own trash.
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="consolidate-tests-data-")


def _session_trash() -> Path:
    return Path(os.environ["XDG_DATA_HOME"]) / "Trash"


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    shutil.rmtree(_session_trash(), ignore_errors=True)
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("CONSOLIDATE_STATE_DIR", str(home / ".consolidate-state"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    # A line synthesis writes that would break is a bug: make it fail the test instead of a quiet drop.
    monkeypatch.setenv("CONSOLIDATE_STRICT_LINES", "1")
    # Model requests may only reach fake servers the tests start themselves.
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    monkeypatch.delenv("CONSOLIDATE_ENGINE", raising=False)
    return home


@pytest.fixture
def claude_home(isolated_env: Path) -> Path:
    path = isolated_env / ".claude"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture
def example(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The example project: git history, a memory dir with planted problems, two sessions."""
    return build_example(tmp_path / "ex")


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """A real git repository with a user name and e-mail configured."""
    return init_repo(tmp_path / "project")


@pytest.fixture
def trash_dir(isolated_env: Path) -> Path:
    return _session_trash() / "files"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CONSOLIDATE_REAL_API") == "1":
        return
    skip = pytest.mark.skip(reason="real API calls are opt-in (CONSOLIDATE_REAL_API=1)")
    for item in items:
        if "real_api" in item.keywords:
            item.add_marker(skip)
