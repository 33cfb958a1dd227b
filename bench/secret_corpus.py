"""The secret corpus at length: every kind of secret in every channel, for several seeds; counts the
secrets found anywhere on disk after hooks, tick, scan, snapshot, dream, remember and learnings capture.

    python bench/secret_corpus.py [SEEDS]     # default 5 seeds; `make test` runs one
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from _isolated import isolate


def main() -> int:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    total_plantings = total_files = 0
    leaks: Counter[str] = Counter()
    started = time.monotonic()
    for seed in range(seeds):
        tmp = isolate()
        from tests.helpers.gitrepo import init_repo
        from tests.reliability.secret_channels import measure
        from tests.reliability.secret_corpus import plantings

        repo = init_repo(tmp / "project")
        repo.write("CLAUDE.md", "# Project\n\n- Run `make test` before pushing.\n")
        repo.commit("init")
        (tmp / "work").mkdir()
        home = tmp / "home"
        roots = [home, repo.path, tmp / "work", tmp / "xdg"]
        outcome = measure(home / ".claude", repo.path, plantings(seed), tmp / "work", roots)
        total_plantings += outcome.plantings
        total_files += outcome.files
        leaks.update(kind for kind, _ in outcome.leaks)
        print(
            f"seed {seed}: {outcome.plantings} plantings, {outcome.files} files written, {len(outcome.leaks)} secrets on disk"
        )
    kinds = len(plantings(0))
    print(
        f"\n{kinds} kinds x {total_plantings // max(1, seeds * kinds)} channels x {seeds} seeds = {total_plantings} "
        f"plantings; secrets found on disk: {sum(leaks.values())} ({dict(leaks) or 'none'}); "
        f"{time.monotonic() - started:.0f} s"
    )
    return 1 if leaks else 0


if __name__ == "__main__":
    raise SystemExit(main())
