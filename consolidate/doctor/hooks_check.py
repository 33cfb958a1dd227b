"""Are our hooks wired once, and can the command each one runs start a suitable Python?

Our handlers are found wherever Claude Code reads hooks: the user's, the project's and the local
settings files, and the plugin's `hooks/hooks.json` when the plugin is enabled. A hook command is
resolved to the interpreter it would start: a leading `python3…` word through PATH, else the script it
names through its `#!` line (`consolidate` console scripts, `/usr/bin/env python3`). That interpreter
must exist, be 3.11+, and import our hook entry with the command's own `PYTHONPATH`.

`hook_interpreter` is the one place that answers "which Python would this hook run". For our shell
launcher (`consolidate-hook.sh`, what install and the plugin wire) the answer is the launcher's own:
`consolidate.hooks.interpreter.hook_interpreter` tries its candidates the way the launcher does, with
the package directory the command names.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..fsutil import load_json_object
from ..hooks.install import HOOKS, LAUNCHER, our_event
from .context import DoctorContext
from .report import Check

PLUGIN = "consolidate"
MIN_VERSION = (3, 11)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?$")
PROBE = "import sys; import consolidate.hooks.entry; print('%d.%d' % sys.version_info[:2])"


@dataclass(frozen=True)
class Wiring:
    source: str  # where it is wired: a settings file or `plugin consolidate@…`
    event: str
    command: str
    plugin_root: Path | None = None


@dataclass(frozen=True)
class Interpreter:
    command: str
    path: Path | None  # None: nothing on PATH / no such file
    env: tuple[tuple[str, str], ...] = ()  # assignments the command makes before running it
    problem: str = ""  # why it could not be resolved


def our_wirings(ctx: DoctorContext) -> list[Wiring]:
    found: list[Wiring] = []
    for name, settings in ctx.settings_files.items():
        found += _wirings(name, settings.get("hooks"))
    for plugin_id, root in enabled_plugins(ctx):
        hooks_file = root / "hooks" / "hooks.json" if root else None
        data = load_json_object(hooks_file) if hooks_file else {}
        found += _wirings(f"plugin {plugin_id}", data.get("hooks"), root)
    return found


def _wirings(source: str, hooks: Any, root: Path | None = None) -> list[Wiring]:
    found = []
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            for handler in (group.get("hooks") or []) if isinstance(group, dict) else ():
                if our_event(handler) == event:
                    found.append(Wiring(source, event, handler["command"], root))
    return found


def enabled_plugins(ctx: DoctorContext) -> list[tuple[str, Path | None]]:
    """Our plugin ids enabled in any settings file, with where each is installed (when known)."""
    enabled = {
        plugin_id
        for settings in ctx.settings_files.values()
        for plugin_id, on in (settings.get("enabledPlugins") or {}).items()
        if on is True and plugin_id.split("@")[0] == PLUGIN
    }
    installed = _install_paths(
        load_json_object(ctx.layout.claude_home / "plugins" / "installed_plugins.json")
    )
    return [(plugin_id, installed.get(plugin_id)) for plugin_id in sorted(enabled)]


def _install_paths(data: dict[str, Any]) -> dict[str, Path]:
    """`installed_plugins.json`, either layout: {"plugins": {id: {…installPath}}} or {id: [{…}]}."""
    paths: dict[str, Path] = {}
    plugins = data.get("plugins") if isinstance(data.get("plugins"), dict) else data
    for plugin_id, entry in plugins.items() if isinstance(plugins, dict) else ():
        for item in entry if isinstance(entry, list) else [entry]:
            if isinstance(item, dict) and isinstance(item.get("installPath"), str):
                paths[plugin_id] = Path(item["installPath"])
    return paths


def hook_interpreter(command: str, plugin_root: Path | None, env: Mapping[str, str]) -> Interpreter:
    """The Python a hook command would start, resolved as the shell would (PATH from `env`)."""
    if plugin_root is not None:
        command = command.replace("${CLAUDE_PLUGIN_ROOT}", str(plugin_root)).replace(
            "$CLAUDE_PLUGIN_ROOT", str(plugin_root)
        )
    try:
        words = shlex.split(command)
    except ValueError as exc:
        return Interpreter(command, None, problem=f"cannot parse the command: {exc}")
    assignments = []
    while words and _ASSIGNMENT.match(words[0]):
        key, value = words.pop(0).split("=", 1)
        assignments.append((key, value))
    if not words:
        return Interpreter(command, None, tuple(assignments), "the command runs nothing")
    if any(Path(word).name == LAUNCHER for word in words):
        return _launcher_interpreter(command, words, env)
    program = _which(words[0], env)
    if program is None:
        return Interpreter(command, None, tuple(assignments), f"{words[0]}: not found")
    if _PYTHON.match(program.name) or program.name.startswith("python"):
        return Interpreter(command, program, tuple(assignments))
    return Interpreter(command, _shebang_python(program, env), tuple(assignments),
                       "" if _shebang_python(program, env) else f"{program}: no Python in its #! line")  # fmt: skip


def _launcher_interpreter(command: str, words: list[str], env: Mapping[str, str]) -> Interpreter:
    """What our shell launcher would start: its own candidates, with the command's --python and --path."""
    from ..hooks import interpreter as launcher

    script = next(Path(word) for word in words if Path(word).name == LAUNCHER)
    if not script.is_file():
        return Interpreter(command, None, problem=f"the hook launcher {script} is missing")

    def option(name: str) -> str | None:
        return words[words.index(name) + 1] if name in words[:-1] else None

    package = option("--path")
    chosen, tried = launcher.hook_interpreter(env, option("--python"), package)
    assignments = (("PYTHONPATH", package),) if package else ()
    if chosen is None or chosen.path is None:
        attempts = ", ".join(f"{t.candidate} ({t.problem})" for t in tried)
        return Interpreter(
            command, None, assignments, f"no Python 3.11+ can run the hooks (tried: {attempts})"
        )
    return Interpreter(command, Path(chosen.path), assignments)


