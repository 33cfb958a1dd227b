"""The index: what goes in (and what never does), incremental updates, and search in four languages."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from consolidate.recall.api import index_scope, recall, refresh
from consolidate.settings import Settings, load_settings
from tests.capture.fixtures import Session, append_session, session_dir, write_session
from tests.helpers.memory import write_tree
from tests.recall.corpus import PLANTED, write_corpus


@pytest.fixture
def settings(tmp_path: Path, claude_home: Path) -> Settings:
    project = tmp_path / "project"
    project.mkdir()
    return load_settings(project, home=claude_home)


def docs(settings: Settings) -> list[tuple[str, str, str]]:
    with sqlite3.connect(index_scope(settings).index) as db:
        return db.execute("SELECT role, kind, text FROM docs ORDER BY id").fetchall()


def test_each_synthetic_query_finds_its_session_in_the_top_five(
    settings: Settings, claude_home: Path
) -> None:
    sessions = write_corpus(claude_home, settings.layout.project)
    misses = []
    for planted in PLANTED:
        hits = recall(settings, planted.query, limit=5).hits
        if sessions[planted.key] not in [h.session for h in hits]:
            misses.append((planted.key, planted.query, [h.text[:40] for h in hits]))
    assert misses == []


def test_first_hit_holds_the_match_in_its_snippet(settings: Settings, claude_home: Path) -> None:
    sessions = write_corpus(claude_home, settings.layout.project)
    result = recall(settings, "which cache did we pick for sessions")
    best = result.hits[0]
    assert best.session == sessions["cache-en"] and best.timestamp.startswith("2026-11-29T")
    assert (
        best.snippet(result.terms, mark=("**", "**")) == "Done: the **session** **cache** now lives in Redis."
    )
    decision = next(h for h in result.hits if h.role == "user")
    assert (decision.session, decision.kind) == (sessions["cache-en"], "decision")


def test_tool_output_machine_text_and_subagents_are_never_indexed(
    settings: Settings, claude_home: Path
) -> None:
    project = settings.layout.project
    session = (
        Session(cwd=str(project))
        .user("build it")
        .assistant("Running the build.", tools=[{"name": "Bash", "input": {"command": "make zebracommand"}}])
    )
    session.tool_result("zebraoutput: compiled 12 files").user(
        "<system-reminder>zebrareminder</system-reminder>"
    )
    session.user("thanks, looks fine").assistant("Glad it worked.")
    write_session(claude_home, project, session)
    agent = (
        Session(session_id=session.session_id, cwd=str(project)).user("zebraprompt").assistant("zebrareport")
    )
    folder = session_dir(claude_home, project) / session.session_id / "subagents"
    folder.mkdir(parents=True)
    (folder / "agent-a1.jsonl").write_text(agent.lines(), encoding="utf-8")
    refresh(settings)
    texts = [text for _, _, text in docs(settings)]
    assert texts == ["build it", "Running the build.", "thanks, looks fine", "Glad it worked."]


def test_a_secret_never_reaches_the_index_file(settings: Settings, claude_home: Path) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    write_session(claude_home, settings.layout.project, Session(cwd=str(settings.layout.project)).user(
        f"deploy with the token {token} please"))  # fmt: skip
    write_tree(settings.memory_dir, {"MEMORY.md": f"- **When deploying:** the key is {token}\n"})
    refresh(settings)
    scope = index_scope(settings)
    for path in scope.index.parent.iterdir():
        assert token.encode() not in path.read_bytes(), path.name
    hits = recall(settings, "deploy token", update=False).hits
    assert {h.role for h in hits} == {"user", "memory"}
    assert all("[REDACTED:github-token]" in h.text for h in hits)


def test_an_unchanged_transcript_is_not_read_again_and_an_appended_one_only_from_its_offset(
    settings: Settings, claude_home: Path
) -> None:
    project = settings.layout.project
    session = Session(cwd=str(project)).user("first question about parsers").assistant("first answer")
    path = write_session(claude_home, project, session)
    write_session(claude_home, project, Session(cwd=str(project)).user("another session"))
    first = refresh(settings)
    assert (first.read, first.added) == (2, 3)
    again = refresh(settings)
    assert (again.read, again.unchanged, again.added) == (0, 2, 0)
    start = len(session.records)
    session.user("second question about lexers").assistant("second answer")
    append_session(path, session, start)
    appended = refresh(settings)
    assert (appended.read, appended.unchanged, appended.added, appended.removed) == (1, 1, 2, 0)
    assert len(docs(settings)) == 5


def test_a_rewritten_transcript_replaces_its_documents(settings: Settings, claude_home: Path) -> None:
    project = settings.layout.project
    session = Session(cwd=str(project)).user("old words about kiwis").assistant("kiwis noted")
    path = write_session(claude_home, project, session)
    refresh(settings)
    path.write_text(Session(session_id=session.session_id, cwd=str(project)).user("fresh words").lines())
    stats = refresh(settings)
    assert (stats.read, stats.removed, stats.added) == (1, 2, 1)
    assert [text for _, _, text in docs(settings)] == ["fresh words"]


def test_memory_files_are_indexed_by_entry_and_follow_edits_and_removals(settings: Settings) -> None:
    write_tree(settings.memory_dir, {
        "MEMORY.md": "# Project Memory\n\n## Build\n- **When building:** run `make dist`. → [d](build.md)\n",
        "build.md": "---\nname: build\ndescription: how the dist archive is made\n---\n\nThe archive goes to dist/.\n",
    })  # fmt: skip
    first = refresh(settings)
    assert (first.memory_files, first.memory_changed, first.added) == (2, 2, 2)
    hit = recall(settings, "dist archive", update=False).hits[0]
    assert (hit.memory_file, hit.role) == ("build.md", "memory")
    entry = recall(settings, "building", update=False).hits[0]
    assert (entry.memory_file, entry.line) == ("MEMORY.md", 4)
    assert refresh(settings).memory_changed == 0
    (settings.memory_dir / "build.md").unlink()
    stats = refresh(settings)
    assert stats.removed == 1
    assert [h.memory_file for h in recall(settings, "dist archive", update=False).hits] == ["MEMORY.md"]


def test_a_lost_index_reads_everything_again_despite_the_scan_state(
    settings: Settings, claude_home: Path
) -> None:
    write_session(
        claude_home, settings.layout.project, Session(cwd=str(settings.layout.project)).user("hello kiwis")
    )
    refresh(settings)
    index = index_scope(settings).index
    index.unlink()
    assert refresh(settings).added == 1
    assert recall(settings, "kiwis", update=False).hits


def test_since_leaves_out_older_session_hits_but_keeps_memory(settings: Settings, claude_home: Path) -> None:
    from datetime import UTC, datetime

    write_session(
        claude_home, settings.layout.project, Session(cwd=str(settings.layout.project)).user("kiwis here")
    )
    write_tree(settings.memory_dir, {"MEMORY.md": "- kiwis live in memory too\n"})
    hits = recall(settings, "kiwis", since=datetime(2027, 1, 1, tzinfo=UTC)).hits
    assert [h.role for h in hits] == ["memory"]
    assert len(recall(settings, "kiwis", since=datetime(2026, 1, 1, tzinfo=UTC)).hits) == 2


def test_without_fts5_recall_says_what_is_missing(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from consolidate.errors import ConsolidateError
    from consolidate.recall import store

    monkeypatch.setattr(store, "probe_capabilities", lambda: store.Capabilities(False, "3.7.0"))
    with pytest.raises(ConsolidateError, match=r"FTS5, which this Python's SQLite 3.7.0 was built without"):
        refresh(settings)


def test_the_index_json_stats_match_what_was_read(settings: Settings, claude_home: Path) -> None:
    write_corpus(claude_home, settings.layout.project)
    stats = refresh(settings).to_dict()
    assert stats["sessions"] == len(PLANTED) + 5 and stats["read"] == stats["sessions"]
    assert json.loads(json.dumps(stats)) == stats


def test_the_index_is_private_to_the_user(settings: Settings, claude_home: Path) -> None:
    write_session(
        claude_home, settings.layout.project, Session(cwd=str(settings.layout.project)).user("private words")
    )
    refresh(settings)
    index = index_scope(settings).index
    assert index.parent.stat().st_mode & 0o777 == 0o700
    for path in index.parent.glob("index.sqlite3*"):
        assert path.stat().st_mode & 0o077 == 0, path.name


def test_a_damaged_index_is_rebuilt_from_the_transcripts(settings: Settings, claude_home: Path) -> None:
    write_session(
        claude_home, settings.layout.project, Session(cwd=str(settings.layout.project)).user("kiwi words")
    )
    refresh(settings)
    index = index_scope(settings).index
    for path in index.parent.glob("index.sqlite3*"):
        path.write_bytes(b"not a database" * 100)
    assert refresh(settings).added == 1
    assert [h.text for h in recall(settings, "kiwi", update=False).hits] == ["kiwi words"]
