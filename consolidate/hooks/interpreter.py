"""Which interpreter the hook launcher would use, and whether it can run the hooks.

The launcher (`consolidate-hook.sh`) tries, in order: `$CONSOLIDATE_PYTHON`, the interpreter
`consolidate install` recorded (its `--python`), the one that ran the last hook (`<state>/hook-python`),
then `python3.13`, `python3.12`, `python3.11` and `python3` on PATH. The first that is 3.11+ and can
import `consolidate` from the launcher's `--path` runs the hook. This module answers the same question
from Python, by running each candidate the way the launcher does (for `doctor` and for tests).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..capture.places import claude_home, state_root
from .entry import INTERPRETER_FILE

NAMES = ("python3.13", "python3.12", "python3.11", "python3")
MINIMUM = (3, 11)
_PROBE = (
    "import sys\n"
    "print('.'.join(map(str, sys.version_info[:3])))\n"
    "if sys.version_info < (3, 11): sys.exit(86)\n"
    "if sys.path and sys.path[0] in ('', '.'): del sys.path[0]\n"
    "if sys.argv[1]: sys.path.insert(0, sys.argv[1])\n"
    "try:\n"
    "    import consolidate.hooks.entry\n"
    "except Exception:\n"
    "    try:\n"
    "        import site\n"
    "        site.main()\n"
    "        import consolidate.hooks.entry\n"
    "    except Exception:\n"
    "        sys.exit(87)\n"
)  # the launcher's check, with its flags: -I -S when the package directory is known, else -E


@dataclass(frozen=True)
class Probe:
    candidate: str  # as the launcher names it
    path: str | None  # where it resolves (None: not found)
    version: str | None  # e.g. "3.11.7"
    problem: str | None  # None: this one runs the hooks

    @property
    def suitable(self) -> bool:
        return self.problem is None


def candidates(env: Mapping[str, str] | None = None, recorded: str | None = None) -> list[str]:
    """The launcher's candidates in its order, without repeats."""
    env = os.environ if env is None else env
    cached = _read(state_root(claude_home(None, env), env) / INTERPRETER_FILE)
    found = [env.get("CONSOLIDATE_PYTHON") or None, recorded, cached, *NAMES]
    return list(dict.fromkeys(c for c in found if c))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def probe(candidate: str, package_dir: str | None = None, env: Mapping[str, str] | None = None) -> Probe:
    """Run `candidate` as the launcher would: its version, and whether it can import consolidate."""
    env = os.environ if env is None else env
    where = candidate if "/" in candidate else shutil.which(candidate, path=env.get("PATH"))
    if where is None or not os.access(where, os.X_OK):
        return Probe(candidate, None, None, "not found")
    try:
        done = subprocess.run(
            [where, *(("-I", "-S") if package_dir else ("-E",)), "-c", _PROBE, package_dir or ""],
            capture_output=True, text=True, timeout=20, env=dict(env), stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Probe(candidate, where, None, f"does not start ({exc})")
    version = done.stdout.strip().splitlines()[0] if done.stdout.strip() else None
    if done.returncode == 0 and not _at_least(version, MINIMUM):  # says 0 but is no Python 3.11+
        return Probe(candidate, where, version, "older than 3.11" if version else "not a Python")
    problem = {0: None, 86: "older than 3.11", 87: "cannot import consolidate", 126: "not found",
               127: "not found"}.get(done.returncode, f"exit {done.returncode}")  # fmt: skip
    return Probe(candidate, where, version, problem)


def _at_least(version: str | None, minimum: tuple[int, int]) -> bool:
    try:
        major, minor = (int(part) for part in (version or "").split(".")[:2])
    except ValueError:
        return False
    return (major, minor) >= minimum


def hook_interpreter(
    env: Mapping[str, str] | None = None, recorded: str | None = None, package_dir: str | None = None
) -> tuple[Probe | None, list[Probe]]:
    """(the interpreter the launcher would run, or None; every candidate tried up to it)."""
    tried = []
    for candidate in candidates(env, recorded):
        result = probe(candidate, package_dir or str(Path(__file__).resolve().parents[2]), env)
        tried.append(result)
        if result.suitable:
            return result, tried
    return None, tried


def recorded_python(settings_file: Path) -> str | None:
    """The `--python` `consolidate install` wrote into a settings file's hooks, if any."""
    import json
    import shlex

    from .wiring import our_event

    try:
        data = json.loads(settings_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    for groups in hooks.values() if isinstance(hooks, dict) else []:
        for group in groups if isinstance(groups, list) else []:
            for handler in group.get("hooks") or [] if isinstance(group, dict) else []:
                if our_event(handler):
                    words = shlex.split(handler["command"])
                    if "--python" in words[:-1]:
                        return words[words.index("--python") + 1]
    return None
