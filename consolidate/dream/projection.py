"""What the memory dir would hold once every draft is applied: the same change code as apply, run on
an in-memory workspace, so synthesis can measure the index it leaves behind."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from memory_layout import INDEX

from ..apply import apply_change
from ..plan import ACTION_ORDER, Change, PlanError
from ..runs import write_scope
from ..workspace import ChangeFailed, Workspace
from .drafts import Draft
from .orient import Snapshot

_CHANGE: TypeAdapter[Change] = TypeAdapter(Change)


def projected_index(snapshot: Snapshot, drafts: list[Draft]) -> bytes:
    """MEMORY.md's bytes after every draft that applies cleanly (in apply order); the rest are skipped."""
    scope = write_scope(snapshot.settings)
    workspace = Workspace(scope.memory_dir)
    for draft in sorted(drafts, key=lambda d: ACTION_ORDER[d.action]):
        checkpoint = workspace.checkpoint()
        try:
            changes = [_CHANGE.validate_python(change) for change in draft.changes]
            paths = {name: scope.resolve(name, "projection") for name in _names(draft.changes)}
            for change in changes:
                apply_change(workspace, change, paths)
        except (ChangeFailed, PlanError, ValidationError):
            workspace.rollback(checkpoint)
    index = scope.memory_dir / INDEX
    return workspace.read(index) or b""


def _names(changes: list[dict[str, Any]]) -> list[str]:
    names = []
    for change in changes:
        names.append(change["file"])
        names += [change[key] for key in ("cluster_file", "topic_file") if change.get(key)]
    return names
