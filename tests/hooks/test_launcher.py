"""The hook launcher (`consolidate-hook.sh`) run as Claude Code runs it: it finds an interpreter that
can run the hook, remembers it, and when none can it blocks guarded calls instead of failing open."""

from __future__ import annotations

import glob
import io
import json
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.hooks.install import launcher_source
from consolidate.hooks.interpreter import hook_interpreter, probe, recorded_python
from consolidate.learnings.guards import MARKER, guard_applies
from consolidate.learnings.store import open_store
from tests.helpers.gitrepo import init_repo

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("cat", "date", "mkdir", "git", "tr")
GUARD = {"rule": "Never force-push", "trigger": {"tool": "Bash", "command": "push --force", "guard": True}}
CALL = {"session_id": "s-1", "tool_name": "Bash", "tool_input": {"command": "git push --force"}}


def state() -> Path:
    return Path(os.environ["CONSOLIDATE_STATE_DIR"])


def bare_path(tmp_path: Path, python3: str | None = None) -> str:
    """A PATH with the few tools the launcher's failure path uses, and `python3` as given."""
    bin_dir = tmp_path / "bare-bin"
    bin_dir.mkdir(exist_ok=True)
    for tool in TOOLS:
        if (found := shutil.which(tool)) and not (bin_dir / tool).exists():
            (bin_dir / tool).symlink_to(found)
    if python3 is not None:
        (bin_dir / "python3").write_text(python3)
        (bin_dir / "python3").chmod(0o755)
    return str(bin_dir)


def launch(
    event: str, data: dict, project: Path, path: str, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PATH": path, "CLAUDE_PROJECT_DIR": str(project), **env}
    return subprocess.run(
        ["/bin/sh", str(launcher_source()), event, *args], input=json.dumps(data), capture_output=True,
        text=True, env=full, cwd=project, timeout=60,
    )  # fmt: skip


def capture(project: Path | None, lesson: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(lesson)))
    scope = ["--global"] if project is None else ["--project", str(project)]
    assert main(["learnings", "capture", *scope]) == 0


BROKEN = "#!/bin/sh\necho 'pyenv: python3: command not found' >&2\nexit 127\n"


def test_the_first_interpreter_that_works_runs_the_hook_and_is_remembered(tmp_path: Path) -> None:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    data = {"session_id": "s-1", "cwd": str(tmp_path), "prompt": "не надо так"}
    done = launch("UserPromptSubmit", data, tmp_path, path, "--path", str(ROOT))
    assert done.returncode == 0 and done.stderr == ""
    assert "correction" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    remembered = (state() / "hook-python").read_text().strip()
    assert os.access(remembered, os.X_OK)
    assert probe(remembered, str(ROOT)).suitable


def test_a_package_in_the_session_directory_is_never_imported(tmp_path: Path) -> None:
    """Claude Code runs hooks in the session's directory; a planted `consolidate/` there must not load."""
    planted = tmp_path / "consolidate"
    planted.mkdir()
    (planted / "__init__.py").write_text("open('PLANTED', 'w').close()\n")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    data = {"session_id": "s-1", "cwd": str(tmp_path), "prompt": "wrong, use the other one"}
    done = launch("UserPromptSubmit", data, tmp_path, path, "--path", str(ROOT))
    assert done.returncode == 0 and "correction" in done.stdout
    assert not (tmp_path / "PLANTED").exists()
    no_path = launch(
        "UserPromptSubmit", data, tmp_path, bare_path(tmp_path, BROKEN), "--python", sys.executable
    )
    assert no_path.returncode == 0 and not (tmp_path / "PLANTED").exists()


def test_without_the_package_at_path_site_packages_are_tried_before_giving_up(tmp_path: Path) -> None:
    """With --path the interpreter starts with -I -S; a stale --path still finds an installed package."""
    empty = tmp_path / "moved"
    empty.mkdir()
    data = {"session_id": "s-1", "cwd": str(tmp_path), "prompt": "wrong, use the other one"}
    done = launch("UserPromptSubmit", data, tmp_path, bare_path(tmp_path, BROKEN), "--python", sys.executable,
                  "--path", str(empty))  # fmt: skip
    assert done.returncode == 0 and "correction" in done.stdout
    assert probe(sys.executable, str(empty)).suitable and probe(sys.executable, str(ROOT)).suitable


def test_a_broken_recorded_interpreter_falls_through_to_the_next(tmp_path: Path) -> None:
    gone = str(tmp_path / "gone-venv" / "bin" / "python")
    data = {"session_id": "s-1", "cwd": str(tmp_path), "prompt": "wrong, use the other one"}
    path = f"{bare_path(tmp_path, BROKEN)}{os.pathsep}{Path(sys.executable).parent}"
    done = launch("UserPromptSubmit", data, tmp_path, path, "--python", gone, "--path", str(ROOT))
    assert done.returncode == 0 and "correction" in done.stdout


def test_no_interpreter_and_no_guard_stays_out_of_the_way_and_logs(tmp_path: Path) -> None:
    done = launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path, BROKEN), "--python", "/gone/python")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    (line,) = (state() / "hooks.log").read_text().splitlines()
    assert "PreToolUse: no Python 3.11+ can run consolidate's hooks" in line
    assert "/gone/python (not found)" in line and "python3 (not found)" in line


