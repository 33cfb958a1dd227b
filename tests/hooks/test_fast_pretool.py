"""The PreToolUse hook's manifest path: a call no lesson matches is answered from the lesson manifest
with a handful of standard-library imports; anything else — a match, a manifest missing, stale or
corrupt — goes to the full hook, so a guard still denies."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from consolidate.capture.places import claude_home, project_key, repo_root, state_root
from consolidate.hooks import launch
from consolidate.learnings import manifest
from consolidate.learnings.store import open_store, store_path
from tests.helpers.gitrepo import init_repo

ROOT = Path(__file__).resolve().parents[2]
GUARD = {"rule": "Never force-push", "trigger": {"tool": "Bash", "command": "push --force", "guard": True}}
ADVICE = {"rule": "Run the linter before committing", "trigger": {"tool": "Edit|Write", "path": "src/**"}}
# Importing any of these means the call was not answered from the manifest.
SLOW = {"dataclasses", "pathlib", "typing", "datetime", "tempfile", "consolidate.hooks.entry"}
# Modules a call no lesson matches may import beyond `python -I -S -c "import json"`: os, the few of ours.
PRETOOL_BUDGET = 12


def state() -> Path:
    return Path(os.environ["CONSOLIDATE_STATE_DIR"])


def guarded_project(tmp_path: Path) -> Path:
    project = init_repo(tmp_path / "repo").path
    from datetime import UTC, datetime

    store = open_store(state(), project)
    episode, _ = store.capture(GUARD, datetime.now(UTC))
    store.confirm(episode.id, datetime.now(UTC))
    store.capture(ADVICE, datetime.now(UTC))
    return project


def call(project: Path, command: str, **extra: object) -> dict[str, object]:
    return {
        "session_id": "s-1",
        "cwd": str(project),
        "tool_name": "Bash",
        "tool_input": {"command": command},
        **extra,
    }


def edit_call(project: Path) -> dict[str, object]:
    """An Edit under src/: the ADVICE lesson matches it."""
    return {
        "session_id": "s-1",
        "cwd": str(project),
        "tool_name": "Edit",
        "tool_input": {"file_path": "src/a.py"},
    }


def _modules(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:") and "|" in line} - {"imported package"}  # fmt: skip


def json_only() -> set[str]:
    done = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", "-c", "import json"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return _modules(done.stderr)


def launched_imports(
    event: str, data: object, project: Path
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    code = (
        "import sys\nsys.path.insert(0, sys.argv[2])\nfrom consolidate.hooks.launch import bootstrap_main\n"
        "sys.exit(bootstrap_main(sys.argv[1], via='plugin'))"
    )
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", "-c", code, event, str(ROOT)],
                          input=json.dumps(data), capture_output=True, text=True, env=env, cwd=project, timeout=60)  # fmt: skip
    return done, _modules(done.stderr)


def test_a_call_no_lesson_matches_is_answered_from_the_manifest_with_few_imports(tmp_path: Path) -> None:
    project = guarded_project(tmp_path)
    done, names = launched_imports("PreToolUse", call(project, "git status"), project)
    assert done.returncode == 0 and done.stdout == ""
    assert "consolidate.learnings.manifest" in names
    assert sorted(names & SLOW) == []
    extra = sorted(names - json_only() - {"__main__"})
    assert len(extra) <= PRETOOL_BUDGET, extra


def test_a_guarded_call_is_still_denied_and_a_matching_lesson_still_injected(tmp_path: Path) -> None:
    project = guarded_project(tmp_path)
    done, names = launched_imports("PreToolUse", call(project, "git push --force"), project)
    assert done.returncode == 0
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny" and "Never force-push" in answer["permissionDecisionReason"]
    edit = edit_call(project)
    done, _ = launched_imports("PreToolUse", edit, project)
    assert "Run the linter" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    done, _ = launched_imports("PreToolUse", edit, project)  # once per context
    assert done.returncode == 0 and done.stdout == ""


def test_a_lesson_already_injected_in_the_context_is_answered_from_the_manifest(tmp_path: Path) -> None:
    project = guarded_project(tmp_path)
    edit = edit_call(project)
    done, names = launched_imports("PreToolUse", edit, project)
    assert "Run the linter" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "consolidate.hooks.entry" in names  # the first time: the full hook injects and marks it
    done, names = launched_imports("PreToolUse", edit, project)
    assert done.returncode == 0 and done.stdout == "" and sorted(names & SLOW) == []
    subagent = {**edit, "agent_id": "a-7"}  # a subagent's context is a fresh one
    done, _ = launched_imports("PreToolUse", subagent, project)
    assert "Run the linter" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    from consolidate.hooks.dedup import SessionMarks

    SessionMarks(state(), "s-1").reset()  # as a clear or a compact does: the context lost it
    done, _ = launched_imports("PreToolUse", edit, project)
    assert "Run the linter" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    done, _ = launched_imports("PreToolUse", {**edit, "session_id": ""}, project)  # no context to dedupe by
    assert "Run the linter" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]


def test_a_guard_goes_to_the_full_hook_on_every_call(tmp_path: Path) -> None:
    project = guarded_project(tmp_path)
    for _ in range(2):
        done, names = launched_imports("PreToolUse", call(project, "git push --force"), project)
        assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert "consolidate.hooks.entry" in names


def _lie(store_dir: Path) -> None:
    """A manifest that says the store has no lessons."""
    data = json.loads((store_dir / manifest.MANIFEST_FILE).read_text())
    (store_dir / manifest.MANIFEST_FILE).write_text(json.dumps({**data, "triggers": []}))


@pytest.mark.parametrize("damage", ["missing", "stale", "corrupt", "wrong shape", "old version"])
def test_a_guard_denies_whatever_happened_to_its_manifest(damage: str, tmp_path: Path) -> None:
    project = guarded_project(tmp_path)
    store_dir = store_path(state(), project).parent
    target = store_dir / manifest.MANIFEST_FILE
    assert manifest.load(str(store_dir)) is not None
    if damage == "missing":
        target.unlink()
    elif damage == "stale":  # says "no lessons" but was stamped before the last change
        _lie(store_dir)
        with store_path(state(), project).open("a") as handle:
            handle.write("\n")
    elif damage == "corrupt":
        target.write_bytes(b"\x00{not json")
    elif damage == "wrong shape":
        target.write_text(json.dumps({**json.loads(target.read_text()), "triggers": [["Bash", "x"]]}))
    else:
        target.write_text(json.dumps({**json.loads(target.read_text()), "version": 0, "triggers": []}))
    assert manifest.load(str(store_dir)) is None
    done, _ = launched_imports("PreToolUse", call(project, "git push --force"), project)
    assert done.returncode == 0
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert manifest.load(str(store_dir)) is not None  # the full path rebuilt it
    done, names = launched_imports("PreToolUse", call(project, "git status"), project)
    assert done.stdout == "" and sorted(names & SLOW) == []


def test_a_manifest_that_trusts_a_newer_store_is_never_read(tmp_path: Path) -> None:
    """The stamp is taken before the episodes are read: a lesson added since leaves it stale."""
    project = guarded_project(tmp_path)
    store_dir = store_path(state(), project).parent
    before = json.loads((store_dir / manifest.MANIFEST_FILE).read_text())
    from datetime import UTC, datetime

    open_store(state(), project).capture({"rule": "Ask before deleting", "trigger": {"tool": "Bash", "command": "rm "}}, datetime.now(UTC))  # fmt: skip
    (store_dir / manifest.MANIFEST_FILE).write_text(json.dumps(before))
    assert manifest.load(str(store_dir)) is None


def test_a_broken_payload_under_a_guard_still_blocks(tmp_path: Path) -> None:
    project = guarded_project(tmp_path)
    code = "import sys\nsys.path.insert(0, sys.argv[1])\nfrom consolidate.hooks.launch import bootstrap_main\nsys.exit(bootstrap_main('PreToolUse'))"  # fmt: skip
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(ROOT)], input="[1, 2",
                          capture_output=True, text=True, env=env, cwd=project, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "blocked" in done.stderr


def test_the_global_store_is_read_too(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    project = init_repo(tmp_path / "repo").path
    store = open_store(state(), None)
    episode, _ = store.capture(GUARD, datetime.now(UTC))
    store.confirm(episode.id, datetime.now(UTC))
    done, _ = launched_imports("PreToolUse", call(project, "git push --force"), project)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    done, names = launched_imports("PreToolUse", call(project, "git log"), project)
    assert done.stdout == "" and "consolidate.learnings.manifest" in names and not names & SLOW


def _worktree(main: Path, where: Path) -> Path:
    subprocess.run(
        ["git", "-C", str(main), "commit", "--allow-empty", "-qm", "start"], check=True, capture_output=True
    )
    subprocess.run(
        ["git", "-C", str(main), "worktree", "add", "-q", str(where)], check=True, capture_output=True
    )
    return where


def test_the_light_places_agree_with_the_full_ones(tmp_path: Path) -> None:
    main = init_repo(tmp_path / "main repo").path
    (main / "src" / "deep").mkdir(parents=True)
    tree = _worktree(main, tmp_path / "wt")
    (tmp_path / "plain" / "ünï").mkdir(parents=True)
    (tmp_path / "link").symlink_to(main / "src")
    nested = main / "vendor" / "inner"
    nested.mkdir(parents=True)
    init_repo(nested)
    for start in (
        main,
        main / "src" / "deep",
        tree,
        tmp_path / "plain" / "ünï",
        tmp_path / "link",
        nested,
        Path("/"),
    ):
        assert launch.repo_root(str(start)) == str(repo_root(start)), start
        assert launch.project_key(launch.repo_root(str(start))) == project_key(repo_root(start)), start
    env = dict(os.environ)
    for extra in ({}, {"CONSOLIDATE_STATE_DIR": "~/st/"}, {"CLAUDE_CONFIG_DIR": "~/cfg"}):
        merged = {k: v for k, v in {**env, **extra}.items() if k in extra or k not in ("CONSOLIDATE_STATE_DIR", "CLAUDE_CONFIG_DIR")}  # fmt: skip
        assert Path(launch.state_dir(merged)) == state_root(claude_home(None, merged), merged)


# What each event may import beyond `python -I -S -c "import json"` (the counts when they were last
# lowered, plus a small margin): a new import on a hook path has to be paid on every prompt or tool
# call, so it must raise a number here on purpose. The PreToolUse+lesson case runs the full hook.
# dataclasses (with inspect and ast), typing and OpenSSL's hashlib stay off every hook path.
BUDGETS = {"PreToolUse": PRETOOL_BUDGET, "PreToolUse+lesson": 52, "SessionStart": 78, "UserPromptSubmit": 67, "Stop": 65}  # fmt: skip
NEVER = {"tempfile", "shutil", "bz2", "lzma", "random", "msgspec", "orjson", "yaml", "jinja2", "markdown_it", "pydantic", "rich", "git", "anthropic", "claude_agent_sdk",
         "dataclasses", "inspect", "ast", "typing", "_hashlib", "tomllib"}  # fmt: skip


@pytest.mark.parametrize("event", sorted(BUDGETS))
def test_each_hook_event_imports_within_its_budget(event: str, tmp_path: Path) -> None:
    from tests.capture.fixtures import Session, write_session

    project = guarded_project(tmp_path)
    session = Session(cwd=str(project)).user("x" * 1200).assistant("done <!-- learning: keep it light -->")
    transcript = write_session(Path(os.environ["CLAUDE_CONFIG_DIR"]), project, session)
    command = "push --force --dry-run" if event == "PreToolUse+lesson" else "git status"
    data = {**call(project, command), "session_id": session.session_id, "transcript_path": str(transcript),
            "prompt": "no, the other way", "source": "startup", "stop_hook_active": False}  # fmt: skip
    done, names = launched_imports(event.split("+")[0], data, project)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "consolidate.hooks.launch" in names
    assert sorted(n for n in names if n.split(".")[0] in NEVER) == []
    extra = sorted(names - json_only() - {"__main__"})
    print(event, len(extra))
    assert len(extra) <= BUDGETS[event], extra
    if event == "PreToolUse+lesson":
        assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
