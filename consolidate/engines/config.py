"""Settings shared by the LLM engines, with environment overrides.

| variable | default | meaning |
|---|---|---|
| `CONSOLIDATE_MODEL` | the agent's `model` | model alias or id for both agents |
| `CONSOLIDATE_TIMEOUT` | 300 | seconds one API request may take |
| `CONSOLIDATE_AGENT_TIMEOUT` | 1800 | seconds one whole agent run may take |
| `CONSOLIDATE_MAX_RETRIES` | 2 | retries of a failed request (429, 5xx, connection errors) |
| `CONSOLIDATE_MAX_TOKENS` | 16000 | output tokens per response (anthropic engine) |
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..errors import UsageError


@dataclass(frozen=True)
class EngineConfig:
    model: str = ""
    timeout: float = 300.0
    agent_timeout: float = 1800.0
    max_retries: int = 2
    max_tokens: int = 16_000
    max_turns: int | None = None  # None: the agent definition's maxTurns

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> EngineConfig:
        values = os.environ if env is None else env
        config = cls(
            model=values.get("CONSOLIDATE_MODEL", ""),
            timeout=_number(values, "CONSOLIDATE_TIMEOUT", 300.0),
            agent_timeout=_number(values, "CONSOLIDATE_AGENT_TIMEOUT", 1800.0),
            max_retries=int(_number(values, "CONSOLIDATE_MAX_RETRIES", 2)),
            max_tokens=int(_number(values, "CONSOLIDATE_MAX_TOKENS", 16_000)),
        )
        return replace(config, **overrides)  # type: ignore[arg-type]


def _number(values: Mapping[str, str], name: str, default: float) -> float:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    try:
        number = float(raw)
    except ValueError:
        raise UsageError(f"{name} must be a number, not {raw!r}") from None
    if number < 0:
        raise UsageError(f"{name} must not be negative")
    return number
