"""The durable capture queue: one SQLite file, one bucket per repository, each item exactly once.

An item's id is sha256(channel NUL payload), so the same marker seen twice is one item. Acking deletes
the item and records its id as processed; an enqueue of a processed id is ignored, so an acked item
never comes back. WAL and a busy timeout let ticks, hooks and the dream share the file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from ..errors import UsageError
from ..fsutil import sha256_hex
from ..plain import Frozen
from .config import Config
from .places import claude_home, repo_root, state_root

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

QUEUE_FILE = "queue.sqlite3"
BUSY_TIMEOUT_MS = 30_000
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS items (bucket TEXT NOT NULL, id TEXT NOT NULL, channel TEXT NOT NULL,"
    " payload TEXT NOT NULL, created_at TEXT NOT NULL, source TEXT NOT NULL DEFAULT '{}',"
    " PRIMARY KEY (bucket, id))",
    "CREATE TABLE IF NOT EXISTS processed (bucket TEXT NOT NULL, id TEXT NOT NULL,"
    " acked_at TEXT NOT NULL, PRIMARY KEY (bucket, id))",
)


def item_id(channel: str, payload: str) -> str:
    return sha256_hex(f"{channel}\0{payload}".encode())


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class NewItem(Frozen):
    __slots__ = FIELDS = ("channel", "payload", "source")
    channel: str
    payload: str
    source: dict[str, Any]

    def __init__(self, channel: str, payload: str, source: dict[str, Any] | None = None) -> None:
        self._set(channel=channel, payload=payload, source={} if source is None else source)

    @property
    def id(self) -> str:
        return item_id(self.channel, self.payload)


def bucket_for(project: str | os.PathLike[str]) -> str:
    """The bucket of a project: its repository's main checkout, shared by all worktrees."""
    return str(repo_root(project))


def _enable_wal(db: sqlite3.Connection) -> None:
    """Switch to WAL. The switch needs an exclusive lock and SQLite does not wait for it under the busy
    timeout, so processes opening a new queue together retry it for a while."""
    for attempt in range(100):
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError:
            if attempt == 99:
                raise
            time.sleep(0.02 + 0.01 * (attempt % 5))


class Queue:
    """The queue file; every method is one short transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _enable_wal(self._db)
        self._db.execute("PRAGMA synchronous = NORMAL")
        with self.transaction() as db:
            for statement in _SCHEMA:
                db.execute(statement)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Queue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT: writers take the lock up front, so no upgrade deadlocks."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def enqueue(self, bucket: str, items: Iterable[NewItem]) -> list[str]:
        """Add the items not yet queued nor processed; returns the ids actually added. Payloads and
        sources are redacted here, whoever made them."""
        from ..secrets import redact, redact_data

        added: list[str] = []
        stamp = now_iso()
        with self.transaction() as db:
            for item in items:
                cursor = db.execute(
                    "INSERT INTO items (bucket, id, channel, payload, created_at, source)"
                    " SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS"
                    " (SELECT 1 FROM processed WHERE bucket = ? AND id = ?)"
                    " ON CONFLICT (bucket, id) DO NOTHING",
                    (
                        bucket,
                        item.id,
                        item.channel,
                        _safe(redact(item.payload)),
                        stamp,
                        json.dumps(redact_data(item.source)),
                        bucket,
                        item.id,
                    ),
                )
                if cursor.rowcount:
                    added.append(item.id)
        return added

    def pending(self, bucket: str, channel: str | None = None) -> list[dict[str, Any]]:
        """The bucket's items, oldest first."""
        query = "SELECT id, channel, payload, created_at, source FROM items WHERE bucket = ?"
        params: tuple[str, ...] = (bucket,)
        if channel:
            query, params = query + " AND channel = ?", (bucket, channel)
        rows = self._db.execute(query + " ORDER BY created_at, rowid", params).fetchall()
        return [_row_dict(row) for row in rows]

    def counts(self, bucket: str) -> dict[str, int]:
        rows = self._db.execute(
            "SELECT channel, COUNT(*) FROM items WHERE bucket = ? GROUP BY channel ORDER BY channel",
            (bucket,),
        )
        return {channel: count for channel, count in rows}

    def resolve(self, bucket: str, prefix: str) -> str:
        """The one pending id starting with `prefix`; unknown or ambiguous prefixes are usage errors."""
        prefix = prefix.strip().lower()
        if not prefix or any(c not in "0123456789abcdef" for c in prefix):
            raise UsageError(f"not an item id: {prefix!r} (ids are hexadecimal)")
        rows = self._db.execute(
            "SELECT id FROM items WHERE bucket = ? AND substr(id, 1, ?) = ?", (bucket, len(prefix), prefix)
        ).fetchall()
        if not rows:
            raise UsageError(
                f"no pending item with id {prefix} in this project (already acked, or never queued)"
            )
        if len(rows) > 1:
            raise UsageError(
                f"id {prefix} is ambiguous: it starts {len(rows)} pending items; give more digits"
            )
        return str(rows[0][0])

    def ack(self, bucket: str, ids: Iterable[str]) -> list[str]:
        """Delete the items and remember them as processed; returns the ids that were pending."""
        acked: list[str] = []
        stamp = now_iso()
        with self.transaction() as db:
            for identifier in ids:
                cursor = db.execute("DELETE FROM items WHERE bucket = ? AND id = ?", (bucket, identifier))
                db.execute(
                    "INSERT INTO processed (bucket, id, acked_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (bucket, identifier, stamp),
                )
                if cursor.rowcount:
                    acked.append(identifier)
        return acked


def _row_dict(row: tuple[Any, ...]) -> dict[str, Any]:
    identifier, channel, payload, created_at, source = row
    try:
        origin = json.loads(source)
    except (ValueError, RecursionError):
        origin = {}
    return {
        "id": identifier,
        "channel": channel,
        "payload": payload,
        "created_at": created_at,
        "source": origin,
    }


def open_queue(home: str | os.PathLike[str] | None = None) -> Queue:
    """The queue of this user: `<state dir>/queue.sqlite3`."""
    return Queue(state_root(claude_home(home)) / QUEUE_FILE)


def pending_items(
    project: str | os.PathLike[str], *, channel: str | None = None, home: str | os.PathLike[str] | None = None
) -> list[dict[str, Any]]:
    """What the dream drains: the project's pending items (id, channel, payload, created_at, source)."""
    with open_queue(home) as queue:
        return queue.pending(bucket_for(project), channel)


def ack(
    project: str | os.PathLike[str], ids: Iterable[str], *, home: str | os.PathLike[str] | None = None
) -> list[str]:
    """Mark items processed once their proposal was applied or explicitly rejected."""
    with open_queue(home) as queue:
        return queue.ack(bucket_for(project), list(ids))


def pending_signals(queue: Queue, bucket: str, config: Config) -> list[str]:
    """The auto-drain signal of each channel with pending items; nothing when the queue is empty."""
    return [config.signal(channel, count) for channel, count in queue.counts(bucket).items() if count]


def _safe(text: str) -> str:
    """Text SQLite can store as UTF-8: a lone surrogate becomes "?"."""
    return text.encode("utf-8", "replace").decode("utf-8") if not text.isascii() else text
