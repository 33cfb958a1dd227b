from __future__ import annotations

import pytest

from consolidate.settings import Settings, load_settings


@pytest.fixture
def settings(example) -> Settings:  # type: ignore[no-untyped-def]
    return load_settings(example.project, home=example.claude_home)
