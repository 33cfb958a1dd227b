"""The same memory, project and sessions give the same plan — the same proposals, ids, order and texts —
wherever the project lives and whatever Python's hash seed: a plan that changes from run to run cannot be
reviewed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from consolidate.cli import main
from memory_layout import project_key
from tests.helpers.example import build_example

PASSWORD = "password=Hunter2-Hunter2"
# A temporary directory's name (`tempfile.mkdtemp`) in a folder whose name has a space: the path
# `1/tmp6ag64yx8/acme-api/CLAUDE` once read as a random token, so the redaction of the project's
# CLAUDE.md named a "secret" in its target and was dropped from the plan.
RANDOM_LOOKING = Path("run 1", "tmp6ag64yx8")


def _example(root: Path) -> Any:
    example = build_example(root)
    claude_md = example.project / "CLAUDE.md"
    claude_md.write_text(claude_md.read_text() + f"- Local db: {PASSWORD}\n")
    return example


def _comparable(plan_json: str, root: Path) -> dict[str, Any]:
    """The plan with the folder it was made in taken out (as a path and as Claude Code's project key),
    without the clock's fields."""
    plan_json = plan_json.replace(project_key(root), "<key>").replace(str(root), "<root>")
    plan = json.loads(plan_json)
    return {key: value for key, value in plan.items() if key not in ("created_at", "gathered_at")}


def _dream_json(example: Any, capsys: Any) -> str:
    args = [str(example.project), "--claude-home", str(example.claude_home), "--dry-run", "--json"]
    assert main(["dream", *args]) == 0
    return str(capsys.readouterr().out)


def test_the_plan_does_not_depend_on_where_the_project_lives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, odd = tmp_path / "run 1" / "plain", tmp_path / RANDOM_LOOKING
    plans = [_comparable(_dream_json(_example(root), capsys), root) for root in (plain, odd)]
    redactions = [p for p in plans[1]["proposals"] if p["category"] == "SECRET"]
    assert [p["target"]["file"] for p in redactions] == ["<root>/acme-api/CLAUDE.md"]
    assert not [note for note in plans[1]["notes"] if "would write a secret" in note]
    assert plans[0]["proposals"] == plans[1]["proposals"]
    assert plans[0] == plans[1]


def test_the_plan_is_byte_identical_under_two_hash_seeds(tmp_path: Path) -> None:
    example = _example(tmp_path / RANDOM_LOOKING)
    outputs = []
    for seed in ("0", "1"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        args = [str(example.project), "--claude-home", str(example.claude_home), "--dry-run", "--json"]
        done = subprocess.run(
            [sys.executable, "-m", "consolidate", "dream", *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        outputs.append(_comparable(done.stdout, example.root))
    assert outputs[0]["proposals"], "the example has findings to propose"
    assert json.dumps(outputs[0], indent=1) == json.dumps(outputs[1], indent=1)
