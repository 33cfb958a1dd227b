"""The demo: build the example project in a fresh directory, show its memory status, apply an example
plan to it, show the status again, then undo and check every byte came back."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from example_project import build_example  # noqa: E402

from consolidate.cli import main  # noqa: E402
from consolidate.fsutil import digest_file  # noqa: E402


def banner(text: str) -> None:
    print(f"\n=== {text} ===\n", flush=True)


def example_plan(example, path: Path) -> Path:  # type: ignore[no-untyped-def]
    memory = example.memory_dir
    names = sorted(p.relative_to(memory).as_posix() for p in memory.rglob("*.md"))
    plan = {
        "version": 1,
        "engine": "example",
        "project": str(example.project),
        "memory_dir": str(memory),
        "snapshot": {name: digest_file(memory / name) for name in names},
        "proposals": [
            {
                "id": "P1",
                "action": "REMOVE",
                "summary": "generic advice with nothing project-specific",
                "target": {"file": "MEMORY.md", "section": "Feedback"},
                "rationale": "LOW-VALUE",
                "changes": [
                    {
                        "op": "drop_entry",
                        "file": "MEMORY.md",
                        "text": "- Write clean code and keep functions small.",
                    }
                ],
            },
            {
                "id": "P2",
                "action": "EDIT",
                "summary": "settings.py was renamed to config.py",
                "target": {"file": "MEMORY.md", "section": "Project"},
                "rationale": "STALE path, renamed in git",
                "changes": [
                    {
                        "op": "replace_entry",
                        "file": "MEMORY.md",
                        "old": "- **When changing settings:** edit `src/acme/settings.py`. → [detail](project_settings.md)",
                        "new": "- **When changing settings:** edit `src/acme/config.py`. → [detail](project_settings.md)",
                    }
                ],
            },
            {
                "id": "P3",
                "action": "ADD",
                "summary": "dependencies are added with uv",
                "target": {"file": "MEMORY.md", "section": "Feedback"},
                "rationale": "a user correction",
                "changes": [
                    {
                        "op": "add_entry",
                        "file": "MEMORY.md",
                        "section": "Feedback",
                        "text": "**When adding a dependency:** use `uv add`, never `pip install`.",
                    }
                ],
            },
        ],
    }
    path.write_text(json.dumps(plan, indent=2), encoding="utf-8")
    return path


def run(*argv: str) -> int:
    print("$ consolidate " + " ".join(argv), flush=True)
    code = main(list(argv))
    sys.stdout.flush()
    return code


def demo(root: Path) -> int:
    started = time.monotonic()
    example = build_example(root / "example")
    home = ["--claude-home", str(example.claude_home)]
    banner("status before")
    run("status", str(example.project), *home)
    before = {p: p.read_bytes() for p in example.memory_dir.rglob("*") if p.is_file()}
    banner("apply an example plan")
    plan = example_plan(example, root / "plan.json")
    if run("apply", str(plan), "--yes", *home) != 0:
        return 1
    banner("status after")
    run("status", str(example.project), *home)
    banner("undo")
    run("undo", str(example.project), *home)
    after = {p: p.read_bytes() for p in example.memory_dir.rglob("*") if p.is_file()}
    restored = before == after
    print(f"\nevery byte restored: {restored}  ({time.monotonic() - started:.1f} s)")
    return 0 if restored else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="consolidate-demo-") as tmp:
        # Removals go to a trash inside the demo directory, not the user's own.
        os.environ["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        sys.exit(demo(Path(tmp)))
