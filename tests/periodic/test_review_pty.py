"""`consolidate review` on a real pseudo-terminal, as a person answers it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from consolidate.periodic.pending import load_pending
from tests.dream.scripted import CLEAN
from tests.dream.test_pty import Terminal
from tests.helpers.memory import snapshot_bytes
from tests.periodic.test_background import prepare_now


def _review(example) -> Terminal:  # type: ignore[no-untyped-def]
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    argv = [
        sys.executable,
        "-m",
        "consolidate",
        "review",
        str(example.project),
        "--claude-home",
        str(example.claude_home),
    ]
    return Terminal(argv, env)


def test_select_in_a_terminal_applies_that_and_settles_the_plan(
    example, settings, script, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    prepare_now(example, script)
    terminal = _review(example)
    terminal.expect("Apply 3 proposal(s)?")
    assert "## Pending plan of " in terminal.seen and "### [REMOVE] Learning: Write clean code" in terminal.seen
    terminal.send("s")
    terminal.expect("Which ids")
    terminal.send("p1")
    assert terminal.wait() == 0, terminal.seen[-2000:]
    assert CLEAN not in (example.memory_dir / "MEMORY.md").read_text()
    assert "uv add" not in (example.memory_dir / "MEMORY.md").read_text()
    assert load_pending(settings) is None


def test_end_of_input_keeps_the_plan_and_the_memory(example, settings, script, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    prepare_now(example, script)
    before = snapshot_bytes(example.memory_dir)
    terminal = _review(example)
    terminal.expect("Apply 3 proposal(s)?")
    os.write(terminal.master, b"\x04")  # Ctrl-D
    assert terminal.wait() == 0
    assert "nothing applied" in terminal.seen and "Traceback" not in terminal.seen
    assert snapshot_bytes(example.memory_dir) == before and load_pending(settings) is not None
