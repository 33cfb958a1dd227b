"""Opt-in: one dream gather against the real Messages API (CONSOLIDATE_REAL_API=1 and a real key).
CI never sets it; the autouse fixture otherwise points every client at a closed port."""

from __future__ import annotations

import asyncio
import os

import pytest

from consolidate.dream.gather import gather
from consolidate.engines.anthropic_api import AnthropicEngine
from consolidate.engines.config import EngineConfig

REAL_KEY = os.environ.get("ANTHROPIC_API_KEY", "")
REAL_URL = os.environ.get("ANTHROPIC_BASE_URL", "")


@pytest.mark.real_api
def test_anthropic_engine_on_the_example(snapshot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    if not REAL_KEY:
        pytest.fail("CONSOLIDATE_REAL_API=1 needs a real ANTHROPIC_API_KEY in the environment")
    monkeypatch.setenv("ANTHROPIC_API_KEY", REAL_KEY)
    if REAL_URL:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", REAL_URL)
    else:
        monkeypatch.delenv("ANTHROPIC_BASE_URL")
    result = asyncio.run(gather(AnthropicEngine(EngineConfig.from_env(max_turns=30)), snapshot))
    assert not result.failures, result.failures
    assert result.audit is not None and result.audit.usage.input_tokens > 0
    assert result.discovery is not None and result.discovery.usage.cost_usd > 0
