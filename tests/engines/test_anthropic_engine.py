"""The anthropic engine end to end against the fake Messages API: tool loop, structured output, usage,
and every failure turned into a one-line EngineFailure that the gather phase falls back from."""

from __future__ import annotations

import asyncio
import json

import pytest

from consolidate.dream.gather import GatherResult, gather
from consolidate.engines import AUDITOR, DISCOVERER
from consolidate.engines.anthropic_api import AnthropicEngine
from consolidate.engines.config import EngineConfig
from consolidate.engines.sandbox import TOOL_SCHEMAS
from tests.fakeapi.server import Step, error, text, tool_use, tool_uses, truncated

AUDIT = {
    "findings": [
        {
            "category": "STALE",
            "file": "MEMORY.md",
            "entry": "- **When migrating data:** run `scripts/legacy_migrate.py` first. → [detail](project_migrate.md)",
            "evidence": "deleted in e1e4706ab1",
            "action": "REMOVE",
            "confidence": 0.9,
        }
    ],
    "entries_audited": 32,
}
DISCOVERY = {
    "candidates": [
        {
            "kind": "correction",
            "principle": "add dependencies with `uv add`",
            "trigger": "adding a dependency",
        }
    ],
    "sessions_scanned": 2,
}
AUDITOR_ROUTE, DISCOVERER_ROUTE = "memory auditor of a memory", "signal discoverer of a memory"


def _gather(snapshot, **config) -> GatherResult:  # type: ignore[no-untyped-def]
    engine = AnthropicEngine(EngineConfig.from_env(**config))
    return asyncio.run(gather(engine, snapshot))


def test_tool_loop_and_structured_output(fake_api, snapshot) -> None:  # type: ignore[no-untyped-def]
    fake_api.script(
        AUDITOR_ROUTE,
        [
            tool_uses(("glob", {"pattern": "scripts/*"}), ("read_file", {"path": "/etc/passwd"})),
            tool_use("git_log", {"path": "scripts/legacy_migrate.py"}),
            text(json.dumps(AUDIT), input_tokens=3000, output_tokens=400, cache_read=1000),
        ],
    )
    fake_api.script(DISCOVERER_ROUTE, [text("```json\n" + json.dumps(DISCOVERY) + "\n```")])
    result = _gather(snapshot)
    assert not result.failures and not result.fallback
    assert result.audit is not None and result.audit.findings[0].category == "STALE"
    assert result.discovery is not None and result.discovery.candidates[0].kind == "correction"
    first, second, third = fake_api.requests_with(AUDITOR_ROUTE)
    assert [t["name"] for t in first["tools"]] == [t["name"] for t in TOOL_SCHEMAS]
    assert first["output_config"]["format"]["type"] == "json_schema"
    assert "findings" in first["output_config"]["format"]["schema"]["properties"]
    assert first["system"].startswith("You are the memory auditor")
    assert first["cache_control"] == {"type": "ephemeral"}
    results = {r["tool_use_id"]: r for r in second["messages"][-1]["content"]}
    assert any(r["is_error"] and "outside the project" in r["content"] for r in results.values())
    assert any("deleted in" in r["content"] for r in third["messages"][-1]["content"])
    usage = result.audit.usage
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (3200, 440, 1000)
    assert usage.turns == 3 and usage.model == "claude-sonnet-5-5"
    assert usage.cost_usd == pytest.approx((3200 * 2 + 440 * 10 + 1000 * 0.2) / 1e6)


def test_model_override_and_price_table(fake_api, snapshot) -> None:  # type: ignore[no-untyped-def]
    fake_api.script("", [text(json.dumps(AUDIT), input_tokens=1_000_000, output_tokens=0)] * 2)
    result = _gather(snapshot, model="opus")
    assert {r["model"] for r in fake_api.requests} == {"claude-opus-5-5"}
    assert result.audit is not None and result.audit.usage.cost_usd == pytest.approx(4.0)


@pytest.mark.parametrize(
    ("steps", "config", "reason"),
    [
        ([text('{"findings": [{"category": "STALE", "fi')], {}, "truncated or invalid JSON"),
        ([truncated('{"findings": [')], {}, "output truncated at 16000 tokens"),
        ([tool_use("glob", {"pattern": "*"})] * 5, {"max_turns": 3}, "maximum number of turns (3)"),
        ([error(400, "FAKE_BAD_REQUEST")], {}, "API error 400: FAKE_BAD_REQUEST"),
        ([error(500, "FAKE_SERVER_ERROR")], {"max_retries": 0}, "API error 500: FAKE_SERVER_ERROR"),
        ([Step(delay=1.5)], {"timeout": 0.4, "max_retries": 0}, "did not answer within 0.4 s"),
        ([text("I cannot help with that.", stop_reason="refusal")], {}, "refused"),
    ],
)
def test_failures_fall_back_with_one_line(fake_api, snapshot, steps, config, reason) -> None:  # type: ignore[no-untyped-def]
    fake_api.script(AUDITOR_ROUTE, steps)
    fake_api.script(DISCOVERER_ROUTE, [text(json.dumps(DISCOVERY))])
    result = _gather(snapshot, **config)
    assert result.audit is None and reason in result.failures[AUDITOR]
    assert "\n" not in result.failures[AUDITOR] and "Traceback" not in result.failures[AUDITOR]
    assert result.discovery is not None and DISCOVERER not in result.failures


def test_last_turn_switches_tools_off_and_asks_for_the_report(fake_api, snapshot) -> None:  # type: ignore[no-untyped-def]
    fake_api.script(AUDITOR_ROUTE, [tool_use("glob", {"pattern": "*"})] * 2 + [text(json.dumps(AUDIT))])
    fake_api.script(DISCOVERER_ROUTE, [text(json.dumps(DISCOVERY))])
    result = _gather(snapshot, max_turns=3)
    assert result.audit is not None
    requests = fake_api.requests_with(AUDITOR_ROUTE)
    assert "tool_choice" not in requests[1] and requests[2]["tool_choice"] == {"type": "none"}
    assert "reply now with your" in json.dumps(requests[2]["messages"][-1])


def test_a_transient_500_is_retried(fake_api, snapshot) -> None:  # type: ignore[no-untyped-def]
    fake_api.script(AUDITOR_ROUTE, [error(500, once=True), text(json.dumps(AUDIT))])
    fake_api.script(DISCOVERER_ROUTE, [text(json.dumps(DISCOVERY))])
    result = _gather(snapshot, max_retries=1)
    assert result.audit is not None and len(fake_api.requests_with(AUDITOR_ROUTE)) == 2


def test_environment_configures_timeouts_and_retries(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from consolidate.errors import UsageError

    monkeypatch.setenv("CONSOLIDATE_TIMEOUT", "12.5")
    monkeypatch.setenv("CONSOLIDATE_MAX_RETRIES", "4")
    monkeypatch.setenv("CONSOLIDATE_MODEL", "haiku")
    config = EngineConfig.from_env()
    assert (config.timeout, config.max_retries, config.model) == (12.5, 4, "haiku")
    monkeypatch.setenv("CONSOLIDATE_TIMEOUT", "soon")
    with pytest.raises(UsageError, match="CONSOLIDATE_TIMEOUT must be a number"):
        EngineConfig.from_env()


def test_missing_credentials_are_one_clear_line(fake_api, snapshot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    result = _gather(snapshot)
    assert (
        result.failures[AUDITOR]
        == "memory-auditor: no API credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)"
    )
    assert fake_api.requests == []
