"""Secrets already in memory are redacted by the dream, and no plan, diff or output ever shows them."""

from __future__ import annotations

import json

from consolidate.cli import main

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
PASSWORD = "password=Hunter2-Hunter2"


def test_dream_redacts_secrets_in_memory_without_showing_them(example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    index = example.memory_dir / "MEMORY.md"
    index.write_text(index.read_text() + f"\n## Access\n- The CI token is {TOKEN}; rotate monthly.\n")
    (example.memory_dir / "project_db.md").write_text(
        f"---\nname: db\ntype: project\n---\nLocal db: {PASSWORD}\n"
    )
    args = [str(example.project), "--claude-home", str(example.claude_home)]
    plan_file = tmp_path / "plan.json"
    assert main(["dream", *args, "--plan-out", str(plan_file)]) == 0
    shown = capsys.readouterr()
    for text in (shown.out, shown.err, plan_file.read_text()):
        assert TOKEN not in text and "Hunter2" not in text
    plan = json.loads(plan_file.read_text())
    redactions = [p for p in plan["proposals"] if p["category"] == "SECRET"]
    assert {p["target"]["file"] for p in redactions} == {"MEMORY.md", "project_db.md"}
    assert (
        main(
            [
                "apply",
                str(plan_file),
                "--yes",
                "--project",
                str(example.project),
                "--claude-home",
                str(example.claude_home),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert TOKEN not in index.read_text() and "[REDACTED:github-token]" in index.read_text()
    assert "Hunter2" not in (example.memory_dir / "project_db.md").read_text()
