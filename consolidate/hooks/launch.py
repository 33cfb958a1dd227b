"""Where the shell launcher (`consolidate-hook.sh`) lands: the fewest imports each event needs.

A PreToolUse call first asks the lesson manifests (`learnings/manifest.py`) of the project's store and
of the global store whether any lesson could match it, with `os`, `json` and — only for a trigger the
call reaches — `re`. When none can, or every lesson it matches is advice already injected in this
context, the hook answers nothing and exits. A guard lesson that matches, a lesson not yet injected, a
manifest missing, stale or unreadable, or any fault here hands the call to the full hook
(`entry.run_hook`), which decides, injects once per context and blocks a guarded call it cannot
decide: this path can only ever say "the full hook would say nothing". The other events run the full
hook directly.
"""

from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False  # not `typing`: every import here is paid on each tool call
if TYPE_CHECKING:
    from collections.abc import Mapping

CHILD_ENV = "CONSOLIDATE_CHILD"
INTERPRETER_FILE = "hook-python"
PATH_KEYS = ("file_path", "path", "notebook_path")  # as `lessons.ToolCall` reads them
GLOBAL_STORE = "global"
SESSIONS_DIR = "sessions"  # as `dedup.SESSIONS_DIR`
MAX_KEY_LENGTH = 200


def bootstrap_main(event: str, via: str = "settings") -> int:
    env = os.environ
    if env.get(CHILD_ENV) == "1":
        return 0
    state = state_dir(env)
    _remember_interpreter(state)
    if via == "plugin" and _maybe_wired_in_settings(env):
        from .entry import bootstrap_main as full

        return full(event, via=via)
    return answer(event, env, state)


def answer(event: str, env: Mapping[str, str], state: str) -> int:
    """Run the hook for `event` on stdin: PreToolUse asks the manifests first."""
    if event != "PreToolUse":
        from .entry import run_hook

        return run_hook(event, sys.stdin, sys.stdout, env)
    text = sys.stdin.read()
    try:
        if no_lesson_applies(json.loads(text or "{}"), env, state):
            return 0
    except Exception:  # the full hook decides, logs and fails closed
        pass
    import io

    from .entry import run_hook

    return run_hook(event, io.StringIO(text), sys.stdout, env)


def no_lesson_applies(payload: object, env: Mapping[str, str], state: str) -> bool:
    """True only when the fresh manifests show that the full hook would say nothing: no lesson's
    trigger matches this call, or every lesson it matches only advises and was injected in this
    context already (its once-per-context mark exists)."""
    from ..learnings import manifest
    from ..learnings.triggermatch import fields_match

    if not isinstance(payload, dict):
        return False
    tool = str(payload.get("tool_name") or "")
    if not tool:
        return True  # as the full hook: a call without a tool name matches nothing
    project_dir = str(env.get("CLAUDE_PROJECT_DIR") or payload.get("cwd") or os.getcwd())
    root = repo_root(project_dir)
    learnings = os.path.join(state, "learnings")
    triggers = []
    for key in (project_key(root), GLOBAL_STORE):
        found = manifest.load(os.path.join(learnings, key))
        if found is None:
            return False
        triggers += found
    if not triggers:
        return True
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        tool_input = {}
    command = tool_input.get("command")
    command = command if isinstance(command, str) else ""
    paths = tuple(str(tool_input[k]) for k in PATH_KEYS if isinstance(tool_input.get(k), str))
    cwd = str(payload.get("cwd") or "")
    matched = [(lesson, guard) for fields, lesson, guard in triggers if fields_match(fields, tool, command, paths, cwd, root)]  # fmt: skip
    return not matched or all_injected(matched, payload, state)


