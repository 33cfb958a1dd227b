"""Fake engines that ship with the package, selectable by name, so tests and demos can drive the
LLM code paths without a network: a scripted engine that pops one answer per call and fails clearly
when the script runs out, and a function engine that computes each answer."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ..models import Usage
from .base import AUDITOR, DISCOVERER, AgentOutput, AgentTask, Engine, EngineFailure

Answer = dict[str, Any] | str | Exception


class ScriptedEngine(Engine):
    """Answers from a script, per agent: `{"memory-auditor": [answer, …], "signal-discoverer": […]}`.

    An answer is a JSON object, raw text (to exercise invalid output), an exception to raise, or
    `{"sleep": seconds, "answer": …}` to exercise timing."""

    name = "scripted"

    def __init__(self, script: dict[str, list[Answer]]) -> None:
        self.script = {agent: deque(answers) for agent, answers in script.items()}
        self.calls: list[str] = []

    @classmethod
    def forever(cls, audit: Answer, discovery: Answer, times: int = 100) -> ScriptedEngine:
        """The same two answers for every call (up to `times`)."""
        return cls({AUDITOR: [audit] * times, DISCOVERER: [discovery] * times})

    @classmethod
    def from_file(cls, path: Path) -> ScriptedEngine:
        try:
            return cls(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            raise EngineFailure(f"cannot read the engine script {path}: {exc}") from None

    async def run_agent(self, task: AgentTask) -> AgentOutput:
        self.calls.append(task.agent)
        answers = self.script.get(task.agent)
        if not answers:
            raise EngineFailure(f"the scripted engine has no answer left for {task.agent}")
        answer = answers.popleft()
        if isinstance(answer, dict) and "sleep" in answer:
            await asyncio.sleep(float(answer["sleep"]))
            answer = answer.get("answer", {})
        if isinstance(answer, Exception):
            raise answer
        usage = Usage.model_validate(answer.get("usage", {})) if isinstance(answer, dict) else Usage()
        return AgentOutput(answer, usage)


class FunctionEngine(Engine):
    """Answers computed by `fn(task)`, sync or async."""

    name = "function"

    def __init__(self, fn: Callable[[AgentTask], Answer | Awaitable[Answer]]) -> None:
        self.fn = fn

    async def run_agent(self, task: AgentTask) -> AgentOutput:
        answer = self.fn(task)
        if asyncio.iscoroutine(answer):
            answer = await answer
        if isinstance(answer, Exception):
            raise answer
        return AgentOutput(answer)  # type: ignore[arg-type]


def _offline_with_usage(task: AgentTask) -> Awaitable[Answer]:
    """The offline engine's report, dressed as an LLM answer: JSON text plus token usage."""
    from .offline import OfflineEngine

    async def answer() -> Answer:
        output = await OfflineEngine().run_agent(task)
        report = dict(output.data) if isinstance(output.data, dict) else {}
        report["usage"] = {"input_tokens": 12_000, "output_tokens": 900, "cost_usd": 0.033, "turns": 4}
        report["usage"]["model"] = "fake-model"
        return report

    return answer()


# Named fakes for demos and tests: `--engine fake:NAME`.
FAKES: dict[str, Callable[[], Engine]] = {
    "empty": lambda: ScriptedEngine.forever({"findings": []}, {"candidates": []}),
    "invalid": lambda: ScriptedEngine.forever('{"findings": [', '{"candidates": [{"kind": '),
    "fail": lambda: ScriptedEngine.forever(
        EngineFailure("the fake model is unavailable"), EngineFailure("the fake model is unavailable")
    ),
    "offline-with-usage": lambda: FunctionEngine(_offline_with_usage),
}


def fake_engine(name: str) -> Engine:
    if name not in FAKES:
        raise EngineFailure(f"no fake engine {name!r} (choose from: {', '.join(sorted(FAKES))})")
    return FAKES[name]()
