"""Keep the recall index in step with the transcripts and the memory dir, reading only what changed.

Transcripts are read through the scan state (`iter_new_records` / `ScanState`): an unchanged file is
not opened, an appended one is read from its offset, a replaced or truncated one again from the start
(its documents are dropped first). What is indexed: what the user typed and the assistant's text in
main sessions — never tool calls or their output, machine-written turns, compaction summaries or
subagent transcripts — each tagged decision / correction / remember / learning / said. Memory files
are re-read when their size, mtime or content changed, and dropped when they are gone. Every text is
redacted before it enters the index.

A transcript that Claude Code deletes later (it prunes old sessions) stays searchable: that is what
a long-term layer is for. `rebuild` starts over from what exists.
"""

from __future__ import annotations

import fcntl
import hashlib
import secrets as random
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..secrets import redact
from ..transcripts import (
    Change,
    LineStats,
    ScanState,
    TranscriptFile,
    classify_change,
    find_markers,
    find_transcripts,
    human_text,
    iter_new_records,
    normalize,
    state_key,
)
from ..transcripts.records import METADATA_PREFIXES, PROGRESS_MARKERS
from .memoryfiles import memory_files, pieces, read_text
from .store import LOCK_FILE, SCAN_FILE, STAMP_FILE, Capabilities, drop_index, open_index
from .text import search_text