def all_injected(matched: list[tuple[str, bool]], payload: dict[str, object], state: str) -> bool:
    """Whether every matched lesson is advice already injected in this context (`dedup.SessionMarks`
    of `HookContext.context_id`). A guard, even one that only advises, is left to the full hook."""
    if any(guard for _, guard in matched):
        return False
    session, agent = str(payload.get("session_id") or ""), str(payload.get("agent_id") or "")
    if not _safe_id(session):
        return False  # no context to dedupe by: the full hook injects every time
    context = f"{session}.{agent}" if agent and _safe_id(agent) else session
    marks = os.path.join(state, SESSIONS_DIR, context, "injected")
    return all(_safe_id(lesson) and os.path.exists(os.path.join(marks, lesson)) for lesson, _ in matched)


def _safe_id(value: str) -> bool:
    """`dedup.SAFE_ID` without `re`: 1-100 ASCII letters, digits, `_` or `-`."""
    return 0 < len(value) <= 100 and value.isascii() and all(c.isalnum() or c in "_-" for c in value)


def state_dir(env: Mapping[str, str]) -> str:
    """`settings.state_dir(capture.places.claude_home(None, env), env)` as a string."""
    configured = env.get("CONSOLIDATE_STATE_DIR")
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(claude_home(env), "consolidate")


def claude_home(env: Mapping[str, str]) -> str:
    """`capture.places.claude_home(None, env)` as a string."""
    configured = env.get("CLAUDE_CONFIG_DIR")
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), ".claude")


def repo_root(start: str) -> str:
    """`capture.places.repo_root` with `os.path`: the main checkout of the repository holding `start`
    (a linked worktree resolves to it), else the real path of `start`."""
    real = os.path.realpath(start)
    current = real
    while True:
        dot_git = os.path.join(current, ".git")
        if os.path.exists(dot_git):
            break
        parent = os.path.dirname(current)
        if parent == current:
            return real
        current = parent
    if os.path.isdir(dot_git):
        return current
    try:
        with open(dot_git, encoding="utf-8") as handle:
            text = handle.read().strip()
    except (OSError, UnicodeDecodeError):
        return current
    if not text.startswith("gitdir:"):
        return current
    gitdir = os.path.realpath(os.path.join(current, text.removeprefix("gitdir:").strip()))
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as handle:
            common = os.path.realpath(os.path.join(gitdir, handle.read().strip()))
    except (OSError, UnicodeDecodeError):
        common = gitdir
    return os.path.dirname(common) if os.path.basename(common) == ".git" else current


def project_key(path: str) -> str:
    """`memory_layout.paths.project_key`: every character but ASCII letters and digits becomes `-`."""
    real = os.path.realpath(path)
    if not real.isascii():
        import unicodedata

        real = unicodedata.normalize("NFC", real)
    key = "".join(c if c.isascii() and c.isalnum() else "-" for c in real)
    return key[:MAX_KEY_LENGTH]


def _remember_interpreter(state: str) -> None:
    """`entry._remember_interpreter` with `os` alone: read first (it rarely changes), then replace."""
    path = os.path.join(state, INTERPRETER_FILE)
    wanted = sys.executable + "\n"
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == wanted:
                return
    except (OSError, UnicodeDecodeError):
        pass
    temp = f"{path}.{os.getpid()}.tmp"
    try:  # unwritable: the launcher just tries the usual names again
        os.makedirs(state, exist_ok=True)
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(wanted)
        os.replace(temp, path)
    except OSError:
        from contextlib import suppress

        with suppress(OSError):
            os.unlink(temp)


def _maybe_wired_in_settings(env: Mapping[str, str]) -> bool:
    """Whether a settings file may wire our hooks too (then `entry` checks properly): a handler of ours
    names `consolidate hook` or `consolidate-hook.sh`, so a file without "consolidate" followed closely
    by "hook" wires none."""
    files = [os.path.join(claude_home(env), "settings.json")]
    project_dir = env.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    files += [os.path.join(project_dir, ".claude", name) for name in ("settings.json", "settings.local.json")]
    for name in files:
        try:
            with open(name, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        at = text.find("consolidate")
        while at >= 0:
            if "hook" in text[at + 11 : at + 40]:
                return True
            at = text.find("consolidate", at + 11)
    return False
