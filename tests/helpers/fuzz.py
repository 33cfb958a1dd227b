"""How hard the fuzz tests try: bounded in CI, `CONSOLIDATE_FUZZ_SCALE=N` multiplies it (bench/fuzz.py)."""

from __future__ import annotations

import os


def examples(count: int) -> int:
    return count * max(1, int(os.environ.get("CONSOLIDATE_FUZZ_SCALE", "1") or 1))
