"""The `reports:` engine: the agents already ran elsewhere and saved their JSON reports.

This is how the Claude Code plugin hands its subagents' answers back to the CLI:
`reports:DIR` reads `DIR/memory-auditor.json` and `DIR/signal-discoverer.json`;
`reports:AUDIT.json,DISCOVERY.json` names the two files (auditor first; leave one side empty to skip it).
A missing or unreadable report is that agent's failure, handled like any other engine's. A report
saved with a sentence around its JSON object is cut down to the object.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ..errors import UsageError
from .base import AUDITOR, DISCOVERER, AgentName, AgentOutput, AgentTask, Engine, EngineFailure

MAX_REPORT_BYTES = 4 * 1024 * 1024
STARTED_FILE = "started_at"  # written by `consolidate snapshot` beside the agents' tasks


class ReportsEngine(Engine):
    name = "reports"

    def __init__(self, files: dict[AgentName, Path | None]) -> None:
        self.files = files

    def started_at(self) -> datetime | None:
        """The snapshot's time, saved beside the tasks: sessions after it were never shown to the agents."""
        for path in self.files.values():
            if path is None:
                continue
            try:
                text = (path.parent / STARTED_FILE).read_text(encoding="utf-8").strip()
                return datetime.fromisoformat(text.replace("Z", "+00:00"))
            except (OSError, ValueError):
                continue
        return None

    @classmethod
    def from_spec(cls, spec: str) -> ReportsEngine:
        """Parse what follows `reports:` — a directory, or `AUDIT.json,DISCOVERY.json`."""
        if not spec.strip():
            raise UsageError("reports: needs a directory or AUDIT.json,DISCOVERY.json")
        if "," not in spec:
            folder = Path(spec).expanduser()
            return cls({AUDITOR: folder / f"{AUDITOR}.json", DISCOVERER: folder / f"{DISCOVERER}.json"})
        audit, _, discovery = spec.partition(",")
        return cls({AUDITOR: _path(audit), DISCOVERER: _path(discovery)})

    async def run_agent(self, task: AgentTask) -> AgentOutput:
        path = self.files.get(task.agent)
        if path is None:
            raise EngineFailure(f"{task.agent}: no report given")
        try:
            if path.stat().st_size > MAX_REPORT_BYTES:
                raise EngineFailure(f"{task.agent}: the report {path} is over {MAX_REPORT_BYTES} bytes")
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise EngineFailure(f"{task.agent}: no report at {path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise EngineFailure(f"{task.agent}: cannot read the report {path}: {exc}") from None
        return AgentOutput(json_object_text(text))


def json_object_text(text: str) -> str:
    """The JSON object in `text`: as is when it starts like one (or a fence), else first `{` to last `}`."""
    stripped = text.strip()
    if stripped.startswith(("{", "```")) or "{" not in stripped:
        return stripped
    return stripped[stripped.index("{") : stripped.rindex("}") + 1]


def _path(value: str) -> Path | None:
    return Path(value.strip()).expanduser() if value.strip() else None
