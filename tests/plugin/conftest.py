from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakeapi.server import FakeMessagesAPI, cli_env

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli() -> str:
    import claude_agent_sdk

    return str(Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude")


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch, isolated_env: Path) -> Iterator[FakeMessagesAPI]:
    with FakeMessagesAPI() as api:
        for key, value in cli_env(api, str(isolated_env)).items():
            monkeypatch.setenv(key, value)
        monkeypatch.setenv("CONSOLIDATE_CHILD", "1")  # the plugin's own hooks stay quiet in these sessions
        monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        yield api
