"""The pending plan's folder in our state dir: standard library only, the hooks read it.

One folder per memory dir, `<state>/pending/<key>/`:

- `plan-<id>.json` the plan (the contract of SPEC §5), written by `dream --prepare`; a newer one replaces it
- `pending.json`  the plan's file name and what the hooks and `status` read without parsing the plan: when and by which engine it
                  was made, proposals by action, the files it was made from (hash, mtime, size), the
                  repository's HEAD, tokens and cost when an LLM engine ran, and the queue and backlog
                  ids the review settles
- `announced`     the plan file SessionStart has already announced (once per plan)
- `running`       the pid of the background run preparing a plan (`start.lock` serialises its start)

Both are written atomically, the new plan beside the old one, then the summary that names it, then the
old plan is removed: whatever moment a run is killed at, the summary names a whole plan.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from pathlib import Path

from ..fsutil import atomic_write
from ..settings import memory_key

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any


PENDING_DIR = "pending"
SUMMARY_FILE = "pending.json"
ANNOUNCED_FILE = "announced"
RUNNING_FILE = "running"
REMOVALS = ("REMOVE", "MERGE")  # proposals that retire entries: what a reviewer looks at twice


def pending_dir(state_dir: Path, memory_dir: str | os.PathLike[str]) -> Path:
    return state_dir / PENDING_DIR / memory_key(memory_dir)


def read_summary(folder: Path) -> dict[str, Any] | None:
    """The pending plan's summary, or None when there is none (or it cannot be read)."""
    try:
        data = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("created_at"), str) else None


def write_pending(folder: Path, plan_json: str, summary: dict[str, Any]) -> dict[str, Any]:
    """Replace the pending plan: the new plan, the summary that names it, then the old plan goes."""
    data = plan_json.encode("utf-8")
    import hashlib  # here: a plan can be large, and the hooks that read this module never write one

    name = f"plan-{hashlib.sha256(data).hexdigest()[:12]}.json"
    atomic_write(folder / name, data)
    summary = {**summary, "plan_file": name}
    atomic_write(folder / SUMMARY_FILE, (json.dumps(summary, indent=1, ensure_ascii=False) + "\n").encode())
    _remove_plans(folder, keep=name)
    return summary


def plan_path(folder: Path, summary: dict[str, Any]) -> Path:
    return folder / Path(str(summary.get("plan_file") or "plan.json")).name


def discard_pending(folder: Path) -> None:
    """The plan was reviewed: nothing is pending any more (the summary goes first)."""
    for name in (SUMMARY_FILE, ANNOUNCED_FILE):
        with suppress(FileNotFoundError):
            (folder / name).unlink()
    _remove_plans(folder, keep=None)


def _remove_plans(folder: Path, keep: str | None) -> None:
    for path in folder.glob("plan-*.json"):
        if path.name != keep:
            with suppress(OSError):
                path.unlink()


def files_changed(summary: dict[str, Any]) -> list[str]:
    """The recorded files whose size or mtime moved (a quick look, for the hooks; `review` hashes)."""
    changed = []
    for name, seen in (summary.get("files") or {}).items():
        path = Path(str(seen.get("path") or name))
        try:
            stat = path.stat()
            now: tuple[int, int] | None = (stat.st_size, stat.st_mtime_ns)
        except OSError:
            now = None
        if now != (seen.get("size"), seen.get("mtime_ns")) and not (now is None and seen.get("size") is None):
            changed.append(str(name))
    return changed


def recorded_part(summary: dict[str, Any]) -> str:
    """How a line about a plan names its learnings set aside as already recorded (they need no
    decision: they are applied only when kept), or nothing when there is none."""
    count = int(summary.get("already_recorded") or 0)
    return f"; {count} already recorded, set aside" if count else ""


def announcement(summary: dict[str, Any]) -> str:
    """The one line SessionStart says about a pending plan: what needs deciding."""
    total = int(summary.get("proposals") or 0)
    if not total:
        return "A background dream checked memory and found nothing to change; `consolidate review` records the check."
    removals = sum(int((summary.get("by_action") or {}).get(a, 0)) for a in REMOVALS)
    cost = _cost(summary)
    return (
        f"A consolidation plan is ready: {total} proposal(s) to decide ({removals} removal(s)"
        f"{recorded_part(summary)}){cost} — "
        "run /consolidate:dream or `consolidate review` to see it; nothing is applied without you."
    )


def _cost(summary: dict[str, Any]) -> str:
    usage = summary.get("usage") or {}
    if not usage.get("input_tokens") and not usage.get("output_tokens"):
        return ""
    return f", prepared by {summary.get('engine')} for ${float(usage.get('cost_usd') or 0):.2f}"


def announce_once(folder: Path, summary: dict[str, Any]) -> bool:
    """True the first time this plan is asked about (then never again for it)."""
    marker = folder / ANNOUNCED_FILE
    identity = str(summary.get("plan_file") or summary["created_at"])  # a plan file is named by its hash
    with suppress(OSError):
        if marker.read_text(encoding="utf-8").strip() == identity:
            return False
    atomic_write(marker, (identity + "\n").encode())
    return True


def running_pid(folder: Path) -> int | None:
    """The pid of a background run still preparing a plan for this memory dir, if one is alive."""
    try:
        pid = int((folder / RUNNING_FILE).read_text(encoding="utf-8").split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pid if _alive(pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _not_a_zombie(pid)


def _not_a_zombie(pid: int) -> bool:
    """A child that exited but was not reaped still answers kill(0): /proc says it is done."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return True
    return fields[0] != "Z"


def mark_running(folder: Path, pid: int) -> None:
    atomic_write(folder / RUNNING_FILE, f"{pid}\n".encode())


def clear_running(folder: Path, pid: int) -> None:
    """Remove the running mark, only when it is this process's own."""
    path = folder / RUNNING_FILE
    with suppress(OSError, ValueError, IndexError):
        if int(path.read_text(encoding="utf-8").split()[0]) == pid:
            path.unlink()
