"""Hook promises proved in the real Claude Code CLI (the one bundled in claude-agent-sdk), with the
checkout loaded as a plugin and the fake Messages API: a guard holds even when no Python can run the
hooks, and a plugin plus `consolidate install` runs each hook once."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import ClaudeAgentOptions, query

from consolidate.cli import main
from tests.fakeapi.server import after_last_assistant, text, tool_use
from tests.plugin.conftest import ROOT

TOOLS = ("sh", "bash", "cat", "date", "mkdir", "git", "tr", "rm", "ls", "env", "uname", "head")
GUARD = {
    "rule": "Never rm -rf in this repository; use git clean -fdx",
    "why": "build/ holds hand-made fixtures",
    "impact": "high",
    "trigger": {"tool": "Bash", "command": r"rm\s+-rf", "guard": True},
}


def _path_dir(tmp_path: Path, python3: str | None) -> str:
    """A PATH holding the usual tools and, as `python3`, what the test says (None: no python3)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    if python3 is not None:
        target = bin_dir / "python3"
        if python3.startswith("#!"):
            target.write_text(python3)
            target.chmod(0o755)
        else:
            target.symlink_to(python3)
    return str(bin_dir)


def _capture(project: Path, lesson: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(lesson)))
    assert main(["learnings", "capture", "--project", str(project)]) == 0


def _session(project: Path, path: str, **options: Any) -> list[Any]:
    env = {"PATH": path}

    async def collect() -> list[Any]:
        opts = ClaudeAgentOptions(
            cwd=str(project),
            plugins=[{"type": "local", "path": str(ROOT)}],
            setting_sources=options.pop("setting_sources", []),
            allowed_tools=["Bash"],  # would run unasked: only a hook can stop it
            include_hook_events=True,
            env=env,
            extra_args={"no-session-persistence": None},
            stderr=lambda line: print("CLI:", line),
            **options,
        )
        return [message async for message in query(prompt="clean the build", options=opts)]

    return asyncio.run(collect())


@pytest.fixture
def hooked_api(fake_api, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.delenv("CONSOLIDATE_CHILD")  # these sessions exist to run our hooks
    return fake_api


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "build").mkdir(parents=True)
    (project / "build" / "fixture.txt").write_text("made by hand\n")
    return project


PYTHONS = {
    "broken python3": "#!/bin/sh\necho 'pyenv: python3: command not found' >&2\nexit 127\n",
    "no python3": None,
}


@pytest.mark.parametrize("python3", list(PYTHONS))
def test_a_guarded_rm_is_denied_when_no_python_can_run_the_hooks(  # type: ignore[no-untyped-def]
    hooked_api, project, tmp_path, monkeypatch, python3
) -> None:
    _capture(project, GUARD, monkeypatch)
    seen: list[str] = []

    def after_denial(body: dict[str, Any]) -> Any:
        seen.append(after_last_assistant(body))
        return text("DONE")

    hooked_api.script("", [tool_use("Bash", {"command": "rm -rf build"}), after_denial])
    messages = _session(project, _path_dir(tmp_path, PYTHONS[python3]))
    assert (project / "build" / "fixture.txt").exists()
    (result,) = seen
    assert "a guard lesson is active for this project, so this call is blocked" in result
    assert "no Python 3.11+ can run consolidate's hooks" in result
    (notice,) = [o for o in _hook_outputs(messages, "SessionStart") if o]
    assert json.loads(notice)["systemMessage"].startswith("consolidate: its hooks cannot run in this session")


def _hook_outputs(messages: list[Any], event: str) -> list[str]:
    return [
        str(m.data.get("stdout") or "")
        for m in messages
        if getattr(m, "subtype", "") == "hook_response" and m.data.get("hook_event") == event
    ]


def test_without_a_guard_the_same_session_runs_the_rm(hooked_api, project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The control: nothing else in these sessions stops the call."""
    hooked_api.script("", [tool_use("Bash", {"command": "rm -rf build"}), text("DONE")])
    _session(project, _path_dir(tmp_path, None))
    assert not (project / "build").exists()


def test_a_guard_denies_through_python_when_one_can_run(  # type: ignore[no-untyped-def]
    hooked_api, project, tmp_path, monkeypatch
) -> None:
    _capture(project, GUARD, monkeypatch)
    seen: list[str] = []
    hooked_api.script("", [tool_use("Bash", {"command": "rm -rf build"}), lambda body: seen.append(
        after_last_assistant(body)) or text("DONE")])  # fmt: skip
    _session(project, _path_dir(tmp_path, sys.executable))
    assert (project / "build" / "fixture.txt").exists()
    assert "Blocked by a lesson from an earlier session" in seen[0] and GUARD["rule"] in seen[0]


def test_plugin_and_install_together_run_each_hook_once(  # type: ignore[no-untyped-def]
    hooked_api, project, tmp_path, monkeypatch, capsys
) -> None:
    from consolidate.capture.queue import NewItem, bucket_for, open_queue

    assert main(["install"]) == 0
    _capture(project, {"rule": "Greet with printf, not echo", "impact": "critical",
                       "trigger": {"tool": "Bash", "command": r"\becho\b"}}, monkeypatch)  # fmt: skip
    with open_queue() as queue:
        queue.enqueue(bucket_for(project), [NewItem("learning", "the suite needs make test")])
    capsys.readouterr()
    hooked_api.script("", [tool_use("Bash", {"command": "echo hi"}), text("DONE")])
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    messages = _session(project, path, setting_sources=["user"])
    first, second = hooked_api.requests
    start = json.dumps(first["messages"])
    assert start.count("Lessons from earlier sessions in this project") == 1
    assert start.count("1 learning(s) pending") == 1
    after_call = after_last_assistant(second)
    assert after_call.count("Lessons from earlier sessions for this Bash call") == 1
    assert "1 learning(s) pending" not in after_call
    notices = [o for o in _hook_outputs(messages, "SessionStart") if "wired twice" in o]
    assert len(notices) == 1 and "settings.json" in notices[0]
