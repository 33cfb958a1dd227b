from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from consolidate.apply import apply_plan
from consolidate.errors import ConsolidateError
from consolidate.journal import latest_undoable, pending_journal
from consolidate.plan import Plan
from consolidate.runs import journal_dir, write_scope, writing_run
from tests.helpers.memory import plan_dict, project_settings, proposal, snapshot_bytes, write_tree

INDEX = """# Project Memory

## Feedback
- **When running tests:** use `make test`. → [detail](testing.md)
- **When deploying:** staging first. → [detail](deploy.md)
- old note about the v1 API

## Project
- Builds use uv. → [detail](build.md)
"""


@pytest.fixture
def settings(git_repo, claude_home: Path):  # type: ignore[no-untyped-def]
    s = project_settings(git_repo.path, claude_home)
    write_tree(
        s.memory_dir,
        {
            "MEMORY.md": INDEX,
            "testing.md": "---\nname: testing\n---\nRun make test.\n",
            "deploy.md": "Staging first, always.\n",
            "build.md": "uv sync; uv run.\n",
        },
    )
    return s


def _apply(settings, proposals, **kwargs):  # type: ignore[no-untyped-def]
    plan = Plan.model_validate(plan_dict(settings, proposals, mark=kwargs.pop("mark", False)))
    return apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings), **kwargs)


def test_add_with_new_topic_file(settings) -> None:  # type: ignore[no-untyped-def]
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "ADD",
                [
                    {
                        "op": "write_file",
                        "file": "ports.md",
                        "content": "Port 8080 is taken by the proxy.\n",
                        "create_only": True,
                    },
                    {
                        "op": "add_entry",
                        "file": "MEMORY.md",
                        "section": "Project",
                        "text": "**When starting the dev server:** use port 8081. → [detail](ports.md)",
                    },
                ],
                section="Project",
            )
        ],
    )
    assert [r.status for r in report.results] == ["done"]
    text = (settings.memory_dir / "MEMORY.md").read_text()
    assert text == INDEX + "- **When starting the dev server:** use port 8081. → [detail](ports.md)\n"
    assert (settings.memory_dir / "ports.md").read_text() == "Port 8080 is taken by the proxy.\n"


def test_remove_trashes_the_file_and_drops_its_pointer(settings, trash_dir: Path) -> None:  # type: ignore[no-untyped-def]
    report = _apply(
        settings, [proposal("P1", "REMOVE", [{"op": "trash_file", "file": "deploy.md"}], file="deploy.md")]
    )
    assert report.ok and report.results[0].status == "done"
    assert not (settings.memory_dir / "deploy.md").exists()
    assert (trash_dir / "deploy.md").read_text() == "Staging first, always.\n"
    assert "deploy.md" not in (settings.memory_dir / "MEMORY.md").read_text()


def test_merge_writes_merged_entry_and_trashes_absorbed(settings, trash_dir: Path) -> None:  # type: ignore[no-untyped-def]
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "MERGE",
                [
                    {
                        "op": "replace_entry",
                        "file": "MEMORY.md",
                        "old": "- **When running tests:** use `make test`. → [detail](testing.md)",
                        "new": "- **When testing or deploying:** `make test`, then staging. → [detail](testing.md)",
                    },
                    {"op": "trash_file", "file": "deploy.md"},
                ],
            )
        ],
    )
    assert report.results[0].status == "done"
    text = (settings.memory_dir / "MEMORY.md").read_text()
    assert "**When testing or deploying:**" in text and "deploy.md" not in text
    assert (trash_dir / "deploy.md").exists()


