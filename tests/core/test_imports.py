"""`@path` imports of CLAUDE.md: followed as Claude Code follows them, and known as memory."""

from __future__ import annotations

from pathlib import Path

from consolidate.discover import build_report, load_memory_texts
from consolidate.discover.signals import Signal
from consolidate.imports import import_paths, imported_texts
from consolidate.settings import load_settings


def test_imports_relative_nested_once_never_in_code(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "CLAUDE.md").write_text("See @AGENTS.md and `@ignored.md`.\n```\n@also-ignored.md\n```\n")
    (tmp_path / "AGENTS.md").write_text("Rules. @docs/style.md and again @CLAUDE.md\n")
    (tmp_path / "docs" / "style.md").write_text("Use tabs. @../AGENTS.md @missing.md\n")
    found = imported_texts(tmp_path / "CLAUDE.md")
    assert [p.relative_to(tmp_path).as_posix() for p, _ in found] == ["AGENTS.md", "docs/style.md"]
    assert found[1][1].startswith("Use tabs.")


def test_import_depth_is_bounded(tmp_path: Path) -> None:
    for level in range(8):
        (tmp_path / f"f{level}.md").write_text(f"level {level} @f{level + 1}.md\n")
    assert len(imported_texts(tmp_path / "f0.md")) == 5


def test_a_mail_address_is_no_import(tmp_path: Path) -> None:
    text = "write to dev@example.com, @team or @types/node, or read @team.md"
    assert import_paths(text, tmp_path) == [tmp_path / "team.md"]  # only a word that looks like a file


def test_what_an_imported_file_says_is_recorded(tmp_path: Path, claude_home: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("@AGENTS.md\n")
    (project / "AGENTS.md").write_text("- Always run the tests with `make test`, never pytest directly.\n")
    texts = load_memory_texts(load_settings(project, home=claude_home))
    assert any(name.endswith("AGENTS.md") for name in texts)
    signal = Signal("correction", "Always run the tests with `make test`, never pytest directly", quote="q")
    report = build_report([signal], texts)
    assert report.candidates == [] and report.stats["dropped_recorded"] == 1
