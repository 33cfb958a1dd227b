"""A plan applied in parts: `apply plan --only P2`, later `--only P5`, in any order.

A plan records the hash of every file it was made from, and apply refuses files that changed since.
Applying a part changes some of them, so each applied part leaves a record (in our state dir, per
memory dir and plan): the ids applied so far and the hash of every file they left. The next part is
accepted when the files are exactly what the plan saw or what the earlier parts left; any other change
— an edit by hand, another run, an undo of only some parts — refuses the plan as before.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .errors import ConsolidateError
from .fsutil import ABSENT, atomic_write, digest_bytes, digest_file, load_json_object
from .plan import Plan, PlanError


def record_path(directory: Path, plan: Plan) -> Path:
    key = hashlib.sha256(plan.to_json().encode("utf-8")).hexdigest()[:24]
    return directory / f"{key}.json"


def _digest(path: Path, name: str) -> str:
    try:
        return digest_file(path)
    except OSError as exc:
        raise PlanError(f"snapshot: cannot read {name}: {exc.strerror or exc}") from None


def applied_before(plan: Plan, paths: dict[str, Path], directory: Path | None) -> set[str]:
    """The ids earlier parts applied (empty when the files are as the plan saw them); refuses files
    changed for any other reason, naming the first one."""
    current = {name: _digest(paths[name], name) for name in plan.snapshot}
    if current == plan.snapshot:
        return set()
    record = load_json_object(record_path(directory, plan)) if directory is not None else {}
    files = _files(record)
    if files and all(digest_file(Path(p)) == d for p, d in files.items()):
        applied = record.get("applied")
        return {str(i) for i in applied} if isinstance(applied, list) else set()
    for name in plan.snapshot:
        expected = files.get(str(paths[name]), plan.snapshot[name])
        if current[name] != expected:
            raise _changed(name, expected, current[name])
    changed = next(p for p, d in files.items() if digest_file(Path(p)) != d)
    raise _changed(changed, files[changed], digest_file(Path(changed)))


def _files(record: dict[str, object]) -> dict[str, str]:
    files = record.get("files")
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}


def _changed(name: str, recorded: str, now: str) -> ConsolidateError:
    return ConsolidateError(
        f"{name} changed since the plan was made ({recorded[:19]}… → {now[:19]}…); make a new plan"
    )


def record_part(
    plan: Plan,
    paths: dict[str, Path],
    directory: Path | None,
    applied: set[str],
    changes: dict[Path, bytes | None],
) -> None:
    """After a part is applied: the ids applied so far and the hash of every file they left."""
    if directory is None:
        return
    path = record_path(directory, plan)
    files = _files(load_json_object(path))
    for name in plan.snapshot:
        files.setdefault(str(paths[name]), plan.snapshot[name])
    for changed, data in changes.items():
        files[str(changed)] = ABSENT if data is None else digest_bytes(data)
    document = {"applied": sorted(applied), "files": files}
    atomic_write(path, (json.dumps(document, indent=2) + "\n").encode("utf-8"))
