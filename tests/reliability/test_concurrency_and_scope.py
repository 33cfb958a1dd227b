from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.synthesize import synthesize
from consolidate.engines import AUDITOR, DISCOVERER
from consolidate.models import AuditReport, DiscoveryReport, Finding
from tests.helpers.example import build_example
from tests.helpers.memory import snapshot_bytes


def test_two_dreams_at_once_one_refuses(tmp_path: Path) -> None:
    example = build_example(tmp_path / "ex")
    script = tmp_path / "slow.json"
    slow = {"sleep": 3, "answer": {"findings": []}}
    script.write_text(json.dumps({AUDITOR: [slow], DISCOVERER: [{"sleep": 3, "answer": {"candidates": []}}]}))
    argv = [
        sys.executable,
        "-m",
        "consolidate",
        "dream",
        str(example.project),
        "--claude-home",
        str(example.claude_home),
        "--engine",
        f"scripted:{script}",
        "--yes",
    ]
    first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    second = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    out, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    assert second.returncode == 1
    assert "another consolidate run" in second.stderr and "Traceback" not in second.stderr
    assert second.stderr.count("\n") == 1


def test_agent_output_pointing_outside_is_dropped(tmp_path: Path) -> None:
    from consolidate.settings import load_settings

    example = build_example(tmp_path / "ex")
    settings = load_settings(example.project, home=example.claude_home)
    evil = [
        Finding(
            category="STALE",
            file="../../../../etc/passwd.md",
            entry="x",
            action="EDIT",
            replacement="y",
            confidence=0.9,
        ),
        Finding(
            category="STALE", file="/etc/hosts.md", entry="x", action="EDIT", replacement="y", confidence=0.9
        ),
        Finding(
            category="LOW-VALUE",
            file="MEMORY.md",
            entry="- Write clean code and keep functions small.",
            action="REMOVE",
            confidence=0.9,
        ),
    ]
    before = snapshot_bytes(example.memory_dir)
    synthesis = synthesize(
        orient(settings, create=False),
        GatherResult(audit=AuditReport(findings=evil), discovery=DiscoveryReport()),
        engine="t",
    )
    files = {p.target.file for p in synthesis.plan.proposals}
    assert files == {"MEMORY.md"}
    assert sum("dropped (invalid target)" in n for n in synthesis.notes) == 2
    assert snapshot_bytes(example.memory_dir) == before
