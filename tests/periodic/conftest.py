from __future__ import annotations

import json
from pathlib import Path

import pytest

from consolidate.engines import AUDITOR, DISCOVERER
from consolidate.settings import Settings, load_settings
from tests.dream.scripted import AUDIT, DISCOVERY


@pytest.fixture
def settings(example) -> Settings:  # type: ignore[no-untyped-def]
    return load_settings(example.project, home=example.claude_home)


def script_file(
    tmp_path: Path, audit=AUDIT, discovery=DISCOVERY, *, sleep: float = 0, times: int = 5
) -> Path:  # type: ignore[no-untyped-def]
    """An engine script answering every call alike (after `sleep` seconds, when given)."""
    answer_a = {"sleep": sleep, "answer": audit} if sleep else audit
    answer_d = {"sleep": sleep, "answer": discovery} if sleep else discovery
    path = tmp_path / f"script-{sleep}.json"
    path.write_text(json.dumps({AUDITOR: [answer_a] * times, DISCOVERER: [answer_d] * times}))
    return path


@pytest.fixture
def script(tmp_path: Path) -> str:
    return f"scripted:{script_file(tmp_path)}"
