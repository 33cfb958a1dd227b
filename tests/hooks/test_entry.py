from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from consolidate.hooks.entry import log_path
from tests.hooks.helpers import hook, payload

HEAVY = (
    "pydantic",
    "rich",
    "git",
    "anthropic",
    "claude_agent_sdk",
    "markdown_it",
    "jinja2",
    "yaml",
    "httpx",
)
LIGHT_MEMORY_LAYOUT = {
    "memory_layout",
    "memory_layout.paths",
    "memory_layout.files",
}  # the rest parses Markdown
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd"])
def test_bad_input_exits_zero_silently_and_is_logged(event: str) -> None:
    for raw in ("{not json", "[1, 2]", ""):
        code, answer, out = hook(event, raw)
        assert (code, out) == (0, "")
    log = log_path().read_text()
    assert f"{event}: JSONDecodeError" in log and "payload is a JSON list" in log


def test_missing_fields_and_unreadable_files_do_not_fail(tmp_path: Path) -> None:
    state = Path(os.environ["CONSOLIDATE_STATE_DIR"])
    (state / "learnings").mkdir(parents=True)
    (state / "learnings" / "global").write_text("a file where a directory belongs")
    for event in ("SessionStart", "UserPromptSubmit", "PreToolUse", "Stop"):
        code, _, out = hook(event, {"hook_event_name": event, "cwd": str(tmp_path), "tool_name": "Bash"})
        assert code == 0


def test_child_runs_and_unknown_events_do_nothing(tmp_path: Path) -> None:
    data = payload("UserPromptSubmit", tmp_path, prompt="no, that's wrong")
    assert hook("UserPromptSubmit", data, {"CONSOLIDATE_CHILD": "1"})[1:] == (None, "")
    assert hook("Notification", data)[1:] == (None, "")
    assert not log_path().exists()


def test_the_cli_reaches_the_hook_and_exits_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from consolidate.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("{broken"))
    assert main(["hook", "PreToolUse"]) == 0
    assert capsys.readouterr() == ("", "")


def _imported_modules(argv: list[str], stdin: str, env: dict[str, str]) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    names = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


@pytest.mark.parametrize("event", ["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop", "SessionEnd"])
def test_the_hook_path_imports_nothing_heavy(event: str, tmp_path: Path) -> None:
    from tests.capture.fixtures import Session, write_session

    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    home = Path(env["CLAUDE_CONFIG_DIR"])
    session = Session(cwd=str(tmp_path)).user("x" * 1200).assistant("done <!-- learning: keep it light -->")
    transcript = write_session(home, tmp_path, session)
    data = payload(event, tmp_path, transcript_path=str(transcript), session_id=session.session_id, prompt="wrong",
                   tool_name="Bash", tool_input={"command": "pytest"}, source="startup", stop_hook_active=False)  # fmt: skip
    import json

    names = _imported_modules(["-m", "consolidate", "hook", event], json.dumps(data), env)
    assert "consolidate.hooks.launch" in names
    heavy = sorted(n for n in names if n.split(".")[0] in HEAVY)
    assert heavy == []
    assert {n for n in names if n.startswith("memory_layout")} <= LIGHT_MEMORY_LAYOUT
    assert not log_path().exists() or event not in log_path().read_text()


def test_the_hook_path_runs_without_site_packages(tmp_path: Path) -> None:
    """-S drops site-packages: the hook works on a bare interpreter (the plugin's python3)."""
    import json

    env = {**{k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}, "PYTHONPATH": str(ROOT)}
    data = json.dumps(payload("UserPromptSubmit", tmp_path, prompt="не надо так"))
    result = subprocess.run([sys.executable, "-S", "-m", "consolidate", "hook", "UserPromptSubmit"], input=data,
                            capture_output=True, text=True, env=env, cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0 and result.stderr == ""
    assert "correction" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert not log_path().exists()
