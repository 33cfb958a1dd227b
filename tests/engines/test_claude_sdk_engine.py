"""The claude-sdk engine end to end: the Claude Code CLI bundled with claude-agent-sdk, run against the
fake Messages API. Each gather starts two CLI processes at once, so these tests are few and broad."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from consolidate.dream.gather import GatherResult, gather
from consolidate.engines import AUDITOR, DISCOVERER, AgentTask
from consolidate.engines.claude_sdk import AgentRun, ClaudeSdkEngine, usage_of
from consolidate.engines.config import EngineConfig
from tests.fakeapi.server import Step, error, text, tool_use, tool_uses, truncated

AUDIT = {"findings": [{"category": "LOW-VALUE", "file": "MEMORY.md", "entry": "- Write clean code and keep functions small.", "action": "REMOVE", "confidence": 0.9}], "entries_audited": 32}  # fmt: skip
DISCOVERY = {"candidates": [{"kind": "correction", "principle": "add dependencies with `uv add`"}]}
AUDITOR_ROUTE, DISCOVERER_ROUTE = "memory auditor of a memory", "signal discoverer of a memory"


def _gather(snapshot, progress=None, **config) -> GatherResult:  # type: ignore[no-untyped-def]
    engine = ClaudeSdkEngine(EngineConfig.from_env(**config))
    return asyncio.run(gather(engine, snapshot, progress=progress))


def _tool_results(request: dict) -> list[dict]:  # type: ignore[type-arg]
    return [
        block
        for message in request["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]


def test_read_only_run_with_structured_output_and_usage(fake_api, snapshot, example) -> None:  # type: ignore[no-untyped-def]
    hooks = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "touch HOOK_FIRED"}]}]}}
    (example.project / ".claude").mkdir()
    (example.project / ".claude" / "settings.json").write_text(json.dumps(hooks))
    fake_api.script(
        AUDITOR_ROUTE,
        [
            tool_uses(
                ("Bash", {"command": "git log --oneline -5"}),
                ("Bash", {"command": "touch PWNED"}),
                ("Write", {"file_path": str(example.project / "WRITTEN"), "content": "x"}),
                ("Read", {"file_path": str(example.root / "outside.txt")}),
            ),
            tool_use("StructuredOutput", AUDIT, input_tokens=5000, output_tokens=700),
        ],
    )
    fake_api.script(DISCOVERER_ROUTE, [text('{"candidates": [{"kind": ')] * 3)
    progress: list[tuple[str, int, int]] = []
    result = _gather(snapshot, lambda what, done, total: progress.append((what, done, total)))

    assert result.audit is not None and result.audit.findings[0].category == "LOW-VALUE"
    assert "truncated or invalid JSON" in result.failures[DISCOVERER] and result.fallback
    for name in ("PWNED", "WRITTEN", "HOOK_FIRED"):
        assert not (example.project / name).exists()
    first, second = fake_api.requests_with(AUDITOR_ROUTE)
    assert {t["name"] for t in first["tools"]} - {"DeferredToolPlaceholder"} == {
        "Read", "Grep", "Glob", "Bash", "StructuredOutput"
    }  # fmt: skip
    assert first["model"] == "claude-sonnet-5-5"
    assert any("You are the memory auditor" in block["text"] for block in first["system"])
    outcomes = [
        r["content"] if isinstance(r["content"], str) else json.dumps(r["content"])
        for r in _tool_results(second)
    ]
    assert any("Drop the legacy migration script" in o for o in outcomes)  # git log ran
    assert any("only read-only git commands" in o for o in outcomes)  # touch denied
    assert any("No such tool available: Write" in o for o in outcomes)
    assert any("outside the project" in o for o in outcomes)
    usage = result.audit.usage
    assert (usage.input_tokens, usage.output_tokens) == (5100, 720)
    assert usage.model == "claude-sonnet-5-5" and usage.turns >= 2
    assert usage.cost_usd == pytest.approx((5100 * 2 + 720 * 10) / 1e6)
    assert [p for p in progress if p[0] == "memory-auditor turns"] == [
        ("memory-auditor turns", 1, 40),
        ("memory-auditor turns", 2, 40),
    ]


def test_max_turns_and_truncated_output(fake_api, snapshot) -> None:  # type: ignore[no-untyped-def]
    fake_api.script(AUDITOR_ROUTE, [tool_use("Glob", {"pattern": "*"})] * 4)
    fake_api.script(DISCOVERER_ROUTE, [truncated('{"candidates": [')] * 4)
    result = _gather(snapshot, max_turns=2)
    assert (
        result.failures[AUDITOR] == "memory-auditor: reached the maximum number of turns (2) without a report"
    )
    assert "exceeded the 128000 output token maximum" in result.failures[DISCOVERER]
    assert "Output token limit hit" in json.dumps(fake_api.requests_with(DISCOVERER_ROUTE)[-1]["messages"])
    assert result.audit is None and result.fallback


def test_http_errors(fake_api, snapshot) -> None:  # type: ignore[no-untyped-def]
    fake_api.script(AUDITOR_ROUTE, [error(400, "FAKE_BAD_REQUEST")])
    fake_api.script(DISCOVERER_ROUTE, [error(500, "FAKE_SERVER_ERROR")])
    result = _gather(snapshot)
    assert result.failures[AUDITOR] == "memory-auditor: API error 400: FAKE_BAD_REQUEST"
    assert result.failures[DISCOVERER].startswith("signal-discoverer: API error 500: FAKE_SERVER_ERROR")


def test_slow_response_hits_the_timeout(fake_api, snapshot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CONSOLIDATE_TIMEOUT", "1")
    fake_api.script(AUDITOR_ROUTE, [Step(delay=2.5)])
    fake_api.script(DISCOVERER_ROUTE, [tool_use("StructuredOutput", DISCOVERY)])
    result = _gather(snapshot)
    assert "timed out" in result.failures[AUDITOR] and "\n" not in result.failures[AUDITOR]
    assert result.discovery is not None and result.discovery.candidates[0].principle.startswith("add dep")


def test_cli_not_found_is_a_clear_failure(snapshot) -> None:  # type: ignore[no-untyped-def]
    engine = ClaudeSdkEngine(cli_path="/nonexistent/claude")
    result = asyncio.run(gather(engine, snapshot))
    assert "the Claude Code CLI was not found" in result.failures[AUDITOR]
    assert "CONSOLIDATE_CLAUDE_CLI" in result.failures[DISCOVERER] and result.fallback


def test_options_isolate_the_run(snapshot) -> None:  # type: ignore[no-untyped-def]
    import claude_agent_sdk as sdk

    engine = ClaudeSdkEngine()
    options = AgentRun(engine, engine.specs[AUDITOR], AgentTask(AUDITOR, snapshot)).options(sdk)
    assert options.setting_sources == [] and options.verbatim_prompts is True
    assert options.env["CONSOLIDATE_CHILD"] == "1"
    assert options.extra_args == {"agent": "memory-auditor", "no-session-persistence": None}
    assert options.tools == ["Read", "Grep", "Glob", "Bash", "StructuredOutput"]
    assert {"Write", "Edit", "MultiEdit", "NotebookEdit"} <= set(options.disallowed_tools)
    assert options.allowed_tools == [] and options.max_turns >= 30
    assert options.cwd == str(snapshot.settings.layout.git_root)
    definition = options.agents["memory-auditor"]
    assert definition.maxTurns == options.max_turns and "StructuredOutput" in definition.tools
    assert options.output_format["schema"]["properties"].keys() >= {"findings", "entries_audited"}
    assert Path(options.add_dirs[0]) == snapshot.settings.memory_dir


def test_usage_prefers_per_model_counts() -> None:
    from claude_agent_sdk import ResultMessage

    result = ResultMessage(
        subtype="success", duration_ms=1, duration_api_ms=1, is_error=False, num_turns=6, session_id="s",
        total_cost_usd=0.42, usage={"input_tokens": 10, "output_tokens": 5},
        model_usage={
            "claude-sonnet-5-5": {"inputTokens": 100, "outputTokens": 50, "cacheReadInputTokens": 7},
            "claude-haiku-5-5": {"inputTokens": 20, "outputTokens": 4, "cacheCreationInputTokens": 3},
        },
    )  # fmt: skip
    usage = usage_of(result)
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (
        120, 54, 7, 3
    )  # fmt: skip
    assert usage.cost_usd == 0.42 and usage.turns == 6
    assert usage.model == "claude-sonnet-5-5, claude-haiku-5-5"