def test_no_interpreter_with_a_guard_blocks_the_call_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    capture(project, GUARD, monkeypatch)
    done = launch("PreToolUse", CALL, project / "src", bare_path(tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "no Python 3.11+ can run consolidate's hooks" in line and "so this call is blocked" in line
    assert "set CONSOLIDATE_PYTHON" in line
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert launch("PreToolUse", CALL, other, bare_path(tmp_path)).returncode == 0


def test_a_global_guard_blocks_everywhere_and_archiving_lifts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    capture(None, GUARD, monkeypatch)
    assert (state() / "learnings" / "global" / MARKER).read_text() == "*\n"
    assert launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path)).returncode == 2
    (episode,) = open_store(state(), None).episodes()
    assert main(["learnings", "archive", episode.lower(), "--global"]) == 0
    assert not (state() / "learnings" / "global" / MARKER).exists()
    assert launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path)).returncode == 0


def test_a_guard_of_the_main_checkout_holds_in_its_worktrees(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = init_repo(tmp_path / "main")
    repo.write("a.txt", "a\n")
    repo.commit("first")
    worktree = tmp_path / "feature"
    subprocess.run(["git", "-C", str(repo.path), "worktree", "add", "-q", str(worktree)], check=True)
    capture(worktree, GUARD, monkeypatch)  # recorded in the main checkout's store
    assert guard_applies(state(), worktree) and guard_applies(state(), repo.path)
    assert launch("PreToolUse", CALL, worktree, bare_path(tmp_path)).returncode == 2


def test_session_start_says_once_per_session_that_the_hooks_cannot_run(tmp_path: Path) -> None:
    env = {"CLAUDE_CODE_SESSION_ID": "s-42"}
    first = launch("SessionStart", {"source": "startup"}, tmp_path, bare_path(tmp_path), **env)
    notice = json.loads(first.stdout)
    assert notice["systemMessage"].startswith("consolidate: its hooks cannot run in this session")
    assert "Tell the user" in notice["hookSpecificOutput"]["additionalContext"]
    again = launch("SessionStart", {"source": "compact"}, tmp_path, bare_path(tmp_path), **env)
    assert (again.returncode, again.stdout) == (0, "")
    other = launch("SessionStart", {"source": "startup"}, tmp_path, bare_path(tmp_path),
                   CLAUDE_CODE_SESSION_ID="s-43")  # fmt: skip
    assert other.stdout.startswith('{"systemMessage"')


def test_our_own_agent_runs_skip_the_launcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    capture(None, GUARD, monkeypatch)
    done = launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path), CONSOLIDATE_CHILD="1")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def _old_interpreter() -> str | None:
    """A real Python older than 3.11 on this machine, if there is one."""
    home = pwd.getpwuid(os.getuid()).pw_dir
    patterns = [f"{home}/.pyenv/versions/3.{m}*/bin/python3.{m}" for m in (10, 9, 8)]
    patterns += [f"/usr/bin/python3.{m}" for m in (10, 9, 8)]
    for pattern in patterns:
        for found in sorted(glob.glob(pattern)):
            if os.access(found, os.X_OK):
                return found
    return None


def test_a_too_old_python3_is_refused_before_it_imports_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _old_interpreter()
    if old is None:
        pytest.skip("no Python older than 3.11 on this machine")
    capture(tmp_path, GUARD, monkeypatch)
    done = launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path), "--python", old, "--path", str(ROOT))
    assert done.returncode == 2
    assert f"{old} (older than 3.11)" in done.stderr
    assert probe(old, str(ROOT)).problem == "older than 3.11"


def test_a_hook_that_fails_under_a_guard_blocks_instead_of_failing_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from consolidate.hooks.entry import run_hook

    capture(None, GUARD, monkeypatch)
    project_store = open_store(state(), tmp_path)
    project_store.path.parent.mkdir(parents=True)
    project_store.path.mkdir()  # a directory where the episodes file belongs: reading it fails
    stdout = io.StringIO()
    code = run_hook("PreToolUse", io.StringIO(json.dumps({**CALL, "cwd": str(tmp_path)})), stdout,
                    {**os.environ, "CLAUDE_PROJECT_DIR": str(tmp_path)})  # fmt: skip
    assert code == 2 and stdout.getvalue() == ""
    assert "IsADirectoryError" in (state() / "hooks.log").read_text()


def test_the_interpreter_the_hooks_would_use_is_answered_from_python(
    tmp_path: Path, claude_home: Path
) -> None:
    assert main(["install", "--python", "/gone/venv/bin/python"]) == 0
    recorded = recorded_python(claude_home / "settings.json")
    assert recorded == "/gone/venv/bin/python"
    env = {**os.environ, "PATH": f"{bare_path(tmp_path, BROKEN)}{os.pathsep}{Path(sys.executable).parent}"}
    chosen, tried = hook_interpreter(env, recorded, str(ROOT))
    assert chosen is not None and chosen.suitable and chosen.version and chosen.version >= "3.11"
    assert tried[0].candidate == recorded and tried[0].problem == "not found"
    nothing, tried = hook_interpreter({**env, "PATH": bare_path(tmp_path, BROKEN)}, recorded, str(ROOT))
    assert nothing is None and [t.problem for t in tried][-1] == "not found"


def test_an_assistant_written_guard_blocks_only_once_the_user_confirms_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without Python too: the marker follows the same rule as the hook (a guard the user confirmed)."""
    capture(tmp_path, {**GUARD, "source": "marker"}, monkeypatch)  # as tick records a #lesson block
    marker = open_store(state(), tmp_path).path.parent / MARKER
    assert not marker.exists()
    assert launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path)).returncode == 0
    (episode,) = open_store(state(), tmp_path).episodes()
    assert main(["learnings", "confirm", episode, "--project", str(tmp_path)]) == 0
    assert marker.read_text() == f"{os.path.realpath(tmp_path)}\n"
    assert launch("PreToolUse", CALL, tmp_path, bare_path(tmp_path)).returncode == 2
