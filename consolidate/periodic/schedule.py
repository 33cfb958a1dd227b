"""`consolidate schedule install/remove`: a user-level timer that prepares pending plans outside Claude Code.

Two kinds, both per user and never system-wide: a systemd user timer (`~/.config/systemd/user/
consolidate-dream.{service,timer}`) where systemd runs the user's session, else a block of the user's
crontab between two marker lines. What is written is printed first; every file replaced or crontab
rewritten is backed up into `<state>/schedule/`; installing the same schedule twice changes nothing,
and `remove` takes out exactly what `install` put in.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..errors import ConsolidateError, UsageError
from ..fsutil import atomic_write
from .launch import package_parent

BEGIN = (
    "# BEGIN consolidate schedule (written by `consolidate schedule install`; `schedule remove` takes it out)"
)
END = "# END consolidate schedule"
UNIT = "consolidate-dream"
_EVERY = re.compile(r"^\s*(\d+)\s*(h|d|w)\s*$", re.IGNORECASE)
HOURS = {"h": 1, "d": 24, "w": 24 * 7}

Say = Callable[[str], None]


@dataclass(frozen=True)
class Job:
    """What the timer runs: `dream --prepare --background` for each project, every `hours`."""

    projects: tuple[Path, ...]
    hours: int
    claude_home: Path
    engine: str | None = None

    def commands(self) -> list[list[str]]:
        tail = ["--engine", self.engine] if self.engine else []
        return [
            [sys.executable, "-P", "-m", "consolidate", "dream", "--prepare", "--background",
             "--claude-home", str(self.claude_home), *tail, str(project)]
            for project in self.projects
        ]  # fmt: skip

    def environment(self) -> dict[str, str]:
        """What a timer's bare environment needs to find the package and our state."""
        env = {"PYTHONPATH": str(package_parent())}
        if os.environ.get("CONSOLIDATE_STATE_DIR"):
            env["CONSOLIDATE_STATE_DIR"] = os.environ["CONSOLIDATE_STATE_DIR"]
        return env


def parse_every(value: str) -> int:
    """`--every 1d` → 24 (hours); from 1h to 4w."""
    match = _EVERY.match(value)
    hours = int(match.group(1)) * HOURS[match.group(2).lower()] if match else 0
    if not 1 <= hours <= 24 * 28:
        raise UsageError(f"--every: cannot use {value!r} (say 12h, 1d, 2d or 1w; at least 1h, at most 4w)")
    return hours


def choose_kind(wanted: str | None) -> str:
    """systemd when it runs this user's session, else cron; `--with` chooses."""
    if wanted:
        return wanted
    if (
        shutil.which("systemctl")
        and Path("/run/systemd/system").is_dir()
        and os.environ.get("XDG_RUNTIME_DIR")
    ):
        return "systemd"
    if shutil.which("crontab"):
        return "cron"
    raise ConsolidateError(
        "neither a systemd user session nor crontab is available: no timer can be installed"
    )


def backup_dir(state_dir: Path) -> Path:
    return state_dir / "schedule"


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


# -- cron ---------------------------------------------------------------------------------------------


def cron_block(job: Job) -> str:
    """The crontab lines, every `hours` (a day or more: at noon, when machines are on); the projects
    ten minutes apart, so their runs do not share the machine."""
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in job.environment().items())
    lines = []
    for n, command in enumerate(job.commands()):
        when = f"{(7 + 10 * n) % 60} {_hours_field(job.hours)}"
        lines.append(f"{when} {env} {shlex.join(command)} >/dev/null 2>&1".replace("%", "\\%"))
    return "\n".join([BEGIN, *lines, END]) + "\n"


def _hours_field(hours: int) -> str:
    if hours < 24:
        return f"*/{hours} * * *" if hours > 1 else "* * * *"
    days = hours // 24
    return "12 * * *" if days == 1 else f"12 */{days} * *"


def read_crontab() -> str | None:
    """The user's crontab, or None when there is none."""
    done = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    if done.returncode != 0:
        if "no crontab" in done.stderr.lower():
            return None
        raise ConsolidateError(f"crontab -l failed: {done.stderr.strip() or done.returncode}")
    return done.stdout


def without_block(text: str) -> str:
    """The crontab with our block taken out (and only it)."""
    lines = text.splitlines(keepends=True)
    kept, inside = [], False
    for line in lines:
        stripped = line.rstrip("\n")
        if stripped == BEGIN:
            inside = True
            continue
        if inside and stripped == END:
            inside = False
            continue
        if not inside:
            kept.append(line)
    return "".join(kept)


def _write_crontab(text: str | None, state_dir: Path) -> None:
    if text is None:
        done = subprocess.run(["crontab", "-r"], capture_output=True, text=True)
    else:
        staged = backup_dir(state_dir) / f"crontab.new-{_stamp()}"
        atomic_write(staged, text.encode("utf-8"))
        done = subprocess.run(["crontab", str(staged)], capture_output=True, text=True)
        staged.unlink(missing_ok=True)
    if done.returncode != 0:
        raise ConsolidateError(f"crontab failed: {done.stderr.strip() or done.returncode}")


