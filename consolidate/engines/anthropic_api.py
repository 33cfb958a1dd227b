"""The `anthropic` engine: each agent is a Messages API conversation with our own read-only tools.

The model gets the agent definition's body as its system prompt, the rendered task as the first user
message, and four tools that only read, sandboxed to the project and its memory dir (`sandbox.py`).
Structured output: every request carries `output_config.format` (the report's JSON schema), so the
final text answer is the report; on the last allowed turn tools are switched off (`tool_choice: none`)
and the model is told to answer. A response cut at `max_tokens`, a run out of turns, an API error, a
timeout or a refusal is an `EngineFailure` with one line saying which.
"""

from __future__ import annotations

from typing import Any

from ..models import Usage
from .agents import AgentSpec, load_agent
from .base import AUDITOR, DISCOVERER, AgentOutput, AgentTask, Engine, EngineFailure
from .config import EngineConfig
from .pricing import add_response_usage, model_id
from .prompts import render, task_prompt
from .sandbox import TOOL_SCHEMAS, ProjectTools
from .schema import report_schema


class AnthropicEngine(Engine):
    name = "anthropic"

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config or EngineConfig.from_env()
        self.specs = {agent: load_agent(agent) for agent in (AUDITOR, DISCOVERER)}

    def unavailable(self) -> str | None:
        import os

        if os.environ.get("ANTHROPIC_API_KEY") or os.environ.get("ANTHROPIC_AUTH_TOKEN"):
            return None
        return "the anthropic engine has no API credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)"

    async def run_agent(self, task: AgentTask) -> AgentOutput:
        import anthropic

        spec = self.specs[task.agent]
        client = anthropic.AsyncAnthropic(max_retries=self.config.max_retries, timeout=self.config.timeout)
        try:
            return await _Conversation(self.config, spec, task, client).run()
        except anthropic.APITimeoutError:
            raise EngineFailure(
                f"{task.agent}: the API did not answer within {self.config.timeout:g} s"
            ) from None
        except anthropic.APIStatusError as exc:
            raise EngineFailure(f"{task.agent}: API error {exc.status_code}: {_api_message(exc)}") from None
        except anthropic.APIConnectionError as exc:
            raise EngineFailure(f"{task.agent}: cannot reach the API ({exc})") from None
        except anthropic.AnthropicError as exc:
            raise EngineFailure(f"{task.agent}: {exc}") from None
        except TypeError as exc:
            if "authentication" not in str(exc):
                raise
            raise EngineFailure(
                f"{task.agent}: no API credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)"
            ) from None
        finally:
            await client.close()


class _Conversation:
    """One agent's tool loop: request, run the tools it asks for, until it answers or runs out."""

    def __init__(self, config: EngineConfig, spec: AgentSpec, task: AgentTask, client: Any) -> None:
        self.config, self.spec, self.task, self.client = config, spec, task, client
        self.max_turns = config.max_turns or spec.max_turns
        self.model = model_id(config.model or spec.model or "sonnet")
        layout = task.snapshot.settings.layout
        self.tools = ProjectTools(layout.git_root or layout.project, (layout.memory_dir,))
        self.usage = Usage()
        self.messages: list[dict[str, Any]] = [{"role": "user", "content": task_prompt(task)}]

    async def run(self) -> AgentOutput:
        for turn in range(1, self.max_turns + 1):
            final = turn == self.max_turns
            response = await self.client.messages.create(**self._request(final))
            add_response_usage(self.usage, response.usage, getattr(response, "model", "") or self.model)
            self._report_progress(turn)
            if response.stop_reason == "max_tokens":
                raise EngineFailure(
                    f"{self.task.agent}: output truncated at {self.config.max_tokens} tokens (turn {turn})"
                )
            if response.stop_reason == "refusal":
                raise EngineFailure(f"{self.task.agent}: the model refused the task")
            uses = [block for block in response.content if block.type == "tool_use"]
            if not uses:
                text = "".join(block.text for block in response.content if block.type == "text")
                return AgentOutput(text, self.usage)
            if final:
                break
            self._continue(response.content, uses, last_turn_next=turn + 1 == self.max_turns)
        raise EngineFailure(
            f"{self.task.agent}: reached the maximum number of turns ({self.max_turns}) without a report"
        )

    def _request(self, final: bool) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.config.max_tokens,
            "system": self.spec.prompt,
            "messages": self.messages,
            "tools": TOOL_SCHEMAS,
            "output_config": {"format": {"type": "json_schema", "schema": report_schema(self.task.agent)}},
            "cache_control": {"type": "ephemeral"},  # every turn resends the conversation: cache it
        }
        if final:
            request["tool_choice"] = {"type": "none"}
        return request

    def _continue(self, content: list[Any], uses: list[Any], *, last_turn_next: bool) -> None:
        self.messages.append({"role": "assistant", "content": [_plain(block) for block in content]})
        results: list[dict[str, Any]] = []
        for use in uses:
            text, is_error = self.tools.call(use.name, use.input if isinstance(use.input, dict) else {})
            results.append(
                {"type": "tool_result", "tool_use_id": use.id, "content": text, "is_error": is_error}
            )
        if last_turn_next:
            nudge = render(
                "final-turn.j2", turns=self.max_turns - 1, max_turns=self.max_turns, agent=self.task.agent
            )
            results.append({"type": "text", "text": nudge})
        self.messages.append({"role": "user", "content": results})

    def _report_progress(self, turn: int) -> None:
        if self.task.progress is not None:
            self.task.progress(f"{self.task.agent} turns", turn, self.max_turns)


def _plain(block: Any) -> dict[str, Any]:
    """A response content block as request JSON (thinking signatures and tool ids kept)."""
    data: dict[str, Any] = block.model_dump(mode="json", exclude_none=True)
    return data


def _api_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
    return str(getattr(exc, "message", "") or exc)
