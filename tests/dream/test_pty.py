"""The interactive review driven through a real pseudo-terminal, as a person would use it."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

from consolidate.engines import AUDITOR, DISCOVERER
from tests.dream.scripted import AUDIT, CLEAN, DISCOVERY


class Terminal:
    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"never saw {text!r}; got:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait(self) -> int:
        code = self.process.wait(timeout=30)
        try:
            while select.select([self.master], [], [], 0.2)[0]:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    break
                self.seen += chunk.decode("utf-8", "replace")
        except OSError:
            pass
        os.close(self.master)
        return code


def test_select_one_proposal_in_a_terminal(example, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({AUDITOR: [AUDIT], DISCOVERER: [DISCOVERY]}))
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    terminal = Terminal(
        [
            sys.executable,
            "-m",
            "consolidate",
            "dream",
            str(example.project),
            "--claude-home",
            str(example.claude_home),
            "--engine",
            f"scripted:{script}",
        ],
        env,
    )
    terminal.expect("Apply 3 proposal(s)?")
    terminal.send("s")
    terminal.expect("Which ids")
    terminal.send("P1")
    assert terminal.wait() == 0, terminal.seen[-2000:]
    assert "done" in terminal.seen
    text = (example.memory_dir / "MEMORY.md").read_text()
    assert CLEAN not in text  # P1 applied
    assert "uv add" not in text  # P3 not chosen
    assert not (example.memory_dir / "clusters").exists()  # P2 not chosen
