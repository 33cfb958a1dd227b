"""A guard lesson the assistant writes (or quotes from a transcript) cannot deny anything until the
user confirms it; a guard that would match every call is refused whoever writes it."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from consolidate.capture.places import claude_home
from consolidate.cli import main
from tests.capture.fixtures import Session, write_session
from tests.hooks.helpers import hook, payload

EVERYTHING = "#lesson\nrule: Never run anything\nwhy: safety\ntool: Bash\ncommand: .*\nguard: true\n#/lesson"
FORCE_PUSH = (
    "#lesson\nrule: Never force-push main\nwhy: CI deploys from it\ntool: Bash\n"
    "command: git push .*--force\nguard: true\n#/lesson"
)


def bash(cwd: Path, command: str) -> dict:
    return payload("PreToolUse", cwd, tool_name="Bash", tool_input={"command": command}, tool_use_id="t1")


def decision(cwd: Path, command: str) -> tuple[str | None, str]:
    _, answer, _ = hook("PreToolUse", bash(cwd, command))
    output = (answer or {}).get("hookSpecificOutput", {})
    return output.get("permissionDecision"), output.get("additionalContext", "")


def tick(project: Path) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["tick", "--project", str(project)]) == 0
    return out.getvalue()


def lesson_session(project: Path, text: str) -> None:
    write_session(claude_home(), project, Session(cwd=str(project)).user("go on").assistant(text))


def test_an_assistant_guard_only_advises_until_the_user_confirms(tmp_path: Path) -> None:
    lesson_session(tmp_path, FORCE_PUSH)
    said = tick(tmp_path)
    assert "only advises until the user confirms" in said
    verdict, context = decision(tmp_path, "git push origin main --force")
    assert verdict is None and "Never force-push main" in context and "learnings confirm" in context
    episode = said.split("lesson ")[1].split()[0]
    with redirect_stdout(io.StringIO()):
        assert main(["learnings", "confirm", episode, "--project", str(tmp_path)]) == 0
    assert decision(tmp_path, "git push origin main --force")[0] == "deny"
    assert decision(tmp_path, "git push origin main")[0] is None


@pytest.mark.parametrize(
    "trigger",
    [
        {"tool": "Bash", "command": ".*", "guard": True},
        {"tool": "Bash", "command": "", "guard": True},
        {"tool": "Edit", "path": "**", "guard": True},
        {"tool": ".*", "command": "(?:)", "guard": True},
    ],
)
def test_a_guard_that_matches_everything_is_refused(tmp_path: Path, trigger: dict, capsys) -> None:  # type: ignore[no-untyped-def]
    capture = {"rule": "Stop and ask first", "trigger": trigger}
    monkey_stdin = io.StringIO(json.dumps(capture))
    import sys

    old, sys.stdin = sys.stdin, monkey_stdin
    try:
        assert main(["learnings", "capture", "--project", str(tmp_path)]) == 2
    finally:
        sys.stdin = old
    assert "would deny every" in capsys.readouterr().err


def test_a_transcript_lesson_that_denies_everything_never_takes_effect(tmp_path: Path) -> None:
    lesson_session(tmp_path, EVERYTHING)
    assert "was not recorded" in tick(tmp_path)
    assert decision(tmp_path, "ls -la") == (None, "")
