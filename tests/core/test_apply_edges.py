"""Edges of apply and undo: symlinked files, permissions, back-to-back runs, odd targets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from consolidate.apply import apply_plan
from consolidate.journal import latest_undoable
from consolidate.plan import Plan
from consolidate.runs import journal_dir, write_scope
from tests.helpers.memory import plan_dict, project_settings, proposal, snapshot_bytes, write_tree


@pytest.fixture
def settings(git_repo, claude_home: Path):  # type: ignore[no-untyped-def]
    s = project_settings(git_repo.path, claude_home)
    write_tree(s.memory_dir, {"MEMORY.md": "# Project Memory\n\n## Notes\n- a\n", "topic.md": "private\n"})
    return s


def _apply(settings, proposals):  # type: ignore[no-untyped-def]
    plan = Plan.model_validate(plan_dict(settings, proposals))
    return apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings))


def test_a_symlinked_claude_md_is_written_through_and_stays_a_link(settings) -> None:  # type: ignore[no-untyped-def]
    root = settings.layout.project
    (root / "AGENTS.md").write_text("# Agents\n")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    claude_md = str(settings.layout.project_claude_md)
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "ADD",
                [{"op": "add_entry", "file": claude_md, "text": "new rule"}],
                file=claude_md,
                layer="L1",
            )
        ],
    )
    assert report.results[0].status == "done"
    assert (root / "CLAUDE.md").is_symlink()
    assert (root / "AGENTS.md").read_text() == "# Agents\n- new rule\n"
    latest_undoable(journal_dir(settings)).restore()
    assert (root / "CLAUDE.md").is_symlink() and (root / "AGENTS.md").read_text() == "# Agents\n"


def test_an_empty_memory_index_gets_the_heading_of_a_new_one(settings) -> None:  # type: ignore[no-untyped-def]
    index = settings.memory_dir / "MEMORY.md"
    index.write_text("\n")
    change = {"op": "add_entry", "file": "MEMORY.md", "section": "Reference", "text": "a fact"}
    report = _apply(settings, [proposal("P1", "ADD", [change])])
    assert report.results[0].status == "done"
    assert index.read_text() == "# Project Memory\n\n## Reference\n- a fact\n"
    latest_undoable(journal_dir(settings)).restore()
    assert index.read_text() == "\n"


def test_undo_restores_permissions(settings) -> None:  # type: ignore[no-untyped-def]
    topic = settings.memory_dir / "topic.md"
    os.chmod(topic, 0o600)
    _apply(settings, [proposal("P1", "REMOVE", [{"op": "trash_file", "file": "topic.md"}])])
    assert not topic.exists()
    latest_undoable(journal_dir(settings)).restore()
    assert topic.read_text() == "private\n" and topic.stat().st_mode & 0o777 == 0o600


def test_back_to_back_runs_undo_in_order(settings) -> None:  # type: ignore[no-untyped-def]
    original = snapshot_bytes(settings.memory_dir)
    for round_ in range(5):
        _apply(
            settings,
            [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": f"r{round_}a"}])],
        )
        _apply(
            settings,
            [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": f"r{round_}b"}])],
        )
        latest_undoable(journal_dir(settings)).restore()
        latest_undoable(journal_dir(settings)).restore()
        assert snapshot_bytes(settings.memory_dir) == original


def test_a_directory_where_a_file_should_be_fails_the_proposal_only(settings) -> None:  # type: ignore[no-untyped-def]
    (settings.memory_dir / "dir.md").mkdir()
    report = _apply(
        settings,
        [
            proposal("P1", "ADD", [{"op": "write_file", "file": "dir.md", "content": "x"}]),
            proposal("P2", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "fine"}]),
        ],
    )
    assert [r.status for r in report.results] == ["failed: dir.md is not a regular file", "done"]


def test_text_edits_refuse_non_utf8_and_partial_line_removals(settings) -> None:  # type: ignore[no-untyped-def]
    (settings.memory_dir / "latin.md").write_bytes(b"Caf\xe9 notes\nold line\n")
    (settings.memory_dir / "rules.md").write_text(
        "Never run migrations by hand; use make migrate\nKeep staging read-only.\n"
    )
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "EDIT",
                [{"op": "replace_text", "file": "latin.md", "old": "old line", "new": "new line"}],
            ),
            proposal(
                "P2",
                "REMOVE",
                [{"op": "replace_text", "file": "rules.md", "old": "use make migrate\n", "new": ""}],
            ),
        ],
    )
    status = {r.proposal.id: r.status for r in report.results}
    assert status["P1"] == "failed: latin.md is not valid UTF-8 (byte 3)"
    assert status["P2"].startswith("failed: a removal must take whole lines")
    assert (settings.memory_dir / "latin.md").read_bytes() == b"Caf\xe9 notes\nold line\n"


def test_encoded_pointers_are_dropped_and_outside_clusters_untouched(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    write_tree(
        settings.memory_dir,
        {
            "my notes.md": "n\n",
            "MEMORY.md": "# Project Memory\n\n## Notes\n"
            "- Notes. → [d](my%20notes.md)\n- Same. → [d](<my notes.md>)\n- keep\n",
        },
    )
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "team.md").write_text("- Team. → [d](../my%20notes.md)\n")
    (settings.memory_dir / "clusters").symlink_to(shared)
    report = _apply(settings, [proposal("P1", "REMOVE", [{"op": "trash_file", "file": "my notes.md"}])])
    assert report.results[0].status == "done"
    assert (settings.memory_dir / "MEMORY.md").read_text() == "# Project Memory\n\n## Notes\n- keep\n"
    assert (shared / "team.md").read_text() == "- Team. → [d](../my%20notes.md)\n"


def test_undo_force_keeps_the_edit_it_overwrites_in_the_trash(settings, trash_dir) -> None:  # type: ignore[no-untyped-def]
    _apply(settings, [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "added"}])])
    index = settings.memory_dir / "MEMORY.md"
    index.write_text(index.read_text() + "- my own later line\n")
    latest_undoable(journal_dir(settings)).restore()
    assert "my own later line" not in index.read_text()
    assert "my own later line" in (trash_dir / "MEMORY.md").read_text()


def test_trashing_a_file_keeps_entries_that_point_elsewhere_too(settings) -> None:  # type: ignore[no-untyped-def]
    write_tree(
        settings.memory_dir,
        {
            "caching.md": "c\n",
            "retries.md": "r\n",
            "café notes.md": "n\n",
            "MEMORY.md": "# Project Memory\n\n## Notes\n"
            "- **When caching:** no caching. → [detail](caching.md), see also [retries](retries.md)\n"
            "- Retries. → [detail](retries.md)\n- Café. → [d](café%20notes.md)\n",
        },
    )
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "REMOVE",
                [{"op": "trash_file", "file": "retries.md"}, {"op": "trash_file", "file": "café notes.md"}],
            )
        ],
    )
    assert report.results[0].status == "done"
    assert (settings.memory_dir / "MEMORY.md").read_text() == (
        "# Project Memory\n\n## Notes\n- **When caching:** no caching. → [detail](caching.md), see also retries\n"
    )


def test_odd_file_names_in_the_memory_dir_do_not_block_a_plan(settings) -> None:  # type: ignore[no-untyped-def]
    write_tree(settings.memory_dir, {"weird\\name.md": "x\n"})
    (settings.memory_dir / "clusters").mkdir()
    (settings.memory_dir / "clusters" / "odd.md").mkdir()
    report = _apply(settings, [proposal("P1", "REMOVE", [{"op": "trash_file", "file": "topic.md"}])])
    assert report.results[0].status == "done"


def test_links_are_checked_where_they_are_written(settings) -> None:  # type: ignore[no-untyped-def]
    root = settings.layout.project
    (root / "docs").mkdir()
    (root / "docs" / "arch.md").write_text("arch\n")
    claude_md = str(settings.layout.project_claude_md)
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "ADD",
                [{"op": "add_entry", "file": claude_md, "text": "Layers. → [detail](docs/arch.md)"}],
                file=claude_md,
                layer="L1",
            ),
            proposal(
                "P2",
                "ADD",
                [{"op": "add_entry", "file": claude_md, "text": "Topic. → [detail](topic.md)"}],
                file=claude_md,
                layer="L1",
            ),
            proposal(
                "P3",
                "ADD",
                [{"op": "add_entry", "file": "MEMORY.md", "text": "Q. → [detail](api quirks.md)"}],
            ),
        ],
    )
    status = {r.proposal.id: r.status for r in report.results}
    assert status["P1"] == "done"
    assert status["P2"] == "failed: the new pointer to topic.md would not resolve"
    assert status["P3"].startswith("failed: a link in the new text does not parse")


def test_clustering_keeps_bracketed_links_working(settings) -> None:  # type: ignore[no-untyped-def]
    write_tree(
        settings.memory_dir,
        {
            "my notes.md": "n\n",
            "MEMORY.md": "# Project Memory\n\n## Notes\n- **When x:** y. → [detail](<my notes.md>)\n",
        },
    )
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "CLUSTER",
                [
                    {
                        "op": "cluster_section",
                        "file": "MEMORY.md",
                        "section": "Notes",
                        "cluster_file": "clusters/notes.md",
                        "pointer": "**When notes:** open. → [Notes](clusters/notes.md)",
                    }
                ],
            )
        ],
    )
    assert report.results[0].status == "done"
    assert "[detail](<../my notes.md>)" in (settings.memory_dir / "clusters" / "notes.md").read_text()


def test_journal_copies_are_private(settings) -> None:  # type: ignore[no-untyped-def]
    _apply(settings, [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "x"}])])
    journal = latest_undoable(journal_dir(settings))
    assert journal.directory.stat().st_mode & 0o777 == 0o700
    assert all(blob.stat().st_mode & 0o777 == 0o600 for blob in (journal.directory / "blobs").iterdir())
