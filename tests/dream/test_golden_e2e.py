"""A full dream with the offline engine over the example project, compared with golden Markdown."""

from __future__ import annotations

from pathlib import Path

from consolidate.cli import main
from tests.helpers.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden" / "offline"


def test_offline_dream_of_the_example_matches_golden(example, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["dream", str(example.project), "--claude-home", str(example.claude_home), "--yes"]) == 0
    out = capsys.readouterr().out
    assert "| failed" not in out and "unverified" not in out
    memory = example.memory_dir
    written = sorted(p.relative_to(memory).as_posix() for p in memory.rglob("*.md"))
    assert "project_migrate.md" not in written and "feedback_testing_suite.md" not in written  # retired
    new = [
        name for name in written if name.startswith(("feedback_adding", "feedback_staging")) or "/" in name
    ]
    assert len(new) == 3, new
    for name in ["MEMORY.md", "project_settings.md", "project_pydantic.md", *new]:
        assert_golden(GOLDEN / name.replace("/", "__"), (memory / name).read_text())
