"""The recall index on disk: where it lives, what this SQLite can do, the schema.

One SQLite file per memory dir, `<state>/recall/<key>/index.sqlite3` (the key is the same as every
other per-memory-dir state of ours). `docs` holds each indexed text (redacted) with where it came
from and its folded search form; `fts` (FTS5, unicode61) indexes the search form of every doc and
`fts_auto` only of the memory pieces and tagged messages (decisions, corrections…) auto-recall chooses
from, so the hook ranks a few hundred texts, not a project's whole history. Triggers keep both in step
with `docs`. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import ConsolidateError

RECALL_DIR = "recall"
INDEX_FILE = "index.sqlite3"
SCAN_FILE = "scan.json"
LOCK_FILE = "index.lock"
STAMP_FILE = "refresh.stamp"  # touched when an update starts in the background and when any update ends
SCHEMA_VERSION = "2"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    session TEXT NOT NULL DEFAULT '',
    ts TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL,
    kind TEXT NOT NULL,
    memory_file TEXT NOT NULL DEFAULT '',
    line INTEGER NOT NULL DEFAULT 0,
    text TEXT NOT NULL,
    search TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_source ON docs (source);
CREATE TABLE IF NOT EXISTS memory_files (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, digest TEXT);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (
    search, content='docs', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab (fts, 'row');
CREATE TRIGGER IF NOT EXISTS docs_ai AFTER INSERT ON docs BEGIN
    INSERT INTO fts (rowid, search) VALUES (new.id, new.search);
END;
CREATE TRIGGER IF NOT EXISTS docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO fts (fts, rowid, search) VALUES ('delete', old.id, old.search);
END;
CREATE VIRTUAL TABLE IF NOT EXISTS fts_auto USING fts5 (
    search, content='docs', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS docs_ai_auto AFTER INSERT ON docs WHEN new.kind != 'said' BEGIN
    INSERT INTO fts_auto (rowid, search) VALUES (new.id, new.search);
END;
CREATE TRIGGER IF NOT EXISTS docs_ad_auto AFTER DELETE ON docs WHEN old.kind != 'said' BEGIN
    INSERT INTO fts_auto (fts_auto, rowid, search) VALUES ('delete', old.id, old.search);
END;
"""


@dataclass(frozen=True)
class Capabilities:
    """What this Python's SQLite offers: recall needs FTS5."""

    fts5: bool
    version: str = sqlite3.sqlite_version

    def require(self) -> None:
        if not self.fts5:
            raise ConsolidateError(
                f"recall needs SQLite's FTS5, which this Python's SQLite {self.version} was built without; "
                "use a Python whose sqlite3 has FTS5 (python.org and most distributions' builds do)"
            )


@lru_cache(maxsize=1)
def probe_capabilities() -> Capabilities:
    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE VIRTUAL TABLE probe USING fts5 (x, tokenize='unicode61 remove_diacritics 2')")
    except sqlite3.OperationalError:
        return Capabilities(False)
    finally:
        db.close()
    return Capabilities(True)


def index_dir(state_dir: Path, memory_dir: Path) -> Path:
    """The index's folder, keyed like `Settings.run_dir` by the memory dir's real path."""
    key = hashlib.sha256(os.path.realpath(memory_dir).encode()).hexdigest()[:16]
    return state_dir / RECALL_DIR / key


def open_index(path: Path, capabilities: Capabilities | None = None) -> sqlite3.Connection:
    """The index for writing, created as needed — and created afresh when its schema is older or the
    file is damaged (it is derived data: everything in it is read again)."""
    capabilities = capabilities or probe_capabilities()
    capabilities.require()
    try:
        return _open_schema(path)
    except sqlite3.OperationalError:  # busy, locked, no space: the index is fine, the moment is not
        raise
    except sqlite3.DatabaseError:  # not a database, malformed, another schema
        drop_index(path)
        return _open_schema(path)


def _open_schema(path: Path) -> sqlite3.Connection:
    _private(path)
    db = _connect(path)
    try:
        if _meta(db, "schema") not in (None, SCHEMA_VERSION):
            raise sqlite3.DatabaseError("an index of another schema")
        db.executescript(_SCHEMA)
        with db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def open_reader(path: Path) -> sqlite3.Connection | None:
    """The index read-only, or None when there is none yet (what the hook uses: it never indexes)."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
        if _meta(db, "schema") != SCHEMA_VERSION:
            db.close()
            return None
    except sqlite3.Error:
        return None
    return db


def drop_index(path: Path) -> None:
    """Remove the index and its scan state, so the next update reads everything again."""
    for name in (path.name, path.name + "-wal", path.name + "-shm", SCAN_FILE):
        (path.parent / name).unlink(missing_ok=True)


def _private(path: Path) -> None:
    """The index holds what was said in sessions: a folder and a file only the user can read (SQLite
    gives its -wal and -shm files the database's permissions)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.parent.chmod(0o700)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    path.chmod(0o600)


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=10.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:  # no meta table: a new file
        return None
    return str(row[0]) if row else None
