"""`consolidate scan`: JSON shape, plain output, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    directory = tmp_path / "sessions"
    writer = SessionWriter("s1", start=datetime(2026, 11, 1, tzinfo=UTC))
    writer.tool_call("Bash", {"command": "npm ci"}, "ok")
    writer.user("no, use pnpm instead of npm")
    writer.assistant("Switching.")
    writer.user("remember that the deploy key is ghp_" + "x1" * 18)
    write_session(directory, writer)
    (directory / "broken.jsonl").write_text('{"type": "user"\nnot json\n')
    return directory


def _project(tmp_path: Path) -> str:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return str(project)


def test_json_output_shape(sessions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scan", _project(tmp_path), "--json", "--transcripts", str(sessions)])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    document = json.loads(out)
    (item,) = document["candidates"]
    assert {"category", "principle", "trigger", "layer", "confidence", "evidence", "kind", "pointer"} <= set(
        item
    )
    assert item["category"] == "FILL_GAP" and item["principle"] == "Use pnpm instead of npm"
    assert item["pointer"] == "**When running `npm` commands:** Use pnpm instead of npm."
    assert (
        item["evidence"][0]["session"] == "s1"
        and item["evidence"][0]["quote"] == "no, use pnpm instead of npm"
    )
    assert document["sessions_scanned"] == 2 and document["stats"]["bad_json"] == 2
    assert document["stats"]["dropped_secret"] == 1
    assert "ghp_" not in out


def test_plain_output_in_a_pipe(sessions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scan", _project(tmp_path), "--transcripts", str(sessions)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert (
        "| 1 | correction | FILL_GAP | L2 | 0.65 | 1 | **When running `npm` commands:** Use pnpm instead of npm. |"
        in out
    )
    assert out.strip().endswith("1 candidate(s) from 2 session(s); 2 signal(s) found, 2 bad line(s) skipped")


def test_the_project_transcripts_dir_is_the_default(
    tmp_path: Path, claude_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from consolidate.settings import load_settings

    project = _project(tmp_path)
    directory = load_settings(project, home=claude_home).layout.transcripts_dir
    writer = SessionWriter("s2", start=datetime(2026, 11, 1, tzinfo=UTC))
    writer.tool_call("Bash", {"command": "npm ci"}, "ok")
    writer.user("no, use pnpm instead of npm")
    write_session(directory, writer)
    assert main(["scan", project, "--json", "--all"]) == 0
    assert len(json.loads(capsys.readouterr().out)["candidates"]) == 1
    assert main(["scan", project, "--json", "--since", "2026-12-01"]) == 0
    assert json.loads(capsys.readouterr().out)["candidates"] == []


def test_no_sessions_is_not_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["scan", _project(tmp_path), "--transcripts", str(empty)]) == 0
    out = capsys.readouterr().out
    assert "0 candidate(s) from 0 session(s)" in out
    assert f"no session transcript in {empty}\n" in out  # where it looked: a wrong project key shows


def test_sessions_outside_the_window_are_not_called_missing(
    sessions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scan", _project(tmp_path), "--transcripts", str(sessions), "--since", "2030-01-01"]) == 0
    assert "no session transcript" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "someday"], "--since: cannot read"),
        (["--transcripts", "/nonexistent/dir"], "no such directory"),
        (["--bogus"], "unrecognized arguments"),
    ],  # fmt: skip
)
def test_usage_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["scan", _project(tmp_path), *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and "Traceback" not in err


def test_the_collector_is_paused_for_the_scan_only(
    sessions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import consolidate.discover

    seen: list[bool] = []
    real = consolidate.discover.find_candidates

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("consolidate.discover.find_candidates", spy)
    assert gc.isenabled()
    assert main(["scan", _project(tmp_path), "--transcripts", str(sessions)]) == 0
    assert seen == [False]  # paused while it scans
    assert gc.isenabled() and gc.get_freeze_count() == 0  # back on, and nothing left frozen
    assert "1 candidate(s) from 2 session(s)" in capsys.readouterr().out


def test_a_scan_loads_no_parser_it_does_not_use(sessions: Path, tmp_path: Path) -> None:
    """A whole `scan` process (with the meaning match the dedupe loads for alike candidates) imports
    neither pydantic, Markdown-it, YAML, rapidfuzz nor an engine."""
    script = (
        "import sys\n"
        "from consolidate.cli import main\n"
        "import consolidate.discover.samerule, consolidate.discover.dedupe\n"
        f"code = main(['scan', {_project(tmp_path)!r}, '--json', '--transcripts', {str(sessions)!r}])\n"
        "print(code, ' '.join(sorted(sys.modules)))\n"
    )
    env = {**os.environ, "CONSOLIDATE_STATE_DIR": str(tmp_path / "state")}
    command = [sys.executable, "-P", "-c", script]
    run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    code, modules = run.stdout.strip().splitlines()[-1].split(" ", 1)
    loaded = set(modules.split())
    assert code == "0" and "consolidate.discover.detectors" in loaded
    unused = ("pydantic", "markdown_it", "yaml", "rapidfuzz", "consolidate.engines", "memory_layout.document")
    assert not loaded & set(unused)