def test_cluster_moves_remaining_entries_after_removals(settings) -> None:  # type: ignore[no-untyped-def]
    report = _apply(
        settings,
        [
            proposal(
                "P2",
                "CLUSTER",
                [
                    {
                        "op": "cluster_section",
                        "file": "MEMORY.md",
                        "section": "Feedback",
                        "cluster_file": "clusters/feedback.md",
                        "preamble": "Corrections from the user.",
                        "pointer": "**When taking feedback into account:** read the cluster. → [feedback](clusters/feedback.md)",
                    }
                ],
            ),
            proposal(
                "P1",
                "REMOVE",
                [{"op": "drop_entry", "file": "MEMORY.md", "text": "- old note about the v1 API"}],
            ),
        ],
    )
    assert [r.proposal.id for r in report.results] == ["P1", "P2"]
    assert all(r.status == "done" for r in report.results)
    cluster = (settings.memory_dir / "clusters/feedback.md").read_text()
    assert cluster == (
        "# Feedback\n\nCorrections from the user.\n\n"
        "- **When running tests:** use `make test`. → [detail](../testing.md)\n"
        "- **When deploying:** staging first. → [detail](../deploy.md)\n"
    )
    index = (settings.memory_dir / "MEMORY.md").read_text()
    assert "## Feedback\n- **When taking feedback into account:** read the cluster." in index
    assert "v1 API" not in index and "Builds use uv" in index


def test_a_failing_proposal_changes_nothing_and_others_apply(settings) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(settings.memory_dir)
    report = _apply(
        settings,
        [
            proposal(
                "P1",
                "EDIT",
                [
                    {
                        "op": "add_entry",
                        "file": "MEMORY.md",
                        "section": "Project",
                        "text": "half of a change",
                    },
                    {"op": "replace_entry", "file": "MEMORY.md", "old": "- no such entry", "new": "- x"},
                ],
            ),
            proposal(
                "P2",
                "ADD",
                [
                    {
                        "op": "add_entry",
                        "file": "MEMORY.md",
                        "section": "Project",
                        "text": "**When x:** y. → [detail](nowhere.md)",
                    }
                ],
            ),
            proposal(
                "P3",
                "ADD",
                [{"op": "add_entry", "file": "MEMORY.md", "section": "Project", "text": "a fact"}],
            ),
        ],
    )
    statuses = {r.proposal.id: r.status for r in report.results}
    assert statuses["P1"].startswith("failed: entry not found")
    assert statuses["P2"] == "failed: the new pointer to nowhere.md would not resolve"
    assert statuses["P3"] == "done"
    after = (settings.memory_dir / "MEMORY.md").read_text()
    assert after == before["MEMORY.md"].decode() + "- a fact\n"


def test_snapshot_mismatch_refuses_and_names_the_file(settings) -> None:  # type: ignore[no-untyped-def]
    plan = Plan.model_validate(
        plan_dict(settings, [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "x"}])])
    )
    (settings.memory_dir / "deploy.md").write_text("edited by hand\n")
    before = snapshot_bytes(settings.memory_dir)
    with pytest.raises(ConsolidateError, match="deploy.md changed since the plan was made"):
        apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings))
    assert snapshot_bytes(settings.memory_dir) == before


def test_l0_needs_explicit_confirmation(settings) -> None:  # type: ignore[no-untyped-def]
    user = str(settings.layout.user_claude_md)
    l0 = proposal(
        "P1", "ADD", [{"op": "add_entry", "file": user, "text": "Answer in English."}], file=user, layer="L0"
    )
    skipped = _apply(settings, [l0])
    assert skipped.results[0].status.startswith("skipped: changes ~/.claude/CLAUDE.md")
    assert not settings.layout.user_claude_md.exists()
    confirmed = _apply(settings, [l0], confirm_l0=True)
    assert confirmed.results[0].status == "done"
    assert settings.layout.user_claude_md.read_text() == "- Answer in English.\n"


def test_marker_written_when_asked(settings) -> None:  # type: ignore[no-untyped-def]
    report = _apply(
        settings, [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "x"}])], mark=True
    )
    assert report.marker_written
    # the time the sessions were gathered (the plan's creation), not the time of applying
    assert (settings.memory_dir / ".last-consolidation").read_text() == "2026-11-29T12:00:00Z\n"


