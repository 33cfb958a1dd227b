from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.hooks.install import HOOKS
from consolidate.hooks.wiring import our_event

ROOT = Path(__file__).resolve().parents[2]
THEIRS = {
    "env": {"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "400000"},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": ".claude/hooks/block-dangerous.sh"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
}


def commands(settings: dict) -> list[str]:
    return [h["command"] for groups in settings.get("hooks", {}).values() for g in groups for h in g["hooks"]]


def test_install_keeps_other_hooks_backs_up_and_is_idempotent(
    claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = claude_home / "settings.json"
    settings.write_text(json.dumps(THEIRS))
    assert main(["install"]) == 0
    out = capsys.readouterr().out
    assert "installed/updated 5 consolidate hook(s)" in out and "backup:" in out
    backups = list(claude_home.glob("settings.json.bak-*"))
    assert len(backups) == 1 and json.loads(backups[0].read_text()) == THEIRS
    data = json.loads(settings.read_text())
    assert data["env"] == THEIRS["env"]
    assert ".claude/hooks/block-dangerous.sh" in commands(data) and "notify-send done" in commands(data)
    assert sorted(e for c in commands(data) if (e := our_event({"command": c}))) == sorted(HOOKS)
    assert data["hooks"]["PreToolUse"][-1]["matcher"] == "*"
    before = settings.read_bytes()
    assert main(["install"]) == 0
    assert "already installed" in capsys.readouterr().out
    assert settings.read_bytes() == before and len(list(claude_home.glob("settings.json.bak-*"))) == 1


def test_a_moved_interpreter_is_updated_in_place(claude_home: Path) -> None:
    assert main(["install", "--python", "/old/venv/bin/python"]) == 0
    assert main(["install", "--python", "/new/bin/python3"]) == 0
    cmds = commands(json.loads((claude_home / "settings.json").read_text()))
    assert len(cmds) == len(HOOKS) and all("--python /new/bin/python3 " in c for c in cmds)
    assert sorted(our_event({"command": c}) for c in cmds) == sorted(HOOKS)


def test_hooks_run_the_launcher_copied_outside_the_environment(claude_home: Path) -> None:
    """The copy outlives the venv; the command names the interpreter and package found at install."""
    import shlex
    import sys

    from consolidate.hooks.install import launcher_source

    assert main(["install"]) == 0
    state = Path(os.environ["CONSOLIDATE_STATE_DIR"])
    copy = state / "bin" / "consolidate-hook.sh"
    assert copy.read_bytes() == launcher_source().read_bytes() and os.access(copy, os.X_OK)
    for command in commands(json.loads((claude_home / "settings.json").read_text())):
        words = shlex.split(command)
        assert words[:2] == ["/bin/sh", str(copy)] and words[2] in HOOKS
        assert words[3:] == ["--python", sys.executable, "--path", str(ROOT)]


def test_install_refuses_when_the_plugin_is_enabled(
    claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = claude_home / "settings.json"
    settings.write_text(json.dumps({"enabledPlugins": {"consolidate@consolidate-local": True}}))
    before = settings.read_bytes()
    assert main(["install"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert "consolidate@consolidate-local plugin is enabled" in line and "each hook twice" in line
    assert settings.read_bytes() == before
    assert not (Path(os.environ["CONSOLIDATE_STATE_DIR"]) / "bin").exists()
    settings.write_text(json.dumps({"enabledPlugins": {"consolidate@consolidate-local": False}}))
    assert main(["install"]) == 0


def test_uninstall_removes_only_ours(claude_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = claude_home / "settings.json"
    settings.write_text(json.dumps(THEIRS))
    main(["install"])
    capsys.readouterr()
    assert main(["uninstall"]) == 0
    assert "removed 5 consolidate hook(s)" in capsys.readouterr().out
    assert json.loads(settings.read_text()) == THEIRS
    assert main(["uninstall"]) == 0
    assert "no consolidate hooks" in capsys.readouterr().out


def test_project_settings_and_dry_run(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["install", "--scope", "project", str(tmp_path), "--dry-run"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert sorted(printed["hooks"]) == sorted(HOOKS)
    assert not (tmp_path / ".claude").exists()
    assert not (Path(os.environ["CONSOLIDATE_STATE_DIR"]) / "bin").exists()
    assert main(["install", "--scope", "project", "--project", str(tmp_path)]) == 0
    assert sorted(json.loads((tmp_path / ".claude" / "settings.json").read_text())["hooks"]) == sorted(HOOKS)
    assert not (claude_home / "settings.json").exists()


def test_broken_settings_are_never_overwritten(claude_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = claude_home / "settings.json"
    settings.write_text('{"hooks": {')
    assert main(["install"]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert settings.read_text() == '{"hooks": {'
    settings.write_text('{"hooks": []}')
    assert main(["install"]) == 1
    assert settings.read_text() == '{"hooks": []}'


def test_plugin_hooks_json_offers_the_same_hooks() -> None:
    plugin = json.loads((ROOT / "hooks" / "hooks.json").read_text())
    assert plugin["description"]
    assert sorted(plugin["hooks"]) == sorted(HOOKS)
    for event, groups in plugin["hooks"].items():
        (group,) = groups
        assert group.get("matcher") == HOOKS[event][0]
        (handler,) = group["hooks"]
        assert our_event(handler) == event
        assert handler["command"] == (
            f'/bin/sh "${{CLAUDE_PLUGIN_ROOT}}/consolidate/hooks/consolidate-hook.sh" {event} '
            '--via plugin --path "${CLAUDE_PLUGIN_ROOT}"'
        )


@pytest.mark.parametrize(
    ("command", "event"),
    [
        ("consolidate hook Stop", "Stop"),
        ("/venv/bin/python -m consolidate hook PreToolUse", "PreToolUse"),
        ("'/my venv/bin/consolidate' hook SessionStart", "SessionStart"),
        ("/bin/sh '/h/.claude/consolidate/bin/consolidate-hook.sh' Stop --python /v/python", "Stop"),
        ('/bin/sh "${CLAUDE_PLUGIN_ROOT}/consolidate/hooks/consolidate-hook.sh" PreToolUse', "PreToolUse"),
        ("consolidate-other hook Stop", None),
        ("echo consolidate hooked", None),
    ],
)
def test_our_handlers_are_recognised_by_command(command: str, event: str | None) -> None:
    assert our_event({"type": "command", "command": command}) == event
