"""Engines by name and by $CONSOLIDATE_ENGINE, the reports: engine, and imports kept off light paths."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from consolidate.dream.gather import gather
from consolidate.engines import AUDITOR, DISCOVERER, get_engine
from consolidate.engines.reports import ReportsEngine, json_object_text
from consolidate.errors import UsageError


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("offline", "OfflineEngine"),
        ("claude-sdk", "ClaudeSdkEngine"),
        ("anthropic", "AnthropicEngine"),
        ("reports:/tmp/r", "ReportsEngine"),
        ("fake:empty", "ScriptedEngine"),
        ("fake:offline-with-usage", "FunctionEngine"),
    ],
)
def test_engines_by_name(name: str, kind: str) -> None:
    assert type(get_engine(name)).__name__ == kind


def test_offline_is_the_default_and_the_environment_selects(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert type(get_engine(None)).__name__ == "OfflineEngine"
    monkeypatch.setenv("CONSOLIDATE_ENGINE", "anthropic")
    assert type(get_engine(None)).__name__ == "AnthropicEngine"
    assert type(get_engine("offline")).__name__ == "OfflineEngine"  # --engine wins


@pytest.mark.parametrize("name", ["gpt", "fake:nope", "reports:"])
def test_unknown_engines_are_usage_errors(name: str) -> None:
    with pytest.raises(UsageError):
        get_engine(name)


def test_reports_engine_reads_saved_agent_answers(tmp_path, snapshot) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / f"{AUDITOR}.json").write_text(json.dumps({"findings": [], "entries_audited": 3}))
    (tmp_path / f"{DISCOVERER}.json").write_text(
        'Here is my report:\n{"candidates": [{"kind": "decision", "principle": "keep the API sync"}]}\nDone.'
    )
    result = asyncio.run(gather(get_engine(f"reports:{tmp_path}"), snapshot))
    assert result.audit is not None and result.audit.entries_audited == 3
    assert result.discovery is not None and result.discovery.candidates[0].kind == "decision"


def test_reports_engine_by_files_with_one_side_missing(tmp_path, snapshot) -> None:  # type: ignore[no-untyped-def]
    discovery = tmp_path / "d.json"
    discovery.write_text('{"candidates": []}')
    result = asyncio.run(gather(ReportsEngine.from_spec(f",{discovery}"), snapshot))
    assert result.failures[AUDITOR] == "memory-auditor: no report given" and not result.fallback
    result = asyncio.run(gather(ReportsEngine.from_spec(f"{tmp_path / 'gone.json'},{discovery}"), snapshot))
    assert result.failures[AUDITOR].startswith("memory-auditor: no report at ")


def test_json_object_text() -> None:
    assert json_object_text('  {"a": 1} ') == '{"a": 1}'
    assert json_object_text('Report:\n{"a": {"b": 2}}\nthanks') == '{"a": {"b": 2}}'
    assert json_object_text("```json\n{}\n```") == "```json\n{}\n```"


def test_cli_help_and_engine_selection_import_no_llm_client() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from consolidate.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: main(['--help'])\n"
        "    except SystemExit: pass\n"
        "from consolidate.engines import get_engine\n"
        "get_engine('claude-sdk'); get_engine('anthropic')\n"
        "print(sorted(m for m in ('claude_agent_sdk', 'anthropic', 'jinja2') if m in sys.modules))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
