"""The skill's deterministic steps: `consolidate snapshot` hands out the agents' tasks, and the agents'
saved reports come back through `consolidate dream --engine reports:…` as a plan."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from consolidate.cli import main


def _run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_snapshot_then_reports_make_a_plan(example, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    home = str(example.claude_home)
    before = (example.memory_dir / "MEMORY.md").read_bytes()
    code, out, _ = _run(capsys, "snapshot", str(example.project), "--claude-home", home, "--json")
    assert code == 0
    handoff = json.loads(out)
    assert handoff["auditor_skipped"] is False and set(handoff["tasks"]) == {
        "memory-auditor",
        "signal-discoverer",
    }
    auditor_task = Path(handoff["tasks"]["memory-auditor"]).read_text()
    assert auditor_task.startswith("# Audit the memory of") and '"findings"' in auditor_task
    assert "always add dependencies with `uv add`" in Path(handoff["tasks"]["signal-discoverer"]).read_text()
    assert (example.memory_dir / "MEMORY.md").read_bytes() == before  # read-only

    finding = {"category": "LOW-VALUE", "file": "MEMORY.md", "entry": "- Write clean code and keep functions small.", "action": "REMOVE", "confidence": 0.9}  # fmt: skip
    Path(handoff["reports"]["memory-auditor"]).write_text(
        "```json\n" + json.dumps({"findings": [finding]}) + "\n```"
    )
    Path(handoff["reports"]["signal-discoverer"]).write_text(json.dumps({"candidates": [{"kind": "decision", "principle": "keep the public API synchronous", "trigger": "adding an endpoint", "confidence": 0.9, "impact": 0.8}]}))  # fmt: skip

    argv = shlex.split(handoff["dream"])
    assert argv[:2] == ["consolidate", "dream"] and argv[argv.index("--claude-home") + 1] == home
    code, out, err = _run(capsys, *argv[1:])  # the printed command runs as printed
    assert code == 0, err
    plan = json.loads(Path(handoff["plan"]).read_text())
    assert plan["engine"] == "reports"
    summaries = [p["summary"] for p in plan["proposals"]]
    assert any("Write clean code" in s for s in summaries)
    assert any("keep the public API synchronous" in s for s in summaries)
    assert "### [REMOVE] Learning:" in out
    assert (example.memory_dir / "MEMORY.md").read_bytes() == before  # nothing applied yet


def test_snapshot_skips_the_auditor_when_memory_does_not_exist(example, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (example.memory_dir / "MEMORY.md").unlink()
    (example.project / "CLAUDE.md").unlink(missing_ok=True)
    out_dir = tmp_path / "run"
    code, out, _ = _run(
        capsys,
        "snapshot",
        str(example.project),
        "--claude-home",
        str(example.claude_home),
        "--out",
        str(out_dir),
    )
    assert code == 0
    assert "the auditor has nothing to audit" in out and "signal-discoverer: task" in out
    assert sorted(p.name for p in out_dir.iterdir()) == ["signal-discoverer.task.md", "started_at"]
    assert not (example.memory_dir / "MEMORY.md").exists()
