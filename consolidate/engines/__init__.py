"""Engines by name: `offline` (default), `claude-sdk`, `anthropic`, and the fakes `scripted:FILE`."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageError
from .base import AUDITOR, DISCOVERER, AgentOutput, AgentTask, Engine, EngineFailure

ENGINES = ("offline", "claude-sdk", "anthropic", "scripted:FILE")


def engine_name(explicit: str | None) -> str:
    return explicit or os.environ.get("CONSOLIDATE_ENGINE") or "offline"


def get_engine(name: str | None) -> Engine:
    """The engine called `name` (else `$CONSOLIDATE_ENGINE`, else offline)."""
    chosen = engine_name(name)
    if chosen == "offline":
        from .offline import OfflineEngine

        return OfflineEngine()
    if chosen.startswith("scripted:"):
        from .fakes import ScriptedEngine

        return ScriptedEngine.from_file(Path(chosen.removeprefix("scripted:")))
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
