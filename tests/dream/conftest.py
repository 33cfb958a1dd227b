from __future__ import annotations

import sys
from pathlib import Path

import pytest

from consolidate.settings import Settings, load_settings

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def example(tmp_path: Path):  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(EXAMPLES))
    try:
        from example_project import build_example
    finally:
        sys.path.remove(str(EXAMPLES))
    return build_example(tmp_path / "ex")


@pytest.fixture
def settings(example) -> Settings:  # type: ignore[no-untyped-def]
    return load_settings(example.project, home=example.claude_home)
