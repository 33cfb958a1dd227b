"""Prompts: rendered from the snapshot with StrictUndefined, capped, redacted, with the report schema."""

from __future__ import annotations

import json

import jinja2
import pytest

from consolidate.dream.orient import orient
from consolidate.engines import AUDITOR, DISCOVERER, AgentTask
from consolidate.engines.excerpt import ExcerptLimits, recent_sessions
from consolidate.engines.prompts import PromptLimits, render, task_prompt
from consolidate.engines.schema import report_schema
from consolidate.models import AuditReport, DiscoveryReport

TOKEN = "ghp_" + "a1B2c3D4" * 5


def test_auditor_prompt_holds_memory_claude_md_git_log_and_targets(snapshot) -> None:  # type: ignore[no-untyped-def]
    prompt = task_prompt(AgentTask(AUDITOR, snapshot))
    assert "### MEMORY.md" in prompt and "### reference_uploads.md" in prompt
    assert "   4| - **When running tests:** use `make test`" in prompt
    assert "Drop the legacy migration script" in prompt  # git log
    assert "- `scripts/legacy_migrate.py`" in prompt  # a verification target
    assert "run `make test` before pushing" in prompt  # the project CLAUDE.md
    assert '"findings"' in prompt and '"candidates"' not in prompt


def test_discoverer_prompt_holds_known_entries_sessions_and_queue(snapshot) -> None:  # type: ignore[no-untyped-def]
    task = AgentTask(DISCOVERER, snapshot, queue_items=[{"id": "q1", "payload": "use uv"}])
    prompt = task_prompt(task)
    assert "### L1 " in prompt and "run `make test` before pushing." in prompt  # CLAUDE.md, whole
    assert "[L2] MEMORY.md § Feedback: **When running tests:**" in prompt
    assert f"topic file {snapshot.memory_dir / 'feedback_testing.md'} — how to run the tests" in prompt
    assert "user [" in prompt and "always add dependencies with `uv add`" in prompt
    assert "tool error: E fixture 'db' not found" in prompt
    assert '{"id": "q1", "payload": "use uv"}' in prompt
    assert '"candidates"' in prompt and "untrusted data" in prompt


def test_templates_refuse_missing_values() -> None:
    with pytest.raises(jinja2.UndefinedError):
        render("memory-auditor.j2", project="/p")


def test_secrets_never_reach_a_prompt(settings, transcript) -> None:  # type: ignore[no-untyped-def]
    session = transcript("5f0c1a2e-0000-4000-8000-00000000000a", settings.layout.project, "2026-11-29T08:00")
    session.user(f"the deploy token is {TOKEN}, remember to use the staging cluster")
    session.write(settings.layout.transcripts_dir)
    index = settings.memory_dir / "MEMORY.md"
    index.write_text(index.read_text() + f"- api_key = {TOKEN}\n")
    snapshot = orient(settings, create=False)
    for agent in (AUDITOR, DISCOVERER):
        prompt = task_prompt(AgentTask(agent, snapshot))
        assert TOKEN not in prompt and "[REDACTED:" in prompt


def test_each_part_is_capped(settings, transcript) -> None:  # type: ignore[no-untyped-def]
    big = settings.memory_dir / "reference_big.md"
    big.write_text("# Big\n" + "".join(f"- line {n} of a long topic file\n" for n in range(5000)))
    for n in range(12):
        session = transcript(
            f"5f0c1a2e-0000-4000-8000-0000000001{n:02d}", settings.layout.project, "2026-11-29T08:00"
        )
        for turn in range(100):
            session.user(f"question {turn}: " + "words " * 80)
            session.assistant("answer " * 200)
        session.write(settings.layout.transcripts_dir)
    snapshot = orient(settings, create=False)
    limits = PromptLimits(
        per_file=2_000, memory_total=10_000, sessions=ExcerptLimits(sessions=5, total=9_000)
    )
    auditor = task_prompt(AgentTask(AUDITOR, snapshot), limits)
    assert "cut here to keep this message small: Read" in auditor
    assert len(auditor) < 10_000 + 8_000  # the cap plus the fixed text and the schema
    excerpts = recent_sessions(settings.layout.transcripts_dir, None, limits.sessions)
    assert len(excerpts) <= 5
    assert sum(len(line) + 1 for e in excerpts for line in e.lines) <= 9_000
    assert all(
        len(line) <= 500 + len("user [00000000-0000-0000-0000-000000000000]: ")
        for e in excerpts
        for line in e.lines
    )
    assert excerpts[0].omitted > 0
    # user lines outlive assistant lines when a session is cut
    assert sum(line.startswith("user") for line in excerpts[0].lines) > sum(
        line.startswith("assistant") for line in excerpts[0].lines
    )


def test_sessions_before_the_last_consolidation_are_left_out(settings) -> None:  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    everything = recent_sessions(settings.layout.transcripts_dir, None)
    later = recent_sessions(settings.layout.transcripts_dir, datetime(2026, 11, 28, tzinfo=UTC))
    assert len(everything) == 2 and [e.session for e in later] == [everything[0].session]


@pytest.mark.parametrize(("agent", "model"), [(AUDITOR, AuditReport), (DISCOVERER, DiscoveryReport)])
def test_schema_is_generated_from_the_models_without_usage(agent, model) -> None:  # type: ignore[no-untyped-def]
    schema = report_schema(agent)
    assert "usage" not in schema["properties"] and "Usage" not in schema.get("$defs", {})
    assert set(schema["properties"]) == set(model.model_fields) - {"usage"}

    def objects(node):  # type: ignore[no-untyped-def]
        if isinstance(node, dict):
            if "properties" in node:
                yield node
            for value in node.values():
                yield from objects(value)
        elif isinstance(node, list):
            for item in node:
                yield from objects(item)

    assert all(o["additionalProperties"] is False for o in objects(schema))
    assert "minLength" not in json.dumps(schema) and "maximum" not in json.dumps(schema)