def test_the_marker_keeps_the_microseconds_of_the_gathering(settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import os
    from datetime import UTC, datetime

    from consolidate.marker import read_marker, sessions_since

    data = plan_dict(settings, [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "x"}])],
                     mark=True)  # fmt: skip
    data["gathered_at"] = "2026-11-29T12:00:00.500000Z"
    apply_plan(Plan.model_validate(data), write_scope(settings), journal_dir=journal_dir(settings))
    assert (settings.memory_dir / ".last-consolidation").read_text() == "2026-11-29T12:00:00.500000Z\n"
    marker = read_marker(settings.memory_dir)
    assert marker == datetime(2026, 11, 29, 12, 0, 0, 500000, tzinfo=UTC)
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    second = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC).timestamp()
    read, after = sessions / "read.jsonl", sessions / "after.jsonl"
    for path, moment in ((read, second + 0.25), (after, second + 0.75)):  # both in the marker's second
        path.write_text("{}\n")
        os.utime(path, (moment, moment))
    assert sessions_since(sessions, marker) == 1  # the one written before the gathering began is not since
    os.utime(after, (second + 0.4, second + 0.4))
    assert sessions_since(sessions, marker) == 0


def test_undo_restores_every_byte_even_after_the_trash_is_emptied(settings, trash_dir: Path) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(settings.memory_dir)
    _apply(
        settings,
        [
            proposal("P1", "REMOVE", [{"op": "trash_file", "file": "deploy.md"}]),
            proposal(
                "P2",
                "ADD",
                [
                    {"op": "write_file", "file": "new.md", "content": "n\n"},
                    {"op": "add_entry", "file": "MEMORY.md", "text": "N. → [d](new.md)"},
                ],
            ),
        ],
        mark=True,
    )
    shutil.rmtree(trash_dir.parent)  # the user empties the trash
    journal = latest_undoable(journal_dir(settings))
    journal.restore()
    assert snapshot_bytes(settings.memory_dir) == before


@pytest.mark.parametrize("crash_at", range(6))
def test_crash_after_any_step_is_recoverable(settings, crash_at: int) -> None:  # type: ignore[no-untyped-def]
    before = snapshot_bytes(settings.memory_dir)
    steps: list[str] = []

    def crash(step: str) -> None:
        steps.append(step)
        if len(steps) > crash_at:
            raise KeyboardInterrupt("simulated crash")

    proposals = [
        proposal("P1", "REMOVE", [{"op": "trash_file", "file": "deploy.md"}]),
        proposal(
            "P2",
            "MERGE",
            [
                {"op": "trash_file", "file": "build.md"},
                {"op": "add_entry", "file": "MEMORY.md", "text": "merged"},
            ],
        ),
        proposal(
            "P3",
            "ADD",
            [
                {"op": "write_file", "file": "a.md", "content": "a"},
                {"op": "add_entry", "file": "MEMORY.md", "text": "A. → [d](a.md)"},
            ],
        ),
    ]
    try:
        _apply(settings, proposals, on_step=crash, mark=True)
    except KeyboardInterrupt:
        pass
    else:
        assert crash_at >= len(steps)  # finished before the crash point
    if crash_at < len(steps):
        assert pending_journal(journal_dir(settings)) is not None
        with pytest.raises(ConsolidateError, match="interrupted"), writing_run(settings):
            pass
    latest_undoable(journal_dir(settings)).restore()
    assert snapshot_bytes(settings.memory_dir) == before


def test_an_entry_quoting_toml_array_tables_applies(settings) -> None:  # type: ignore[no-untyped-def]
    text = "**When adding a binary:** declare it as a `[[bin]]` table in Cargo.toml."
    report = _apply(
        settings,
        [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "section": "Project", "text": text}])],
    )
    assert [r.status for r in report.results] == ["done"]
    assert f"- {text}\n" in (settings.memory_dir / "MEMORY.md").read_text()
