"""Build memory dirs and plans for tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from consolidate.fsutil import digest_file
from consolidate.settings import Settings, load_settings


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return root


def snapshot_bytes(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes (for "restores every byte" assertions)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def project_settings(project: Path, home: Path) -> Settings:
    return load_settings(project, home=home)


def plan_dict(
    settings: Settings,
    proposals: list[dict[str, Any]],
    *,
    snapshot: list[str] | None = None,
    mark: bool = False,
) -> dict[str, Any]:
    memory = settings.memory_dir
    names = (
        snapshot
        if snapshot is not None
        else sorted(p.relative_to(memory).as_posix() for p in memory.rglob("*.md") if p.is_file())
    )
    return {
        "version": 1,
        "engine": "offline",
        "created_at": "2026-11-29T12:00:00Z",
        "project": str(settings.layout.project),
        "memory_dir": str(memory),
        "snapshot": {name: digest_file(memory / name) for name in names},
        "proposals": proposals,
        "mark_consolidation": mark,
    }


def proposal(
    pid: str,
    action: str,
    changes: list[dict[str, Any]],
    *,
    file: str = "MEMORY.md",
    section: str = "",
    layer: str = "L2",
    summary: str | None = None,
) -> dict[str, Any]:
    return {
        "id": pid,
        "action": action,
        "summary": summary or f"{action.lower()} {pid}",
        "layer": layer,
        "target": {"file": file, "section": section},
        "rationale": "test",
        "changes": changes,
    }


def write_plan(path: Path, plan: dict[str, Any]) -> Path:
    path.write_text(json.dumps(plan), encoding="utf-8")
    return path
