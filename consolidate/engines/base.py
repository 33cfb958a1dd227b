"""The engine seam: one abstract method runs one gather agent and returns its raw output.

Everything around it — concurrency, validation into the report models, fallbacks, usage accounting — is
concrete code in `consolidate.dream.gather`, the same for every engine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from ..errors import ConsolidateError
from ..models import Usage

if TYPE_CHECKING:
    from ..dream.orient import Snapshot

AgentName = Literal["memory-auditor", "signal-discoverer"]
AUDITOR: AgentName = "memory-auditor"
DISCOVERER: AgentName = "signal-discoverer"
Progress = Callable[[str, int, int], None]  # (what, done, total)


class EngineFailure(ConsolidateError):
    """An agent run that produced no usable report: the gather phase falls back."""


@dataclass
class AgentTask:
    agent: AgentName
    snapshot: Snapshot
    since: datetime | None = None
    queue_items: list[dict[str, Any]] = field(default_factory=list)
    progress: Progress | None = None
    read_only: bool = False  # a dry run: the agent may keep no state of its own either


@dataclass
class AgentOutput:
    """A JSON object (or the text that should hold one) and what producing it cost."""

    data: dict[str, Any] | str
    usage: Usage = field(default_factory=Usage)


class Engine(ABC):
    name: str = "engine"

    def started_at(self) -> datetime | None:
        """When the agents began reading sessions, if that happened before this run (saved reports)."""
        return None

    def unavailable(self) -> str | None:
        """Why this engine cannot run at all here (no credentials, no CLI), or None."""
        return None

    @abstractmethod
    async def run_agent(self, task: AgentTask) -> AgentOutput:
        """Run one agent over the snapshot; raise EngineFailure when it cannot."""
