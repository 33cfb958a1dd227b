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
    from ..journal import ABSENT, latest_undoable
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
    new = {record.path for record in journal.files if record.before == ABSENT}  # the run made them
    put_back = [path for path in files if path not in new]
    removed = [path for path in files if path in new]
    said = [f"restored {len(put_back)} file(s)"] if put_back or not removed else []
    said += [f"moved {len(removed)} file(s) the run created to the trash"] if removed else []
    sys.stdout.write(f"undid run {journal.run_id} ({journal.summary}): {', '.join(said)}\n")
    for path in put_back:
        sys.stdout.write(f"  {path}\n")
    for path in removed:
        sys.stdout.write(f"  {path} (created by the run)\n")
    if state & set(restored):
        sys.stdout.write(
            "the backlog is put back as the run found it (a decision taken on it since stands)\n"
        )
    return 0
