"""The `claude-sdk` engine: each agent is one Claude Code run through claude-agent-sdk's `query()`.

The run is the agent itself (`--agent NAME` with the definition from `agents/NAME.md` passed as an
`AgentDefinition`): its body is the system prompt, its read-only tools the exact toolset, plus the CLI's
`StructuredOutput` tool that returns the report as JSON matching the schema. Isolation: no user,
project or local settings (so no hooks and no CLAUDE.md of the project are loaded), no transcript
written, `CONSOLIDATE_CHILD=1` so our own hooks stay quiet, prompts passed verbatim. A PreToolUse hook
denies any call outside the read-only set. claude_agent_sdk is imported only when an agent runs.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..models import Usage
from .agents import WRITE_TOOLS, AgentSpec, load_agent
from .base import AUDITOR, DISCOVERER, AgentOutput, AgentTask, Engine, EngineFailure
from .config import EngineConfig
from .guard import deny_reason
from .prompts import task_prompt
from .schema import report_schema

STRUCTURED_OUTPUT = "StructuredOutput"
DENIED_TOOLS = sorted(
    {*WRITE_TOOLS - {"Bash"}, "WebFetch", "WebSearch", "TodoWrite", "Skill", "SlashCommand"}
)
MAX_LINE_BYTES = 16 * 1024 * 1024


class ClaudeSdkEngine(Engine):
    name = "claude-sdk"

    def __init__(self, config: EngineConfig | None = None, cli_path: str | None = None) -> None:
        self.config = config or EngineConfig.from_env()
        self.cli_path = cli_path or os.environ.get("CONSOLIDATE_CLAUDE_CLI") or None
        self.specs = {agent: load_agent(agent) for agent in (AUDITOR, DISCOVERER)}

    def unavailable(self) -> str | None:
        if self.cli_path is None and find_cli() is None:
            return (
                "the claude-sdk engine finds no Claude Code CLI: install claude-agent-sdk's platform wheel, "
                "put `claude` on PATH, or set CONSOLIDATE_CLAUDE_CLI"
            )
        if not has_credentials(os.environ):
            return "the claude-sdk engine has no credentials: set ANTHROPIC_API_KEY, or log in with `claude`"
        return None

    async def run_agent(self, task: AgentTask) -> AgentOutput:
        import claude_agent_sdk as sdk

        run = AgentRun(self, self.specs[task.agent], task)
        try:
            async with asyncio.timeout(self.config.agent_timeout):
                result = await run.collect(sdk)
        except TimeoutError:
            raise EngineFailure(f"{task.agent}: no report within {self.config.agent_timeout:g} s") from None
        except sdk.CLINotFoundError as exc:
            raise EngineFailure(
                f"{task.agent}: the Claude Code CLI was not found ({exc}); install claude-agent-sdk's "
                "platform wheel, put `claude` on PATH, or set CONSOLIDATE_CLAUDE_CLI"
            ) from None
        except sdk.ResultError:
            result = run.result  # the error result arrives before the exception
        except sdk.ProcessError as exc:
            tail = " | ".join(run.stderr) or exc.stderr or ""
            raise EngineFailure(
                f"{task.agent}: the Claude Code CLI exited with {exc.exit_code}: {tail}"
            ) from None
        except sdk.ClaudeSDKError as exc:
            raise EngineFailure(f"{task.agent}: {type(exc).__name__}: {exc}") from None
        return _output(task.agent, result, run.max_turns)


CREDENTIAL_ENV = (
    "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
)  # fmt: skip


def find_cli() -> str | None:
    """The CLI the SDK would start: the one bundled in its wheel, else `claude` on PATH."""
    import importlib.util
    import shutil

    spec = importlib.util.find_spec("claude_agent_sdk")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "_bundled" / "claude"
        if bundled.is_file():
            return str(bundled)
    return shutil.which("claude")


def has_credentials(env: Mapping[str, str]) -> bool:
    """An API key or token in the environment, or a `claude` login (macOS keeps it in the keychain)."""
    import sys

    from memory_layout.paths import claude_home

    if any(env.get(name) for name in CREDENTIAL_ENV) or sys.platform == "darwin":
        return True
    return (claude_home(None, env) / ".credentials.json").is_file()


class AgentRun:
    """The options for one agent's CLI run, and what it sends back."""

    def __init__(self, engine: ClaudeSdkEngine, spec: AgentSpec, task: AgentTask) -> None:
        self.engine, self.spec, self.task = engine, spec, task
        self.stderr: deque[str] = deque(maxlen=20)  # the CLI's last words, for a failure message
        layout = task.snapshot.settings.layout
        self.cwd = layout.git_root or layout.project
        self.roots = [Path(self.cwd), layout.memory_dir]
        self.tools = [*spec.tool_names, STRUCTURED_OUTPUT]
        self.max_turns = engine.config.max_turns or spec.max_turns
        self.result: Any = None
        self.responses: set[Any] = set()

    async def collect(self, sdk: Any) -> Any:
        async for message in sdk.query(prompt=task_prompt(self.task), options=self.options(sdk)):
            if isinstance(message, sdk.AssistantMessage) and message.parent_tool_use_id is None:
                self._progress(message)
            elif isinstance(message, sdk.ResultMessage):
                self.result = message
        return self.result

    def options(self, sdk: Any) -> Any:
        config = self.engine.config
        return sdk.ClaudeAgentOptions(
            cwd=str(self.cwd),
            agents={self.spec.name: self.spec.to_definition(extra_tools=(STRUCTURED_OUTPUT,))},
            tools=self.tools,
            disallowed_tools=DENIED_TOOLS,
            add_dirs=[str(d) for d in self.roots[1:] if d.is_dir()],
            model=config.model or self.spec.model or None,
            max_turns=self.max_turns,
            setting_sources=[],
            env=self._env(),
            extra_args={"agent": self.spec.name, "no-session-persistence": None},
            verbatim_prompts=True,
            output_format={"type": "json_schema", "schema": report_schema(self.task.agent)},
            hooks={"PreToolUse": [sdk.HookMatcher(matcher=None, hooks=[self._guard])]},
            cli_path=self.engine.cli_path,
            stderr=self.stderr.append,
            max_buffer_size=MAX_LINE_BYTES,
        )

    def _env(self) -> dict[str, str]:
        config = self.engine.config
        return {
            "CONSOLIDATE_CHILD": "1",
            "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
            "API_TIMEOUT_MS": str(int(config.timeout * 1000)),
            "CLAUDE_CODE_MAX_RETRIES": str(config.max_retries),
        }

    async def _guard(
        self, hook_input: dict[str, Any], tool_use_id: str | None, context: Any
    ) -> dict[str, Any]:
        tool = str(hook_input.get("tool_name", ""))
        arguments = hook_input.get("tool_input")
        reason = deny_reason(tool, arguments if isinstance(arguments, dict) else {}, self.tools, self.roots)
        if reason is None:
            return {}
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }

    def _progress(self, message: Any) -> None:
        """One turn per API response; the CLI sends one AssistantMessage per content block."""
        key = message.message_id or id(message)
        if key in self.responses:
            return
        self.responses.add(key)
        if self.task.progress is not None:
            self.task.progress(f"{self.task.agent} turns", len(self.responses), self.max_turns)


