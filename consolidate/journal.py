"""The journal: the exact previous bytes of every file a run touches, written before any change.

`consolidate undo` restores them — also for files that were sent to the trash and the trash was
emptied since, because the journal keeps its own copy. A run interrupted half-way leaves a pending
journal, and undo rolls it back the same way.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from send2trash import send2trash

from .errors import ConsolidateError
from .fsutil import (
    ABSENT,
    atomic_write,
    digest_bytes,
    digest_file,
    fsync_dir,
    read_regular,
    remove_temp_files,
)

PENDING, COMPLETE, UNDONE = "pending", "complete", "undone"


@dataclass
class FileRecord:
    path: str  # absolute
    before: str  # digest of the previous bytes, or "absent"
    after: str  # digest the run means to leave, or "absent" when it trashes the file
    blob: str | None = None  # name of the copy of the previous bytes
    mode: int | None = None  # permission bits of the previous file, restored with its bytes
    kind: str = "file"  # "backlog": our own state, merged back when changed since (`attach`)


@dataclass
class Journal:
    directory: Path
    status: str = PENDING
    created_at: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    summary: str = ""
    files: list[FileRecord] = field(default_factory=list)
    started_ns: int = 0  # orders journals: names and clocks of the second are not enough
    created_dirs: list[str] = field(default_factory=list)  # made by the run: removed by undo when empty

    @property
    def run_id(self) -> str:
        return self.directory.name

    @classmethod
    def begin(cls, root: Path, changes: dict[Path, bytes | None], summary: str) -> Journal:
        """Copy the previous bytes of every file in `changes` and record the intended result.

        Everything is read before the journal exists, so a file that cannot be read stops the run
        before anything is written."""
        records, blobs = [], {}
        for number, (path, after) in enumerate(sorted(changes.items(), key=lambda item: str(item[0]))):
            before, mode = _previous(path)
            record = FileRecord(
                str(path),
                ABSENT if before is None else digest_bytes(before),
                ABSENT if after is None else digest_bytes(after),
                mode=mode,
            )
            if before is not None:
                record.blob = f"{number:04d}"
                blobs[record.blob] = before
            records.append(record)
        started = time.time_ns()
        journal = cls(
            root / f"{started:020d}-{os.getpid()}",
            summary=summary,
            files=records,
            started_ns=started,
            created_dirs=_missing_dirs(path for path, before in changes.items() if not Path(path).exists()),
        )
        root.mkdir(parents=True, exist_ok=True, mode=0o700)
        journal.directory.mkdir(mode=0o700)  # copies of memory: as private as the memory itself
        (journal.directory / "blobs").mkdir(mode=0o700)
        fsync_dir(root)
        for name, data in blobs.items():
            fd = os.open(journal.directory / "blobs" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        fsync_dir(journal.directory / "blobs")
        journal.save()
        return journal

    def attach(self, path: Path, before: bytes | None, kind: str) -> None:
        """Record a file of our own state the run changed after its memory files (the backlog), with
        the bytes it had before the run, so undo puts it back too. Unlike a memory file it is not an
        edit to protect: a later change to it (a decision made since) never blocks an undo — undo
        merges it (`_restore_one`)."""
        record = FileRecord(
            str(path), ABSENT if before is None else digest_bytes(before), digest_file(path), kind=kind
        )
        if before is not None:
            record.blob = f"{len(self.files):04d}"
            fd = os.open(self.directory / "blobs" / record.blob, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(before)
                handle.flush()
                os.fsync(handle.fileno())
            fsync_dir(self.directory / "blobs")
        self.files = [r for r in self.files if r.path != record.path] + [record]
        self.save()

    def save(self) -> None:
        data = {
            "status": self.status,
            "created_at": self.created_at,
            "summary": self.summary,
            "started_ns": self.started_ns,
            "created_dirs": self.created_dirs,
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
        summary, started = data.get("summary", ""), int(data.get("started_ns", 0))
        dirs = [str(d) for d in data.get("created_dirs") or []]
        return cls(directory, data["status"], data["created_at"], summary, files, started, dirs)

    def conflicts(self) -> list[str]:
        """Files changed by someone else since this run: neither our result nor the old bytes."""
        changed = []
        for record in self.files:
            if record.kind != "file":
                continue  # our own state: merged back, never an edit to protect
            now = digest_file(Path(record.path))
            if now not in (record.after, record.before):
                changed.append(record.path)
        return changed

    def restore(self) -> list[str]:
        """Put every file back as it was before the run; returns the paths restored. Temp files a
        killed write left beside them and the directories the run made (once empty) go too. A file
        that cannot be restored (a full disk) stops the undo with one line naming it; the journal
        stays as it was, so undo can run again."""
        restored = []
        for record in self.files:
            path = Path(record.path)
            try:
                if self._restore_one(record, path):
                    restored.append(record.path)
            except Exception as exc:  # OSError, and send2trash raises its own kinds too
                reason = getattr(exc, "strerror", None) or exc
                raise ConsolidateError(
                    f"could not restore {path}: {reason}; nothing is lost (the journal keeps its copy): "
                    "free the space or fix the permission and run `consolidate undo` again"
                ) from None
        remove_temp_files([Path(record.path) for record in self.files])
        for directory in sorted(self.created_dirs, key=len, reverse=True):
            try:
                os.rmdir(directory)  # only when empty: a file someone put there stays
            except OSError:
                continue
        self.mark(UNDONE)
        return restored

    def _restore_one(self, record: FileRecord, path: Path) -> bool:
        if record.kind == "backlog" and digest_file(path) not in (record.after, record.before):
            from .dream.backlog import merge_back  # changed since the run: keep what was decided since

            before = (self.directory / "blobs" / record.blob).read_bytes() if record.blob else None
            return merge_back(path, before)
        if record.blob is not None:
            data = (self.directory / "blobs" / record.blob).read_bytes()
            current = digest_file(path)
            changed = current != record.before
            if changed:
                if current not in (record.after, ABSENT):
                    send2trash(str(path))  # edited since (undo --force): keep that version too
                atomic_write(path, data)
            if record.mode is not None:
                os.chmod(os.path.realpath(path), record.mode)
            return changed
        if path.exists():
            send2trash(str(path))
            return True
        return False


def _missing_dirs(paths: Iterable[Path]) -> list[str]:
    """The directories that writing these paths will create (parents that do not exist yet)."""
    missing: set[str] = set()
    for path in paths:
        parent = Path(path).parent
        while not parent.exists() and parent != parent.parent:
            missing.add(str(parent))
            parent = parent.parent
    return sorted(missing)


def _previous(path: Path) -> tuple[bytes | None, int | None]:
    """The bytes and permission bits of a file before the run, or (None, None) when there is none."""
    try:
        return read_regular(path), path.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise ConsolidateError(f"cannot read {path} before changing it: {exc.strerror or exc}") from None


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
    return sorted(found, key=lambda journal: (journal.started_ns, journal.run_id))


def pending_journal(root: Path) -> Journal | None:
    return next((j for j in reversed(journals(root)) if j.status == PENDING), None)


def latest_undoable(root: Path) -> Journal:
    for journal in reversed(journals(root)):
        if journal.status in (PENDING, COMPLETE):
            return journal
    raise ConsolidateError("nothing to undo: no applied run is recorded for this memory dir")
