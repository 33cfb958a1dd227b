"""What every writing command shares: the run lock, the journal dir and the write scope."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import ConsolidateError, UsageError
from .journal import pending_journal
from .lock import run_lock
from .plan import TeamScope, WriteScope
from .settings import Settings


def journal_dir(settings: Settings) -> Path:
    return settings.run_dir("journal")


def parts_dir(settings: Settings) -> Path:
    """Where plans applied in parts record what each part did."""
    return settings.run_dir("plans")


def write_scope(settings: Settings) -> WriteScope:
    layout = settings.layout
    team = TeamScope(layout.team_dir, layout.git_root) if layout.team_dir and layout.git_root else None
    return WriteScope(layout.memory_dir, layout.user_claude_md, layout.project_claude_md, team)


def lock_file(settings: Settings) -> Path:
    """The memory dir's lock in our state dir, keyed by its real path so every spelling finds it."""
    return settings.run_dir("locks") / "lock"


def check_memory_dir(settings: Settings) -> None:
    """Refuse a memory dir that would put the project, Claude's config or a whole home in scope."""
    memory = Path(os.path.realpath(settings.memory_dir))
    layout = settings.layout
    guarded = {
        Path(os.path.realpath(p))
        for p in (layout.project, layout.git_root or layout.project, layout.claude_home, Path.home())
    }
    if memory == Path(memory.anchor) or any(memory == g or memory in g.parents for g in guarded):
        raise UsageError(
            f"refusing {settings.memory_dir} as a memory dir: it contains the project, "
            "Claude's config dir or a home directory"
        )


def check_memory_files(settings: Settings) -> None:
    """One line, not a traceback, for a memory dir that is a file or a MEMORY.md that is not one."""
    from memory_layout import INDEX
    from memory_layout.files import exists, is_regular

    memory = settings.memory_dir
    if exists(memory) and not memory.is_dir():
        raise UsageError(
            f"the memory dir {memory} is a file, not a directory; move it aside or pass --memory-dir"
        )
    index = memory / INDEX
    if exists(index) and not is_regular(index):
        kind = "a directory" if index.is_dir() else "not a regular file"
        raise UsageError(f"{index} is {kind}; move it aside and run again")


@contextmanager
def writing_run(settings: Settings, *, allow_pending: bool = False, dry: bool = False) -> Iterator[None]:
    """Hold the memory dir's lock; refuse to start over a run that was interrupted. A `dry` run only
    reads: it makes the same checks but takes no lock (the lock file would be a write)."""
    check_memory_dir(settings)
    check_memory_files(settings)
    if dry:
        _refuse_pending(settings)
        yield
        return
    with run_lock(lock_file(settings), str(settings.memory_dir)):
        if not allow_pending:
            _refuse_pending(settings)
            _sweep_temp_files(settings)
        yield


def _refuse_pending(settings: Settings) -> None:
    pending = pending_journal(journal_dir(settings))
    if pending is not None:
        raise ConsolidateError(
            f"run {pending.run_id} was interrupted before it finished; "
            "`consolidate undo` restores the files it touched"
        )


def _sweep_temp_files(settings: Settings) -> None:
    """Temp files of a write that was killed (no run is pending, and we hold the lock): removed."""
    from .fsutil import remove_temp_files, stray_temp_files

    layout = settings.layout
    remove_temp_files(
        [layout.user_claude_md, layout.project_claude_md], stray_temp_files(settings.memory_dir)
    )