def _output(agent: str, result: Any, max_turns: int) -> AgentOutput:
    if result is None:
        raise EngineFailure(f"{agent}: the Claude Code run ended without a result")
    if result.is_error or result.subtype != "success":
        raise EngineFailure(f"{agent}: {_describe_error(result, max_turns)}")
    data = result.structured_output if result.structured_output is not None else (result.result or "")
    return AgentOutput(data, usage_of(result))


def _describe_error(result: Any, max_turns: int) -> str:
    if result.subtype == "error_max_turns":
        return f"reached the maximum number of turns ({max_turns}) without a report"
    status = getattr(result, "api_error_status", None)
    text = (result.result or "").strip() or "; ".join(str(e) for e in (result.errors or []))
    if status:
        return f"API error {status}: {text.removeprefix(f'API Error: {status} ')}"
    if "Not logged in" in text:
        return f"{text} (set ANTHROPIC_API_KEY, or log in with `claude`)"
    if result.subtype == "success":
        return text or "the run failed without details"
    return f"{result.subtype}: {text or 'no details'}"


def usage_of(result: Any) -> Usage:
    """Tokens, cost, turns and model(s) of a Claude Code run, from its ResultMessage."""
    per_model: dict[str, dict[str, Any]] = result.model_usage or {}
    usage = Usage(
        cost_usd=float(result.total_cost_usd or 0.0),
        turns=int(result.num_turns or 0),
        model=", ".join(per_model),
    )
    if per_model:
        for counts in per_model.values():
            usage.input_tokens += int(counts.get("inputTokens", 0))
            usage.output_tokens += int(counts.get("outputTokens", 0))
            usage.cache_read_tokens += int(counts.get("cacheReadInputTokens", 0))
            usage.cache_write_tokens += int(counts.get("cacheCreationInputTokens", 0))
        return usage
    totals = result.usage or {}
    usage.input_tokens = int(totals.get("input_tokens", 0))
    usage.output_tokens = int(totals.get("output_tokens", 0))
    usage.cache_read_tokens = int(totals.get("cache_read_input_tokens", 0))
    usage.cache_write_tokens = int(totals.get("cache_creation_input_tokens", 0))
    return usage
