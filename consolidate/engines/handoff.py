"""Hand the gather agents' tasks to a Claude Code session, for the plugin's skill.

`consolidate snapshot` runs phase 1 (read-only), renders each agent's task prompt into a run folder
and says where the agents' JSON reports should be saved. The skill starts the two plugin agents on
those task files, saves their answers there, and runs `consolidate dream --engine reports:<folder>`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..fsutil import atomic_write
from ..secrets import redact
from ..settings import Settings
from .base import AUDITOR, DISCOVERER, AgentTask
from .reports import STARTED_FILE


@dataclass
class Handoff:
    project: Path
    memory_dir: Path
    run_dir: Path
    auditor_skipped: bool
    tasks: dict[str, str]
    reports: dict[str, str]
    options: list[str] = field(default_factory=list)  # --claude-home / --memory-dir as given to snapshot

    def dream_command(self) -> str:
        """The dream that reads the agents' reports, with the same config dir and memory dir."""
        parts = ["consolidate", "dream", str(self.project), "--engine", f"reports:{self.run_dir}"]
        parts += [*self.options, "--plan-out", str(self.run_dir / "plan.json")]
        return shlex.join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "project": str(self.project),
            "memory_dir": str(self.memory_dir),
            "run_dir": str(self.run_dir),
            "auditor_skipped": self.auditor_skipped,
            "tasks": self.tasks,
            "reports": self.reports,
            "plan": str(self.run_dir / "plan.json"),
            "dream": self.dream_command(),
        }


def write_handoff(
    settings: Settings,
    since: datetime | None,
    queue_items: list[dict[str, Any]],
    run_dir: Path | None = None,
    *,
    given: dict[str, str | None] | None = None,
) -> Handoff:
    """Render the agents' tasks into `run_dir` (default: a new folder under our state dir). `given`
    holds the `--claude-home` / `--memory-dir` snapshot was run with: the dream command repeats them."""
    from ..dream.orient import orient
    from .prompts import task_prompt

    started = datetime.now(UTC)
    snapshot = orient(settings, create=False)
    folder = (run_dir or settings.run_dir("agents") / started.strftime("%Y%m%dT%H%M%SZ")).absolute()
    atomic_write(folder / STARTED_FILE, started.strftime("%Y-%m-%dT%H:%M:%SZ").encode())
    agents = [DISCOVERER] if snapshot.auditor_skipped else [AUDITOR, DISCOVERER]
    tasks: dict[str, str] = {}
    reports: dict[str, str] = {}
    for agent in agents:
        task = AgentTask(agent, snapshot, since, queue_items if agent == DISCOVERER else [])
        path = folder / f"{agent}.task.md"
        atomic_write(path, redact(task_prompt(task)).encode("utf-8", "replace"))
        tasks[agent], reports[agent] = str(path), str(folder / f"{agent}.json")
    layout = settings.layout
    options = [
        part
        for flag, value in (given or {}).items()
        if value
        for part in (flag, str(Path(value).expanduser().absolute()))
    ]
    return Handoff(
        layout.project, layout.memory_dir, folder, snapshot.auditor_skipped, tasks, reports, options
    )
