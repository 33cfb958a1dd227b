"""The demo: a full dream with the offline engine on a freshly built example project.

It builds the example (a git repo with history, a memory dir with stale, duplicate, generic, dated and
crowded entries, and two sessions with a correction, a marker, an error→fix and a remember request)
into `demo-out/`, shows the status, runs the dream to a plan (every proposal with its diff), applies
the plan, shows the status again, and runs the dream once more to show there is nothing left to do.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from example_project import build_example  # noqa: E402

from consolidate.cli import main  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "demo-out"


def banner(text: str) -> None:
    print(f"\n{'=' * 8} {text} {'=' * 8}\n", flush=True)


def run(*argv: str) -> int:
    print("$ consolidate " + " ".join(argv), flush=True)
    code = main(list(argv))
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def demo(root: Path) -> int:
    started = time.monotonic()
    example = build_example(root / "example")
    home = ["--claude-home", str(example.claude_home)]
    project = str(example.project)
    plan = str(root / "plan.json")
    banner("1. status before")
    run("status", project, *home)
    banner("2. dream: orient, audit + discover in parallel, synthesise (the plan, with diffs)")
    if run("dream", project, *home, "--plan-out", plan) != 0:
        return 1
    banner("3. apply the plan")
    if run("apply", plan, "--yes", "--project", project, *home) != 0:
        return 1
    banner("4. status after")
    run("status", project, *home)
    banner("5. dream again: nothing left to do")
    run("dream", project, *home, "--dry-run", "--since", "2026-01-01")
    state = (
        f"CONSOLIDATE_STATE_DIR={os.environ['CONSOLIDATE_STATE_DIR']} "
        if "CONSOLIDATE_STATE_DIR" in os.environ
        else ""
    )
    print(
        f"\nthe example is in {root}/example; `{state}consolidate undo {project} {' '.join(home)}` restores it"
    )
    print(f"demo finished in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir()
    # Removals go to a trash inside demo-out/, never the user's own.
    os.environ["XDG_DATA_HOME"] = str(OUT / "trash-home")
    os.environ.setdefault("CONSOLIDATE_STATE_DIR", str(OUT / "state"))
    sys.exit(demo(OUT))
