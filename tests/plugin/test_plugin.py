"""The checkout is a Claude Code plugin: it validates, a session started with it lists its agents,
skill and commands, and its agents run with exactly their read-only tools and their system prompt."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, SystemMessage, query

from tests.fakeapi.server import text, tool_use
from tests.plugin.conftest import ROOT


def _claude(cli: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1"}
    return subprocess.run([cli, *args], capture_output=True, text=True, timeout=60, env=env)


def test_plugin_validates(cli, isolated_env) -> None:  # type: ignore[no-untyped-def]
    found = _claude(cli, isolated_env, "plugin", "validate", str(ROOT))
    assert found.returncode == 0, found.stdout + found.stderr
    assert "Validation passed" in found.stdout
    for part in (
        "agents: consolidate:memory-auditor",
        "agents: consolidate:signal-discoverer",
        "skills: consolidate:extract-learnings",
        "commands: consolidate:dream",
        "commands: consolidate:remember",
    ):
        assert part in found.stdout


def test_checkout_is_a_local_marketplace(cli, isolated_env) -> None:  # type: ignore[no-untyped-def]
    found = _claude(cli, isolated_env, "plugin", "marketplace", "add", str(ROOT))
    assert found.returncode == 0, found.stdout + found.stderr
    settings = json.loads((isolated_env / ".claude" / "settings.json").read_text())
    assert settings["extraKnownMarketplaces"]["consolidate-local"]["source"]["path"] == str(ROOT)
    listed = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())["plugins"]
    assert [(p["name"], p["source"]) for p in listed] == [("consolidate", "./")]


def _session(prompt: str, cwd: str, **options: Any) -> list[Any]:
    async def collect() -> list[Any]:
        opts = ClaudeAgentOptions(
            cwd=cwd,
            plugins=[{"type": "local", "path": str(ROOT)}],
            setting_sources=[],
            extra_args={"no-session-persistence": None},
            **options,
        )
        return [message async for message in query(prompt=prompt, options=opts)]

    return asyncio.run(collect())


def test_plugin_dir_session_lists_agents_skill_and_runs_an_agent(fake_api, example) -> None:  # type: ignore[no-untyped-def]
    fake_api.script("You are the memory auditor", [text('{"findings": [], "entries_audited": 0}')])
    fake_api.script(
        "",
        [
            tool_use(
                "Agent",
                {
                    "description": "audit memory",
                    "prompt": "AUDIT TASK",
                    "subagent_type": "consolidate:memory-auditor",
                },
            ),
            text("STARTED"),  # the agent runs in the background; its result arrives as a notification
            text("DONE"),
        ],
    )
    messages = _session("consolidate the memory", str(example.project))
    init = next(m for m in messages if isinstance(m, SystemMessage) and m.subtype == "init")
    assert {"consolidate:memory-auditor", "consolidate:signal-discoverer"} <= set(init.data["agents"])
    assert "consolidate:extract-learnings" in init.data["skills"]
    assert {"consolidate:dream", "consolidate:remember"} <= set(init.data["slash_commands"])
    assert "consolidate" in [p["name"] for p in init.data["plugins"]]
    assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error
    (subagent,) = fake_api.requests_with("You are the memory auditor")
    tools = {t["name"] for t in subagent["tools"]} - {"DeferredToolPlaceholder"}
    assert {"Read", "Bash"} <= tools <= {"Read", "Grep", "Glob", "Bash"}  # this CLI searches through Bash
    assert subagent["model"] == "claude-sonnet-5-5" and "AUDIT TASK" in json.dumps(subagent["messages"])
    assert any("entries_audited" in json.dumps(r["messages"]) for r in fake_api.requests_with("STARTED"))
