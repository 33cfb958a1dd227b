"""kill -9 at random moments of `consolidate apply`, then `consolidate undo`: every byte must come back,
no temp file may stay, and the next run must work.

    python bench/kill_loop.py [KILLS]     # default 100
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import time

from _isolated import ROOT, isolate


def main() -> int:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    tmp = isolate()
    from consolidate.settings import load_settings
    from tests.helpers.memory import plan_dict, proposal, snapshot_bytes, write_tree

    project = tmp / "proj"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    settings = load_settings(project)
    memory = settings.memory_dir
    files = {
        "MEMORY.md": "# Project Memory\n\n## Deploy\n"
        + "".join(f"- step {i}. → [d](t{i}.md)\n" for i in range(40)),
        **{f"t{i}.md": f"# topic {i}\n" + "detail line\n" * 200 for i in range(40)},
    }
    changes = [
        proposal("P1", "REMOVE", [{"op": "trash_file", "file": "t1.md"}], file="t1.md"),
        proposal("P2", "CLUSTER", [{"op": "cluster_section", "file": "MEMORY.md", "section": "Deploy",
                                    "cluster_file": "clusters/deploy.md",
                                    "pointer": "**When deploying:** open the notes. → [deploy](clusters/deploy.md)"}]),
        *[proposal(f"P{i}", "EDIT", [{"op": "write_file", "file": f"t{i}.md", "content": f"# new {i}\n"}], file=f"t{i}.md")
          for i in range(3, 40)],
    ]  # fmt: skip
    restored = temps_left = next_failed = 0
    rng = random.Random(7)
    started = time.monotonic()
    for attempt in range(kills):
        shutil.rmtree(memory, ignore_errors=True)
        shutil.rmtree(settings.run_dir("journal"), ignore_errors=True)
        write_tree(memory, files)
        before = snapshot_bytes(memory)
        plan = tmp / "plan.json"
        plan.write_text(json.dumps(plan_dict(settings, changes)))
        argv = [sys.executable, "-m", "consolidate", "apply", str(plan), "--yes", "--project", str(project)]
        child = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 1.2))  # the interpreter starts in ~0.3 s; apply runs for about as long
        child.send_signal(signal.SIGKILL)
        child.wait()
        undo = subprocess.run([sys.executable, "-m", "consolidate", "undo", str(project)], cwd=ROOT,
                              capture_output=True, text=True)  # fmt: skip
        if snapshot_bytes(memory) == before and not (memory / "clusters").exists():
            restored += 1
        elif "nothing to undo" not in undo.stderr:
            print(f"kill {attempt}: not restored: {undo.stderr.strip()}")
        temps_left += sum(1 for p in memory.rglob(".*.tmp"))
        again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        next_failed += again.returncode != 0
    print(f"{kills} kills: {restored} restored byte-exact, {temps_left} temp files left, "
          f"{next_failed} next runs failed; {time.monotonic() - started:.0f} s")  # fmt: skip
    return 0 if restored == kills and not temps_left and not next_failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