# Records that never hold what was said: progress, and tool results (left unparsed; see iter_json_lines).
_UNSAID = (*PROGRESS_MARKERS, b'"type":"tool_result"', b'"type": "tool_result"')
Row = tuple[str, str, str, str, str, str, str, int, str, str]
_INSERT = (
    "INSERT OR IGNORE INTO docs (uid, source, session, ts, role, kind, memory_file, line, text, search)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


@dataclass(frozen=True)
class IndexScope:
    """What one index covers: the project's transcript folders and its memory dir."""

    index: Path
    transcripts_dirs: tuple[Path, ...]
    memory_dir: Path

    @property
    def scan_file(self) -> Path:
        return self.index.parent / SCAN_FILE


@dataclass
class IndexStats:
    sessions: int = 0
    unchanged: int = 0
    read: int = 0
    added: int = 0
    removed: int = 0
    memory_files: int = 0
    memory_changed: int = 0
    lines: LineStats = field(default_factory=LineStats)

    def to_dict(self) -> dict[str, Any]:
        counts = {k: v for k, v in vars(self).items() if k != "lines"}
        return {**counts, "bad_lines": self.lines.bad_json + self.lines.oversized}


class IndexBusy(Exception):
    """Another process is updating this index."""


def update_index(
    scope: IndexScope,
    *,
    capabilities: Capabilities | None = None,
    rebuild: bool = False,
    wait: bool = True,
    now: datetime | None = None,
) -> IndexStats:
    """Bring the index up to date; IndexBusy when `wait` is off and another update runs."""
    with _index_lock(scope.index, wait):
        if rebuild:
            drop_index(scope.index)
        db = open_index(scope.index, capabilities)
        try:
            return _update(db, scope, now or datetime.now(UTC))
        finally:
            db.close()


def _update(db: sqlite3.Connection, scope: IndexScope, now: datetime) -> IndexStats:
    stats = IndexStats()
    state = _scan_state(db, scope)
    with db:
        for directory in scope.transcripts_dirs:
            for file in find_transcripts(directory):
                if not file.is_subagent:
                    _index_transcript(db, file, state, stats)
        _index_memory(db, scope.memory_dir, stats)
        stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('updated_at', ?)", (stamp,))
        db.execute("INSERT OR REPLACE INTO meta SELECT 'docs', count(*) FROM docs")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('memory_dir', ?)", (str(scope.memory_dir),))
    state.forget_missing()
    state.save(scope.scan_file)  # after the commit: a crash in between re-reads, and INSERT OR IGNORE dedupes
    (scope.index.parent / STAMP_FILE).touch()  # what auto-recall reads to decide whether to refresh
    return stats


def _scan_state(db: sqlite3.Connection, scope: IndexScope) -> ScanState:
    """The saved read offsets — only when they belong to this very index file (else read everything)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    if row is None:
        generation = random.token_hex(8)
        with db:
            db.execute("INSERT INTO meta VALUES ('generation', ?)", (generation,))
    else:
        generation = str(row[0])
    state = ScanState.load(scope.scan_file)
    if state.data.get("generation") != generation:
        state = ScanState(data={"generation": generation})
    return state


def _index_transcript(
    db: sqlite3.Connection, file: TranscriptFile, state: ScanState, stats: IndexStats
) -> None:
    stats.sessions += 1
    key = state_key(file.path)
    change, _ = classify_change(file.path, state.files.get(key))
    if change is Change.UNCHANGED or change is Change.MISSING:
        stats.unchanged += change is Change.UNCHANGED
        return
    if change.from_start and key in state.files:
        stats.removed += db.execute("DELETE FROM docs WHERE source = ?", (key,)).rowcount
    stats.read += 1
    records = iter_new_records(
        file.path, state, stats.lines, skip_prefixes=METADATA_PREFIXES, skip_markers=_UNSAID
    )
    rows = _transcript_rows(file, key, records)
    stats.added += _insert(db, rows)


def _transcript_rows(file: TranscriptFile, key: str, records: Iterable[dict[str, Any]]) -> Iterator[Row]:
    for position, raw in enumerate(records):
        record = normalize(raw)
        if record is None or record.sidechain or record.meta or record.compact_summary:
            continue
        if record.type == "user":
            text, role = human_text(record), "user"
        elif record.type == "assistant":
            text, role = record.text.strip(), "assistant"
        else:
            continue
        if not text:
            continue
        text = redact(text)
        kind = _user_kind(text) if role == "user" else ("learning" if find_markers(text) else "said")
        uid = f"{key}#{record.uuid or position}"
        yield _row(uid, key, file.session_id, record.timestamp, role, kind, "", 0, text)


def _row(
    uid: str, source: str, session: str, ts: str, role: str, kind: str, memory: str, line: int, text: str
) -> Row:
    return (uid, source, session, ts, role, kind, memory, line, text, search_text(text))


def _insert(db: sqlite3.Connection, rows: Iterable[Row]) -> int:
    return max(0, db.executemany(_INSERT, rows).rowcount)


def _index_memory(db: sqlite3.Connection, memory_dir: Path, stats: IndexStats) -> None:
    known = {row[0]: row[1:] for row in db.execute("SELECT path, size, mtime_ns, digest FROM memory_files")}
    seen: set[str] = set()
    for relative, path in memory_files(memory_dir):
        seen.add(relative)
        stats.memory_files += 1
        try:
            stat = path.stat()
        except OSError:
            continue
        previous = known.get(relative)
        if previous is not None and tuple(previous[:2]) == (stat.st_size, stat.st_mtime_ns):
            continue
        text = read_text(path)
        digest = hashlib.sha256(text.encode()).hexdigest() if text is not None else ""
        if previous is not None and previous[2] == digest:
            db.execute("UPDATE memory_files SET size = ?, mtime_ns = ? WHERE path = ?",
                       (stat.st_size, stat.st_mtime_ns, relative))  # fmt: skip
            continue
        stats.memory_changed += 1
        stats.removed += _forget_memory(db, relative)
        db.execute("INSERT OR REPLACE INTO memory_files VALUES (?, ?, ?, ?)",
                   (relative, stat.st_size, stat.st_mtime_ns, digest))  # fmt: skip
        if text is not None:
            stamp = datetime.fromtimestamp(stat.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            stats.added += _insert(db, _memory_rows(relative, text, stamp))
    for gone in set(known) - seen:
        stats.removed += _forget_memory(db, gone)
        db.execute("DELETE FROM memory_files WHERE path = ?", (gone,))


def _memory_rows(relative: str, text: str, stamp: str) -> Iterator[Row]:
    for piece in pieces(relative, text):
        clean = redact(piece.text)
        uid = f"memory:{relative}:{piece.line}:{hashlib.sha1(clean.encode(), usedforsecurity=False).hexdigest()[:8]}"
        yield _row(uid, "memory:" + relative, "", stamp, "memory", "memory", relative, piece.line, clean)


def _forget_memory(db: sqlite3.Connection, relative: str) -> int:
    return int(db.execute("DELETE FROM docs WHERE source = ?", ("memory:" + relative,)).rowcount)


@lru_cache(maxsize=1)
def _classifier() -> Callable[[str], str]:
    """The discoverer's classifier of user messages; the correction detector alone where the
    discoverer's dependencies are not installed (a plugin-only Python)."""
    try:
        from ..discover.detectors import classify_message
        from ..discover.text import mask_code
    except ImportError:
        from ..capture.corrections import find_correction

        return lambda text: "correction" if find_correction(text) else ""
    return lambda text: classify_message(mask_code(text).lower())


def _user_kind(text: str) -> str:
    return _classifier()(text) or "said"


@contextmanager
def _index_lock(index: Path, wait: bool) -> Iterator[None]:
    index.parent.mkdir(parents=True, exist_ok=True)
    with open(index.parent / LOCK_FILE, "a") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise IndexBusy(str(index)) from None
        yield
