"""Phase 2, gather: the auditor and the discoverer run concurrently through one engine.

Their output is validated into the report models here, for every engine alike. An agent that fails,
returns nothing or returns something that does not validate is dropped with a note and the run goes on
with the other; when the discoverer fails, a deterministic scan of the most recent sessions stands in.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from ..engines.base import (
    AUDITOR,
    DISCOVERER,
    AgentName,
    AgentOutput,
    AgentTask,
    Engine,
    EngineFailure,
    Progress,
)
from ..models import AuditReport, DiscoveryReport, Usage
from ..secrets import redact
from .orient import Snapshot

FALLBACK_SESSIONS = 5
_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(?P<body>.*?)\n\s*```\s*$", re.DOTALL)


@dataclass
class GatherResult:
    audit: AuditReport | None = None
    discovery: DiscoveryReport | None = None
    failures: dict[str, str] = field(default_factory=dict)
    fallback: bool = False
    auditor_skipped: bool = False
    team_audit: AuditReport | None = None  # the team memory folder, audited offline like any layer

    @property
    def ran(self) -> bool:
        """Phase 2 produced something: the consolidation marker may be written."""
        return self.audit is not None or self.discovery is not None

    def usage(self) -> dict[str, Usage]:
        found = {AUDITOR: self.audit, DISCOVERER: self.discovery}
        return {name: report.usage for name, report in found.items() if report is not None}


def parse_output(agent: AgentName, output: AgentOutput) -> AuditReport | DiscoveryReport:
    """Validate one agent's output into its report model, or raise EngineFailure saying why."""
    data: Any = output.data
    if isinstance(data, str):
        text = data.strip()
        if not text:
            raise EngineFailure(f"{agent} returned empty output")
        fenced = _FENCE.match(text)
        try:
            data = json.loads(fenced["body"] if fenced else text)
        except json.JSONDecodeError as exc:
            raise EngineFailure(
                f"{agent} returned truncated or invalid JSON ({exc.msg} at char {exc.pos})"
            ) from None
        except RecursionError:
            raise EngineFailure(f"{agent} returned JSON nested too deeply to read") from None
    if not isinstance(data, dict):
        raise EngineFailure(f"{agent} returned {type(data).__name__}, not a JSON object")
    model = AuditReport if agent == AUDITOR else DiscoveryReport
    try:
        report = model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise EngineFailure(f"{agent} output does not match the schema: {where}: {first['msg']}") from None
    if output.usage.model_dump() != Usage().model_dump():
        report.usage = output.usage
    return report


async def _run(engine: Engine, task: AgentTask) -> AuditReport | DiscoveryReport | str:
    try:
        return parse_output(task.agent, await engine.run_agent(task))
    except EngineFailure as exc:
        return redact(str(exc))
    except Exception as exc:  # an engine bug must not take the run down
        return redact(f"{task.agent} failed: {type(exc).__name__}: {exc}")


async def gather(
    engine: Engine,
    snapshot: Snapshot,
    *,
    since: datetime | None = None,
    queue_items: list[dict[str, Any]] | None = None,
    progress: Progress | None = None,
    read_only: bool = False,
) -> GatherResult:
    """Both agents at once; `read_only` (a dry run) lets them keep no state of their own."""
    result = GatherResult(auditor_skipped=snapshot.auditor_skipped)
    tasks = [AgentTask(DISCOVERER, snapshot, since, list(queue_items or []), progress, read_only)]
    if not snapshot.auditor_skipped:
        tasks.append(AgentTask(AUDITOR, snapshot, since, [], progress, read_only))
    outcomes = await asyncio.gather(*(_run(engine, task) for task in tasks))
    for task, outcome in zip(tasks, outcomes, strict=True):
        if isinstance(outcome, str):
            result.failures[task.agent] = outcome
        elif isinstance(outcome, AuditReport):
            result.audit = outcome
        else:
            result.discovery = outcome
    if result.discovery is None:
        result.discovery = await asyncio.to_thread(_fallback, snapshot, queue_items or [], read_only)
        result.fallback = True
    if snapshot.team is not None:
        from ..team.audit import audit_team

        result.team_audit = await asyncio.to_thread(audit_team, snapshot)
    return result


def bare_reason(agent: str, reason: str) -> str:
    """A failure without the agent's name it starts with, for lines that name the agent themselves."""
    return reason.removeprefix(f"{agent}: ").removeprefix(f"{agent} failed: ")


def _fallback(snapshot: Snapshot, queue_items: list[dict[str, Any]], read_only: bool) -> DiscoveryReport:
    from ..discover import discover_recent

    known = [entry.text for entry in snapshot.known]
    return discover_recent(snapshot.settings, FALLBACK_SESSIONS, known, queue_items, save_state=not read_only)
