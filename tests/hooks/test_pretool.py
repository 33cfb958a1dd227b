from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from consolidate.capture.places import claude_home, state_root
from consolidate.learnings.store import EpisodeStore, store_path
from tests.hooks.helpers import SESSION, context_of, hook, payload

NOW = datetime.now(UTC)


def add(project: Path | None, rule: str, trigger: dict | None = None, **fields: object) -> str:
    store = EpisodeStore(store_path(state_root(claude_home()), project))
    episode, _ = store.capture({"rule": rule, **({"trigger": trigger} if trigger else {}), **fields}, NOW)
    return episode.id


def bash(cwd: Path, command: str, session: str = SESSION) -> dict:
    return payload("PreToolUse", cwd, session_id=session, permission_mode="default", tool_name="Bash",
                   tool_input={"command": command, "description": "run"}, tool_use_id="toolu_01ABC")  # fmt: skip


def test_matching_lesson_is_injected_once_per_session(tmp_path: Path) -> None:
    add(
        tmp_path,
        "Run the suite with make test: it sets the offline env",
        {"tool": "Bash", "command": r"\bpytest\b"},
    )
    add(tmp_path, "Never edit generated files", {"tool": "Edit", "path": "gen/**"})
    code, answer, _ = hook("PreToolUse", bash(tmp_path, "uv run pytest -q"))
    assert code == 0
    output = answer["hookSpecificOutput"]  # type: ignore[index]
    assert output["hookEventName"] == "PreToolUse" and "permissionDecision" not in output
    assert "make test" in output["additionalContext"] and "generated" not in output["additionalContext"]
    assert hook("PreToolUse", bash(tmp_path, "pytest tests/a.py"))[1] is None  # once per session
    assert "make test" in context_of(hook("PreToolUse", bash(tmp_path, "pytest", session="other-session"))[1])


def test_no_match_no_output(tmp_path: Path) -> None:
    add(tmp_path, "Use make test", {"command": r"\bpytest\b"})
    assert hook("PreToolUse", bash(tmp_path, "ls -la"))[1:] == (None, "")


def test_guard_lesson_denies_every_time(tmp_path: Path) -> None:
    add(
        tmp_path,
        "Never force-push main: CI deploys from it",
        {"tool": "Bash", "command": r"git push .*--force", "guard": True},
    )
    for _ in range(2):
        code, answer, _ = hook("PreToolUse", bash(tmp_path, "git push origin main --force"))
        output = answer["hookSpecificOutput"]  # type: ignore[index]
        assert code == 0 and output["permissionDecision"] == "deny"
        assert "Never force-push main" in output["permissionDecisionReason"]


def test_budget_three_lessons_and_4kb(tmp_path: Path) -> None:
    for i in range(5):
        add(
            tmp_path,
            f"lesson {i} about the deploy step {'detail ' * 20}",
            {"command": "deploy"},
            impact="high",
        )
    text = context_of(hook("PreToolUse", bash(tmp_path, "make deploy"))[1])
    assert text.count("\n- [EP-") == 3
    add(tmp_path, "huge " * 1000, {"command": "build"})
    add(tmp_path, "small build lesson", {"command": "build"})
    text = context_of(hook("PreToolUse", bash(tmp_path, "make build"))[1])
    assert "small build lesson" in text and "huge" not in text and len(text.encode()) <= 4096 + 200


def test_global_lessons_and_project_scope(tmp_path: Path) -> None:
    app, other = tmp_path / "app", tmp_path / "other"
    app.mkdir()
    other.mkdir()
    add(None, "Global: prefer rg over grep", {"command": r"^grep "})
    add(None, "Only in app: grep the vendored tree too", {"command": r"^grep ", "project": str(app)})
    assert "Only in app" in context_of(hook("PreToolUse", bash(app, "grep -r x ."))[1])
    text = context_of(hook("PreToolUse", bash(other, "grep -r x .", session="s2"))[1])
    assert "prefer rg" in text and "Only in app" not in text


def test_archived_lessons_are_not_injected(tmp_path: Path) -> None:
    identifier = add(tmp_path, "Use make test", {"command": "pytest"})
    EpisodeStore(store_path(state_root(claude_home()), tmp_path)).set_status(identifier, "archived", NOW)
    assert hook("PreToolUse", bash(tmp_path, "pytest"))[1] is None


@pytest.mark.parametrize(
    "tool_input", [{"file_path": "db/migrations/0002.sql", "content": "x"}, {"path": "db/migrations"}]
)
def test_path_triggers_use_file_path_or_path(tmp_path: Path, tool_input: dict) -> None:
    add(tmp_path, "Migrations are generated: run make migrations", {"path": "db/migrations/**"})
    data = payload("PreToolUse", tmp_path, tool_name="Write", tool_input=tool_input, tool_use_id="toolu_2")
    assert "make migrations" in context_of(hook("PreToolUse", data)[1])


def test_a_subagent_gets_the_lesson_in_its_own_context(tmp_path: Path) -> None:
    add(tmp_path, "Run the suite with make test", {"command": "pytest"})
    assert context_of(hook("PreToolUse", bash(tmp_path, "pytest"))[1])
    inside = {**bash(tmp_path, "pytest"), "agent_id": "a100838cb0ef6bda0", "agent_type": "general-purpose"}
    assert "make test" in context_of(hook("PreToolUse", inside)[1])
    assert hook("PreToolUse", inside)[1] is None
