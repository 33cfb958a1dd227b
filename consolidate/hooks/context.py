"""Everything a hook handler needs, resolved once from the payload and the environment."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from ..capture.config import Config, load_config
from ..capture.places import claude_home, repo_root, state_root, transcripts_dir
from .dedup import SAFE_ID

TYPE_CHECKING = False  # not `typing`: every hook imports this module
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


class HookContext:
    def __init__(
        self, event: str, payload: dict[str, Any], env: Mapping[str, str], now: datetime | None = None
    ) -> None:
        self.event = event
        self.payload = payload
        self.env = env
        self.now = datetime.now(UTC) if now is None else now

    @cached_property
    def home(self) -> Path:
        return claude_home(None, self.env)

    @cached_property
    def state_dir(self) -> Path:
        return state_root(self.home, self.env)

    @cached_property
    def project_dir(self) -> str:
        """Where the session started (`$CLAUDE_PROJECT_DIR`); the cwd moves when the agent cds around."""
        return str(self.env.get("CLAUDE_PROJECT_DIR") or self.payload.get("cwd") or os.getcwd())

    @cached_property
    def cwd(self) -> str:
        """The directory relative tool paths are resolved against."""
        return str(self.payload.get("cwd") or self.project_dir)

    @cached_property
    def project(self) -> Path:
        """The repository's main checkout: the key of the queue bucket and of the lesson store."""
        return repo_root(self.project_dir)

    @cached_property
    def transcripts_dir(self) -> Path:
        """The live transcript's folder, else the one Claude Code derives from the project dir."""
        live = self.transcript_path
        return live.parent if live is not None else transcripts_dir(self.home, self.project_dir)

    @cached_property
    def config(self) -> Config:
        return load_config(self.state_dir, self.project)

    @property
    def session_id(self) -> str:
        value = str(self.payload.get("session_id") or "")
        return value if SAFE_ID.match(value) else ""

    @property
    def context_id(self) -> str:
        """Whose context window a lesson lands in: the session's, or a subagent's own (a fresh one)."""
        agent = str(self.payload.get("agent_id") or "")
        if self.session_id and agent and SAFE_ID.match(agent):
            return f"{self.session_id}.{agent}"
        return self.session_id

    @property
    def transcript_path(self) -> Path | None:
        value = self.payload.get("transcript_path")
        return Path(value) if isinstance(value, str) and value else None
