"""SessionEnd starts a real detached run that outlives the hook; SessionStart announces its plan once."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from consolidate.hooks.entry import run_hook
from consolidate.lock import run_lock
from consolidate.periodic import store
from consolidate.periodic.background import log_path
from consolidate.periodic.launch import start_background
from consolidate.periodic.pending import folder_of, load_pending
from consolidate.runs import lock_file
from tests.helpers.memory import snapshot_bytes
from tests.hooks.test_entry import HEAVY
from tests.periodic.conftest import script_file

ROOT = Path(__file__).resolve().parents[2]
SESSION = "9b2c1d7e-0a3f-4c6e-8d5b-1e2f3a4b5c6d"


def configure(settings, text: str) -> None:  # type: ignore[no-untyped-def]
    settings.state_dir.mkdir(parents=True, exist_ok=True)
    (settings.state_dir / "config.toml").write_text(text)


def due(settings, engine: str, *, more: str = "") -> None:  # type: ignore[no-untyped-def]
    """A dream is due after any time and two sessions (the example has two), run with `engine`."""
    configure(settings, f'[reminder]\nhours = 0\nsessions = 1\n\n[periodic]\nengine = "{engine}"\n{more}')


def hook_env(example) -> dict[str, str]:  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    return {**env, "CLAUDE_CONFIG_DIR": str(example.claude_home), "PYTHONPATH": str(ROOT)}


def end_payload(example, event: str = "SessionEnd", **more: str) -> str:  # type: ignore[no-untyped-def]
    return json.dumps(
        {
            "session_id": SESSION,
            "transcript_path": str(example.transcripts_dir / f"{SESSION}.jsonl"),
            "cwd": str(example.project),
            "hook_event_name": event,
            **more,
        }
    )


def hook_in_process(example, event: str, **more: str) -> str:  # type: ignore[no-untyped-def]
    stdout = io.StringIO()
    assert run_hook(event, io.StringIO(end_payload(example, event, **more)), stdout, hook_env(example)) == 0
    return stdout.getvalue()


def prepare_now(example, engine: str) -> None:  # type: ignore[no-untyped-def]
    from consolidate.cli import main

    assert (
        main(
            [
                "dream",
                "--prepare",
                str(example.project),
                "--claude-home",
                str(example.claude_home),
                "--engine",
                engine,
            ]
        )
        == 0
    )


def background_args(example) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        "dream",
        "--prepare",
        "--background",
        str(example.project),
        "--claude-home",
        str(example.claude_home),
    ]


def wait_for(condition, seconds: float = 120.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_session_end_starts_a_detached_run_that_outlives_the_hook(example, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    due(settings, f"scripted:{script_file(tmp_path, sleep=2)}")
    before = snapshot_bytes(example.memory_dir)
    hook = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "consolidate", "hook", "SessionEnd"],
        input=end_payload(example),
        capture_output=True,
        text=True,
        env=hook_env(example),
        cwd=tmp_path,
        timeout=60,
    )
    assert hook.returncode == 0 and hook.stdout == ""
    imported = {
        line.rsplit("|", 1)[1].strip().split(".")[0] for line in hook.stderr.splitlines() if "|" in line
    }
    assert "subprocess" in imported and not imported & set(HEAVY)  # it started the run, and stayed light
    folder = folder_of(settings)
    pid = store.running_pid(folder)
    assert pid is not None, "the hook exited and no background run is alive"
    assert store.read_summary(folder) is None  # still working after the hook is gone
    # a second SessionEnd while it runs starts nothing
    assert hook_in_process(example, "SessionEnd") == ""
    assert store.running_pid(folder) == pid
    assert wait_for(lambda: store.read_summary(folder) is not None and store.running_pid(folder) is None)
    pending = load_pending(settings)
    assert pending is not None and [p.action for p in pending.plan.proposals] == ["REMOVE", "CLUSTER", "ADD"]
    assert snapshot_bytes(example.memory_dir) == before  # nothing applied
    assert not log_path(settings.state_dir).exists()


def test_the_background_run_holds_the_lock(example, settings, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    due(settings, f"scripted:{script_file(tmp_path, sleep=3)}")
    hook_in_process(example, "SessionEnd")
    folder = folder_of(settings)
    assert store.running_pid(folder) is not None
    from consolidate.cli import main

    assert wait_for(lambda: _locked(settings), 60)
    code = main(["dream", str(example.project), "--claude-home", str(example.claude_home), "--json"])
    assert code == 1 and "another consolidate run" in capsys.readouterr().err
    assert wait_for(lambda: store.running_pid(folder) is None)
    assert store.read_summary(folder) is not None


def _locked(settings) -> bool:  # type: ignore[no-untyped-def]
    from consolidate.periodic.launch import run_lock_held

    return run_lock_held(settings.state_dir, settings.memory_dir)


def test_a_held_lock_starts_nothing(example, settings, script) -> None:  # type: ignore[no-untyped-def]
    due(settings, script)
    with run_lock(lock_file(settings), "test"):
        hook_in_process(example, "SessionEnd")
        assert store.running_pid(folder_of(settings)) is None
        assert (
            start_background(
                settings.state_dir, settings.memory_dir, str(example.project), example.claude_home, {}
            )
            is None
        )
    assert not (folder_of(settings) / store.RUNNING_FILE).exists()


def test_nothing_starts_when_no_dream_is_due_or_it_is_turned_off(example, settings, script) -> None:  # type: ignore[no-untyped-def]
    configure(settings, f'[periodic]\nengine = "{script}"\n')  # the defaults: 24 h and 5 sessions
    hook_in_process(example, "SessionEnd")
    assert not folder_of(settings).exists()
    due(settings, script, more="enabled = false\n")
    hook_in_process(example, "SessionEnd")
    assert not folder_of(settings).exists()


def test_a_fresh_pending_plan_is_not_prepared_again(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]

    prepare_now(example, script)
    due(settings, script)
    hook_in_process(example, "SessionEnd")
    assert not (folder_of(settings) / store.RUNNING_FILE).exists()
    due(settings, script, more="refresh_hours = 0\n")
    hook_in_process(example, "SessionEnd")
    assert (folder_of(settings) / store.RUNNING_FILE).exists()
    assert wait_for(lambda: store.running_pid(folder_of(settings)) is None)


def test_a_failed_run_logs_one_line_and_keeps_the_previous_plan(
    example, settings, script, tmp_path, capsys
) -> None:  # type: ignore[no-untyped-def]
    from consolidate.cli import main

    prepare_now(example, script)
    kept = snapshot_bytes(folder_of(settings))
    configure(settings, "[periodic]\ntimeout_minutes = 0.001\n")  # one second
    slow = f"scripted:{script_file(tmp_path, sleep=30)}"
    args = background_args(example)
    run = subprocess.run(
        [sys.executable, "-m", "consolidate", *args, "--engine", slow],
        capture_output=True, text=True, env=hook_env(example), cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1 and run.stdout == "" and run.stderr == ""
    assert snapshot_bytes(folder_of(settings)) == kept
    lines = log_path(settings.state_dir).read_text().splitlines()
    assert len(lines) == 1 and "dream --prepare failed: stopped after 1 s" in lines[0]
    assert main(["dream", *args[1:], "--engine", "scripted:/no/such/script.json"]) == 1
    lines = log_path(settings.state_dir).read_text().splitlines()
    assert len(lines) == 2 and "cannot read the engine script" in lines[1]
    assert snapshot_bytes(folder_of(settings)) == kept
    capsys.readouterr()
    assert main(["status", str(example.project), "--claude-home", str(example.claude_home), "--json"]) == 0
    assert (
        "cannot read the engine script" in json.loads(capsys.readouterr().out)["pending_plan"]["last_failure"]
    )


def test_session_start_announces_a_pending_plan_once(example, settings, script, capsys) -> None:  # type: ignore[no-untyped-def]
    from consolidate.cli import main

    due(settings, script)  # the reminder would fire too: the announcement takes its place
    prepare_now(example, script)
    first = json.loads(hook_in_process(example, "SessionStart", source="startup"))
    text = first["hookSpecificOutput"]["additionalContext"]
    assert (
        "A consolidation plan is ready: 3 proposal(s) to decide (1 removal(s)) — run /consolidate:dream or `consolidate review`"
        in text
    )
    assert "has never been consolidated" not in text
    second = hook_in_process(example, "SessionStart", source="startup")
    assert "consolidation plan" not in second and "never been consolidated" not in second
    prepare_now(example, "offline")
    third = hook_in_process(example, "SessionStart", source="startup")
    assert "A consolidation plan is ready:" in third  # a newer plan is announced once in its turn
    main(["review", str(example.project), "--claude-home", str(example.claude_home), "--yes"])
    assert "consolidation plan is ready" not in hook_in_process(example, "SessionStart", source="startup")


def test_a_project_that_is_gone_is_one_log_line(tmp_path, isolated_env, capsys) -> None:  # type: ignore[no-untyped-def]
    from consolidate.cli import main

    gone = tmp_path / "removed-project"
    assert main(["dream", "--prepare", "--background", str(gone)]) == 2
    assert capsys.readouterr() == ("", "")
    lines = log_path(Path(os.environ["CONSOLIDATE_STATE_DIR"])).read_text().splitlines()
    assert len(lines) == 1 and f"{gone}: dream --prepare failed: no such project directory" in lines[0]


def test_an_interpreter_without_our_dependencies_is_one_log_line(example, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The hook's python3 may run hooks (standard library only) yet lack pydantic: the run says so."""
    args = background_args(example)
    run = subprocess.run(
        [sys.executable, "-S", "-P", "-m", "consolidate", *args],
        capture_output=True, text=True, env=hook_env(example), cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1 and run.stdout == "" and run.stderr == ""
    lines = log_path(settings.state_dir).read_text().splitlines()
    assert (
        len(lines) == 1
        and "cannot import" in lines[0]
        and "install consolidate with its dependencies" in lines[0]
    )
    assert store.read_summary(folder_of(settings)) is None
