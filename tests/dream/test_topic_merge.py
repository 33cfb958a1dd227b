"""A MERGE of two topic files keeps what the retired file says that the kept one does not: its new
parts are written into the kept file, not only into the index line."""

from __future__ import annotations

from pathlib import Path

from consolidate.cli import main
from tests.helpers.gitrepo import init_repo

BODY = "The exporter writes one CSV per tenant.\n\nLarge exports are split into chunks of ten thousand rows.\n"


def test_the_kept_topic_file_gains_what_the_merged_one_said(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = init_repo(tmp_path / "project")
    repo.write("CLAUDE.md", "# Project\n")
    repo.commit("start")
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "feedback_export.md").write_text(f"# Export\n\n{BODY}\nRetry failed uploads with the same chunk.\n")
    (memory / "feedback_export_notes.md").write_text(f"# Export notes\n\n{BODY}\nSkip soft-deleted rows.\n")
    (memory / "MEMORY.md").write_text(
        "# Project Memory\n\n## Notes\n"
        "- **When changing the export:** chunk per tenant. → [detail](feedback_export.md)\n"
        "- **When changing the export notes:** chunk per tenant. → [detail](feedback_export_notes.md)\n"
    )
    home = tmp_path / "claude-home"
    code = main(["dream", str(repo.path), "--memory-dir", str(memory), "--claude-home", str(home), "--yes"])
    out = capsys.readouterr().out
    assert code == 0 and "| MERGE |" in out and "MERGE: " not in out, out
    (kept,) = [p for p in memory.glob("feedback_export*.md")]
    text = kept.read_text()
    assert "Skip soft-deleted rows." in text and "Retry failed uploads with the same chunk." in text
    assert text.count("The exporter writes one CSV per tenant.") == 1
    assert f"]({kept.name})" in (memory / "MEMORY.md").read_text()
