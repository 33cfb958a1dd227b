from __future__ import annotations

import asyncio
import time

import pytest

from consolidate.dream.gather import gather, parse_output
from consolidate.dream.orient import orient
from consolidate.engines import AUDITOR, DISCOVERER, AgentOutput, EngineFailure
from consolidate.engines.fakes import FunctionEngine, ScriptedEngine
from consolidate.models import Usage

AUDIT = {
    "findings": [
        {"category": "LOW-VALUE", "file": "MEMORY.md", "entry": "- x", "action": "REMOVE", "confidence": 0.8}
    ],
    "entries_audited": 3,
}
DISCOVERY = {
    "candidates": [
        {"kind": "correction", "principle": "use uv add for dependencies", "trigger": "adding deps"}
    ]
}


def test_agents_run_concurrently(settings) -> None:  # type: ignore[no-untyped-def]
    async def slow(task):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.6)
        return AUDIT if task.agent == AUDITOR else DISCOVERY

    snapshot = orient(settings, create=False)
    started = time.monotonic()
    result = asyncio.run(gather(FunctionEngine(slow), snapshot))
    elapsed = time.monotonic() - started
    assert elapsed < 1.1, f"the two agents ran one after the other ({elapsed:.2f} s)"
    assert result.audit is not None and len(result.audit.findings) == 1
    assert result.discovery is not None and result.discovery.candidates[0].kind == "correction"
    assert not result.failures and not result.fallback


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("", "returned empty output"),
        ('{"findings": [{"category": "STALE", "file"', "truncated or invalid JSON"),
        ('["not", "an", "object"]', "not a JSON object"),
        ({"findings": [{"category": "BOGUS", "file": "x"}]}, "does not match the schema"),
        (EngineFailure("Reached maximum number of turns (30)"), "maximum number of turns"),
        (RuntimeError("boom"), "memory-auditor failed: RuntimeError: boom"),
    ],
)
def test_a_failing_auditor_leaves_the_discoverer(settings, answer, reason: str) -> None:  # type: ignore[no-untyped-def]
    engine = ScriptedEngine({AUDITOR: [answer], DISCOVERER: [DISCOVERY]})
    result = asyncio.run(gather(engine, orient(settings, create=False)))
    assert result.audit is None
    assert reason in result.failures[AUDITOR]
    assert result.discovery is not None and len(result.discovery.candidates) == 1
    assert result.ran


def test_fenced_json_and_usage_are_accepted() -> None:
    report = parse_output(
        AUDITOR, AgentOutput('```json\n{"findings": []}\n```', Usage(input_tokens=10, cost_usd=0.01))
    )
    assert report.usage.input_tokens == 10


def test_auditor_is_skipped_when_there_is_no_memory_yet(settings) -> None:  # type: ignore[no-untyped-def]
    (settings.memory_dir / "MEMORY.md").unlink()
    settings.layout.project_claude_md.unlink(missing_ok=True)
    engine = ScriptedEngine({DISCOVERER: [DISCOVERY]})
    snapshot = orient(settings)
    assert snapshot.created_index
    assert not (settings.memory_dir / "MEMORY.md").exists()  # created by the first applied proposal
    result = asyncio.run(gather(engine, snapshot))
    assert engine.calls == [DISCOVERER]
    assert result.auditor_skipped and result.audit is None


def test_a_new_memory_beside_a_claude_md_is_still_audited(settings) -> None:  # type: ignore[no-untyped-def]
    (settings.memory_dir / "MEMORY.md").unlink()
    settings.layout.project_claude_md.write_text("# Guide\n\n- Run the tests.\n")
    engine = ScriptedEngine({DISCOVERER: [DISCOVERY], AUDITOR: [AUDIT]})
    snapshot = orient(settings)
    assert snapshot.created_index and not snapshot.auditor_skipped
    result = asyncio.run(gather(engine, snapshot))
    assert sorted(engine.calls) == sorted([AUDITOR, DISCOVERER]) and result.audit is not None


def test_secrets_in_failure_messages_are_redacted(settings) -> None:  # type: ignore[no-untyped-def]
    engine = ScriptedEngine(
        {AUDITOR: [EngineFailure("bad key sk-ant-abcdefghijklmnopqrstuvwx")], DISCOVERER: [DISCOVERY]}
    )
    result = asyncio.run(gather(engine, orient(settings, create=False)))
    assert "sk-ant-" not in result.failures[AUDITOR]
    assert "[REDACTED:anthropic-key]" in result.failures[AUDITOR]
