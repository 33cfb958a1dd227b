"""What every writing command shares: the run lock, the journal dir and the write scope."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import ConsolidateError
from .journal import pending_journal
from .lock import run_lock
from .plan import WriteScope
from .settings import Settings


def journal_dir(settings: Settings) -> Path:
    return settings.run_dir("journal")


def write_scope(settings: Settings) -> WriteScope:
    layout = settings.layout
    return WriteScope(layout.memory_dir, layout.user_claude_md, layout.project_claude_md)


@contextmanager
def writing_run(settings: Settings, *, allow_pending: bool = False) -> Iterator[None]:
    """Hold the memory dir's lock; refuse to start over a run that was interrupted."""
    with run_lock(settings.run_dir("locks") / "lock", str(settings.memory_dir)):
        if not allow_pending:
            pending = pending_journal(journal_dir(settings))
            if pending is not None:
                raise ConsolidateError(
                    f"run {pending.run_id} was interrupted before it finished; "
                    "`consolidate undo` restores the files it touched"
                )
        yield