def _backup_crontab(current: str | None, state_dir: Path, say: Say) -> None:
    if current is None:
        return
    path = backup_dir(state_dir) / f"crontab.backup-{_stamp()}"
    atomic_write(path, current.encode("utf-8"))
    say(f"backed up the crontab to {path}")


def install_cron(job: Job, state_dir: Path, *, dry_run: bool, say: Say) -> bool:
    current = read_crontab()
    base = without_block(current or "")
    if base and not base.endswith("\n"):
        base += "\n"
    block = cron_block(job)
    wanted = base + block
    say(f"crontab entry{'' if len(job.projects) == 1 else 'ies'}:\n{block}")
    if (current or "") == wanted:
        say("the crontab already holds this schedule: nothing changed")
        return False
    if dry_run:
        say("dry run: the crontab was not changed")
        return False
    _backup_crontab(current, state_dir, say)
    _write_crontab(wanted, state_dir)
    say("installed in the crontab")
    return True


def remove_cron(state_dir: Path, *, dry_run: bool, say: Say) -> bool:
    current = read_crontab()
    if current is None or BEGIN not in current.splitlines():
        say("the crontab holds no consolidate schedule: nothing changed")
        return False
    rest = without_block(current)
    say(f"removing from the crontab:\n{_block_of(current)}")
    if dry_run:
        say("dry run: the crontab was not changed")
        return False
    _backup_crontab(current, state_dir, say)
    _write_crontab(rest if rest.strip() else None, state_dir)
    say("removed from the crontab" + ("" if rest.strip() else " (it is empty now, so it was deleted)"))
    return True


def _block_of(text: str) -> str:
    start = text.index(BEGIN)
    end = text.index(END, start) + len(END)
    return text[start:end] + "\n"


# -- systemd ------------------------------------------------------------------------------------------


def unit_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "systemd" / "user"


def unit_files(job: Job) -> dict[str, str]:
    env = "\n".join(f"Environment={shlex.quote(f'{k}={v}')}" for k, v in job.environment().items())
    runs = "\n".join(f"ExecStart={shlex.join(cmd)}" for cmd in job.commands())
    service = (
        "[Unit]\nDescription=consolidate: prepare pending memory plans (nothing is applied)\n\n"
        f"[Service]\nType=oneshot\n{env}\n{runs}\n"
    )
    timer = (
        "[Unit]\nDescription=consolidate: prepare pending memory plans periodically\n\n"
        f"[Timer]\nOnBootSec=15min\nOnUnitActiveSec={job.hours}h\nPersistent=true\n\n"
        "[Install]\nWantedBy=timers.target\n"
    )
    return {f"{UNIT}.service": service, f"{UNIT}.timer": timer}


def _systemctl(*args: str) -> None:
    done = subprocess.run(["systemctl", "--user", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ConsolidateError(
            f"systemctl --user {' '.join(args)} failed: {done.stderr.strip() or done.returncode}"
        )


def _backup_file(path: Path, state_dir: Path, say: Say) -> None:
    if path.exists():
        target = backup_dir(state_dir) / f"{path.name}.backup-{_stamp()}"
        atomic_write(target, path.read_bytes())
        say(f"backed up {path} to {target}")


def install_systemd(job: Job, state_dir: Path, *, dry_run: bool, say: Say) -> bool:
    folder = unit_dir()
    files = unit_files(job)
    for name, text in files.items():
        say(f"{folder / name}:\n{text}")
    if all(_read(folder / name) == text for name, text in files.items()):
        say("the systemd user timer already holds this schedule: nothing changed")
        return False
    if dry_run:
        say("dry run: no unit file was written")
        return False
    for name, text in files.items():
        _backup_file(folder / name, state_dir, say)
        atomic_write(folder / name, text.encode("utf-8"))
    _systemctl("daemon-reload")
    _systemctl("enable", "--now", f"{UNIT}.timer")
    say(f"installed and started {UNIT}.timer (`systemctl --user list-timers` shows it)")
    return True


def remove_systemd(state_dir: Path, *, dry_run: bool, say: Say) -> bool:
    folder = unit_dir()
    present = [folder / name for name in (f"{UNIT}.timer", f"{UNIT}.service") if (folder / name).exists()]
    if not present:
        say("no consolidate systemd timer is installed: nothing changed")
        return False
    say("removing " + ", ".join(str(p) for p in present))
    if dry_run:
        say("dry run: nothing was removed")
        return False
    try:
        _systemctl("disable", "--now", f"{UNIT}.timer")
    except ConsolidateError as exc:  # already stopped or never loaded: the files still go
        say(str(exc))
    for path in present:
        _backup_file(path, state_dir, say)
        path.unlink()
    _systemctl("daemon-reload")
    say(f"removed {UNIT}.timer")
    return True


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None
