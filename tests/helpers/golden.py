"""Golden files: compare rendered Markdown with a checked-in expectation, a unified diff on failure.
`UPDATE_GOLDEN=1 pytest …` rewrites the expectations (review the diff before committing)."""

from __future__ import annotations

import difflib
import os
from pathlib import Path


def assert_golden(expected_path: Path, actual: str) -> None:
    if os.environ.get("UPDATE_GOLDEN") == "1":
        expected_path.parent.mkdir(parents=True, exist_ok=True)
        expected_path.write_text(actual, encoding="utf-8")
    expected = expected_path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True),
                actual.splitlines(True),
                f"expected/{expected_path.name}",
                f"actual/{expected_path.name}",
            )
        )
        raise AssertionError(f"{expected_path.name} differs from its golden file:\n{diff}")
