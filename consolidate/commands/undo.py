"""consolidate undo"""

from __future__ import annotations

import argparse
import sys

from .options import add_project, settings_of

HELP = "restore every file the last applied run touched (also after the trash was emptied)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--force", action="store_true", help="restore even files edited since that run")


def run(args: argparse.Namespace) -> int:
    from ..errors import ConsolidateError
    from ..journal import latest_undoable
    from ..runs import journal_dir, writing_run

    settings = settings_of(args)
    with writing_run(settings, allow_pending=True):
        journal = latest_undoable(journal_dir(settings))
        conflicts = journal.conflicts()
        if conflicts and not args.force:
            raise ConsolidateError(
                f"{conflicts[0]} was edited after run {journal.run_id}; undo would overwrite that edit (--force to do it anyway)"
            )
        restored = journal.restore()
    state = {record.path for record in journal.files if record.kind != "file"}  # our backlog
    files = [path for path in restored if path not in state]
    sys.stdout.write(f"undid run {journal.run_id} ({journal.summary}): restored {len(files)} file(s)\n")
    for path in files:
        sys.stdout.write(f"  {path}\n")
    if state & set(restored):
        sys.stdout.write(
            "the backlog is put back as the run found it (a decision taken on it since stands)\n"
        )
    return 0
