"""The journal: the exact previous bytes of every file a run touches, written before any change.

`consolidate undo` restores them — also for files that were sent to the trash and the trash was
emptied since, because the journal keeps its own copy. A run interrupted half-way leaves a pending
journal, and undo rolls it back the same way.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from send2trash import send2trash

from .errors import ConsolidateError
from .fsutil import ABSENT, atomic_write, digest_bytes, digest_file, fsync_dir

PENDING, COMPLETE, UNDONE = "pending", "complete", "undone"


@dataclass
class FileRecord:
    path: str  # absolute
    before: str  # digest of the previous bytes, or "absent"
    after: str  # digest the run means to leave, or "absent" when it trashes the file
    blob: str | None = None  # name of the copy of the previous bytes


@dataclass
class Journal:
    directory: Path
    status: str = PENDING
    created_at: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    summary: str = ""
    files: list[FileRecord] = field(default_factory=list)

    @property
    def run_id(self) -> str:
        return self.directory.name

    @classmethod
    def begin(cls, root: Path, changes: dict[Path, bytes | None], summary: str) -> Journal:
        """Copy the previous bytes of every file in `changes` and record the intended result."""
        run_id = (
            time.strftime("%Y%m%dT%H%M%S", time.gmtime())
            + f"-{os.getpid()}-{time.monotonic_ns() % 10**6:06d}"
        )
        journal = cls(root / run_id, summary=summary)
        (journal.directory / "blobs").mkdir(parents=True)
        for number, (path, after) in enumerate(sorted(changes.items(), key=lambda item: str(item[0]))):
            before = path.read_bytes() if path.exists() else None
            record = FileRecord(
                str(path),
                ABSENT if before is None else digest_bytes(before),
                ABSENT if after is None else digest_bytes(after),
            )
            if before is not None:
                record.blob = f"{number:04d}"
                blob = journal.directory / "blobs" / record.blob
                blob.write_bytes(before)
                with open(blob, "rb+") as handle:
                    os.fsync(handle.fileno())
            journal.files.append(record)
        fsync_dir(journal.directory / "blobs")
        journal.save()
        return journal

    def save(self) -> None:
        data = {
            "status": self.status,
            "created_at": self.created_at,
            "summary": self.summary,
            "files": [asdict(record) for record in self.files],
        }
        atomic_write(self.directory / "manifest.json", (json.dumps(data, indent=2) + "\n").encode())

    def mark(self, status: str) -> None:
        self.status = status
        self.save()

    @classmethod
    def load(cls, directory: Path) -> Journal:
        data = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        files = [FileRecord(**record) for record in data["files"]]
        return cls(directory, data["status"], data["created_at"], data.get("summary", ""), files)

    def conflicts(self) -> list[str]:
        """Files changed by someone else since this run: neither our result nor the old bytes."""
        changed = []
        for record in self.files:
            now = digest_file(Path(record.path))
            if now not in (record.after, record.before):
                changed.append(record.path)
        return changed

    def restore(self) -> list[str]:
        """Put every file back as it was before the run; returns the paths restored."""
        restored = []
        for record in self.files:
            path = Path(record.path)
            if record.blob is not None:
                data = (self.directory / "blobs" / record.blob).read_bytes()
                if digest_file(path) != record.before:
                    atomic_write(path, data)
                    restored.append(record.path)
            elif path.exists():
                send2trash(str(path))
                restored.append(record.path)
        self.mark(UNDONE)
        return restored


def journals(root: Path) -> list[Journal]:
    """Every readable journal under `root`, oldest first."""
    if not root.is_dir():
        return []
    found = []
    for directory in sorted(root.iterdir()):
        try:
            found.append(Journal.load(directory))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return found


def pending_journal(root: Path) -> Journal | None:
    return next((j for j in reversed(journals(root)) if j.status == PENDING), None)


def latest_undoable(root: Path) -> Journal:
    for journal in reversed(journals(root)):
        if journal.status in (PENDING, COMPLETE):
            return journal
    raise ConsolidateError("nothing to undo: no applied run is recorded for this memory dir")
