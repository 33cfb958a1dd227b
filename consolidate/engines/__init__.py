"""Engines by name: `offline` (the default), `claude-sdk`, `anthropic`; `reports:…` for reports saved
by agents that ran elsewhere (the Claude Code plugin); and the fakes `scripted:FILE` and `fake:NAME`.

`--engine` wins, then `$CONSOLIDATE_ENGINE`, then `offline`. The LLM engines' modules (and the client
libraries they import lazily) load only when chosen.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageError
from .base import AUDITOR, DISCOVERER, AgentOutput, AgentTask, Engine, EngineFailure

ENGINES = ("offline", "claude-sdk", "anthropic", "reports:DIR", "scripted:FILE", "fake:NAME")


def engine_name(explicit: str | None) -> str:
    return explicit or os.environ.get("CONSOLIDATE_ENGINE") or "offline"


def get_engine(name: str | None) -> Engine:
    """The engine called `name` (else `$CONSOLIDATE_ENGINE`, else offline)."""
    chosen = engine_name(name)
    kind, _, argument = chosen.partition(":")
    if chosen == "offline":
        from .offline import OfflineEngine

        return OfflineEngine()
    if chosen == "claude-sdk":
        from .claude_sdk import ClaudeSdkEngine

        return ClaudeSdkEngine()
    if chosen == "anthropic":
        from .anthropic_api import AnthropicEngine

        return AnthropicEngine()
    if kind == "reports":
        from .reports import ReportsEngine

        return ReportsEngine.from_spec(argument)
    if kind == "scripted":
        from .fakes import ScriptedEngine

        return ScriptedEngine.from_file(Path(argument))
    if kind == "fake":
        from .fakes import FAKES, fake_engine

        if argument not in FAKES:
            raise UsageError(f"unknown fake engine {argument!r} (choose from: {', '.join(sorted(FAKES))})")
        return fake_engine(argument)
    raise UsageError(f"unknown engine {chosen!r} (choose from: {', '.join(ENGINES)})")


__all__ = [
    "AUDITOR",
    "DISCOVERER",
    "ENGINES",
    "AgentOutput",
    "AgentTask",
    "Engine",
    "EngineFailure",
    "get_engine",
]
