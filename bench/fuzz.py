"""Longer fuzzing than CI runs: the transcript reader, the Markdown parser, the plan loader, hook stdin
and apply→undo, with N times the examples (default 20).

    python bench/fuzz.py [N]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/reliability/test_fuzz_inputs.py", "tests/reliability/test_apply_undo_property.py"]


def main() -> int:
    scale = sys.argv[1] if len(sys.argv) > 1 else "20"
    env = {**os.environ, "CONSOLIDATE_FUZZ_SCALE": scale}
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", *TESTS], cwd=ROOT, env=env)
    print(
        f"fuzzing at {scale}x the CI examples: {'no failure' if result.returncode == 0 else 'FAILED'} "
        f"in {time.monotonic() - started:.0f} s"
    )
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
