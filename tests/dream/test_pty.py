"""The interactive review driven through a real pseudo-terminal, as a person would use it."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

from consolidate.engines import AUDITOR, DISCOVERER
from tests.dream.scripted import AUDIT, CLEAN, DISCOVERY


def _controlling_terminal() -> None:
    """In the child, after setsid: the pty on stdin becomes its controlling terminal (/dev/tty)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A command on a pseudo-terminal of its own; `stdout=PIPE` pipes its stdout as `| tail` would."""

    def __init__(self, argv: list[str], env: dict[str, str], stdout: int | None = None) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave if stdout is None else stdout, stderr=slave, env=env,
            close_fds=True, start_new_session=True, preexec_fn=_controlling_terminal,
        )  # fmt: skip
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

    def wait(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:  # read on while it runs: a full terminal would block it
            assert time.monotonic() < deadline, f"still running; got:\n{self.seen[-2000:]}"
            try:
                if select.select([self.master], [], [], 0.2)[0]:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
            except OSError:
                time.sleep(0.05)
        code = self.process.returncode
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


def _dream(example, tmp_path: Path, stdout: int | None = None) -> Terminal:  # type: ignore[no-untyped-def]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({AUDITOR: [AUDIT], DISCOVERER: [DISCOVERY]}))
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    argv = [sys.executable, "-m", "consolidate", "dream", str(example.project), "--claude-home",
            str(example.claude_home), "--engine", f"scripted:{script}"]  # fmt: skip
    return Terminal(argv, env, stdout)


def test_select_one_proposal_in_a_terminal(example, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    terminal = _dream(example, tmp_path)
    terminal.expect("Apply 3 proposal(s)?")
    terminal.send("s")
    terminal.expect("Which ids")
    assert "  P1  [REMOVE] " in terminal.seen and "  P3  [ADD] " in terminal.seen  # each id with its summary
    terminal.send("p1")
    assert terminal.wait() == 0, terminal.seen[-2000:]
    assert "done" in terminal.seen
    text = (example.memory_dir / "MEMORY.md").read_text()
    assert CLEAN not in text  # P1 applied
    assert "uv add" not in text  # P3 not chosen
    assert not (example.memory_dir / "clusters").exists()  # P2 not chosen


def test_with_stdout_piped_the_prompt_stays_on_the_terminal(example, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`consolidate dream | tail`: the report goes down the pipe, the question to the person."""
    terminal = _dream(example, tmp_path, stdout=subprocess.PIPE)
    terminal.expect("Apply 3 proposal(s)?")
    terminal.send("r")
    assert terminal.process.stdout is not None
    with terminal.process.stdout as pipe:
        piped = pipe.read().decode()
    assert terminal.wait() == 0
    assert "### [REMOVE] Learning:" in piped and "Apply 3 proposal(s)?" not in piped
    assert "### [REMOVE]" not in terminal.seen


def _untouched(example, before: dict[str, bytes]) -> None:  # type: ignore[no-untyped-def]
    from tests.helpers.memory import snapshot_bytes

    assert snapshot_bytes(example.memory_dir) == before
    assert not (example.memory_dir / ".last-consolidation").exists()


def test_end_of_input_at_the_prompt_applies_nothing_and_exits_cleanly(example, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.helpers.memory import snapshot_bytes

    before = snapshot_bytes(example.memory_dir)
    terminal = _dream(example, tmp_path)
    terminal.expect("Apply 3 proposal(s)?")
    os.write(terminal.master, b"\x04")  # Ctrl-D
    assert terminal.wait() == 0
    assert "no answer at the prompt (end of input): nothing applied" in terminal.seen
    assert "Traceback" not in terminal.seen and "internal error" not in terminal.seen
    _untouched(example, before)


def test_ctrl_c_at_the_prompt_applies_nothing(example, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tests.helpers.memory import snapshot_bytes

    before = snapshot_bytes(example.memory_dir)
    terminal = _dream(example, tmp_path)
    terminal.expect("Apply 3 proposal(s)?")
    terminal.send("s")
    terminal.expect("Which ids")
    os.write(terminal.master, b"\x03")  # Ctrl-C
    assert terminal.wait() == 130
    assert "interrupted at the prompt: nothing applied" in terminal.seen and "Traceback" not in terminal.seen
    _untouched(example, before)
