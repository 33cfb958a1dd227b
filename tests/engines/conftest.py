from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from consolidate.dream.orient import Snapshot, orient
from consolidate.settings import Settings, load_settings
from tests.fakeapi.server import FakeMessagesAPI, cli_env

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_module():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(EXAMPLES))
    try:
        import example_project
    finally:
        sys.path.remove(str(EXAMPLES))
    return example_project


@pytest.fixture
def example(tmp_path: Path):  # type: ignore[no-untyped-def]
    return example_module().build_example(tmp_path / "ex")


@pytest.fixture
def transcript():  # type: ignore[no-untyped-def]
    """The example's transcript writer: `transcript(session, cwd, "2026-11-28T10:00")`."""
    return example_module().Transcript


@pytest.fixture
def settings(example) -> Settings:  # type: ignore[no-untyped-def]
    return load_settings(example.project, home=example.claude_home)


@pytest.fixture
def snapshot(settings: Settings) -> Snapshot:
    return orient(settings, create=False)


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch, isolated_env: Path) -> Iterator[FakeMessagesAPI]:
    """A fake Messages API with both clients pointed at it (the CLI kept offline, retries off)."""
    with FakeMessagesAPI() as api:
        for key, value in cli_env(api, str(isolated_env)).items():
            monkeypatch.setenv(key, value)
        monkeypatch.setenv("CONSOLIDATE_MAX_RETRIES", "0")
        yield api