def _which(word: str, env: Mapping[str, str]) -> Path | None:
    if "/" in word:
        path = Path(word).expanduser()
        return path if path.is_file() else None
    found = shutil.which(word, path=env.get("PATH", os.defpath))
    return Path(found) if found else None


def _shebang_python(script: Path, env: Mapping[str, str]) -> Path | None:
    try:
        with open(script, "rb") as handle:
            first = handle.readline(512).decode("utf-8", "replace").strip()
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    if words and Path(words[0]).name == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return _which(words[0], env) if words and "python" in Path(words[0]).name else None


def probe(interpreter: Interpreter, env: Mapping[str, str]) -> str:
    """ "" when the interpreter runs our hook entry on 3.11+, else why not (one line)."""
    if interpreter.path is None:
        return interpreter.problem
    run_env = {**env, **dict(interpreter.env)}
    try:
        done = subprocess.run(
            [str(interpreter.path), "-c", PROBE], env=run_env, capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{interpreter.path}: {exc}"
    if done.returncode != 0:
        version = _version(interpreter.path, run_env)
        if version and version < MIN_VERSION:
            return f"{interpreter.path} is Python {'.'.join(map(str, version))}; the hooks need 3.11+"
        last = (done.stderr.strip().splitlines() or ["exit " + str(done.returncode)])[-1]
        return f"{interpreter.path} cannot import consolidate: {last}"
    major, minor = (int(x) for x in done.stdout.strip().split("."))
    if (major, minor) < MIN_VERSION:
        return f"{interpreter.path} is Python {major}.{minor}; the hooks need 3.11+"
    return ""


def _version(path: Path, env: Mapping[str, str]) -> tuple[int, int] | None:
    try:
        done = subprocess.run([str(path), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], env=dict(env),
                              capture_output=True, text=True, timeout=20)  # fmt: skip
        major, minor = (int(x) for x in done.stdout.strip().split("."))
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None
    return major, minor


def hooks_installed_once(ctx: DoctorContext) -> Check:
    wirings = our_wirings(ctx)
    if not wirings:
        return Check("hooks-installed-once", "warn", "the consolidate hooks are not installed: no capture, lessons or auto-recall",
                     "run `consolidate install`, or enable the plugin")  # fmt: skip
    by_event: dict[str, list[str]] = {event: [] for event in HOOKS}
    for wiring in wirings:
        by_event.setdefault(wiring.event, []).append(wiring.source)
    twice = {event: sources for event, sources in by_event.items() if len(sources) > 1}
    if twice:
        event, sources = next(iter(twice.items()))
        return Check("hooks-installed-once", "fail", f"{len(twice)} hook(s) run twice, e.g. {event} from {' and '.join(sources)}",
                     "keep one: `consolidate uninstall` (keeps the plugin), or disable the plugin")  # fmt: skip
    missing = [event for event, sources in by_event.items() if not sources]
    if missing:
        return Check(
            "hooks-installed-once",
            "fail",
            f"not wired: {', '.join(missing)}",
            "run `consolidate install` (it adds what is missing)",
        )
    return Check.ok("hooks-installed-once", f"each hook wired once ({wirings[0].source})")


def hooks_runnable(ctx: DoctorContext) -> Check:
    wirings = our_wirings(ctx)
    if not wirings:
        return Check.ok("hooks-runnable", "no hooks installed: nothing to run")
    problems: dict[str, str] = {}
    checked: dict[Interpreter, str] = {}
    for wiring in wirings:
        interpreter = hook_interpreter(wiring.command, wiring.plugin_root, ctx.env)
        if interpreter not in checked:
            checked[interpreter] = probe(interpreter, ctx.env)
        if checked[interpreter]:
            problems.setdefault(checked[interpreter], wiring.event)
    if not problems:
        paths = sorted({str(i.path) for i in checked})
        return Check.ok("hooks-runnable", f"hooks start {', '.join(paths)} (3.11+, imports consolidate)")
    problem, event = next(iter(problems.items()))
    return Check("hooks-runnable", "fail", f"{event} hook: {problem}",
                 "reinstall with a 3.11+ Python: `<venv>/bin/consolidate install` (the hook command names that interpreter)")  # fmt: skip
