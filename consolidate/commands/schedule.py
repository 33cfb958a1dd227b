"""consolidate schedule install [--every 1d] [PROJECT…] | schedule remove"""

from __future__ import annotations

import argparse
import sys

HELP = "install or remove a user timer (cron or systemd) that prepares pending plans; nothing is applied"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    install = actions.add_parser("install", help="write the timer (printed first; idempotent; backed up)")
    install.add_argument("projects", nargs="*", metavar="PROJECT", help="projects (default: the current one)")
    install.add_argument("--project", action="append", default=[], help="a project (may be repeated)")
    install.add_argument("--every", default="1d", help="how often: 12h, 1d (default), 2d, 1w")
    install.add_argument("--engine", help="engine of the runs (default: the configured one, offline)")
    remove = actions.add_parser("remove", help="take the timer out again (backed up first)")
    for sub in (install, remove):
        sub.add_argument(
            "--with", dest="kind", choices=("cron", "systemd"), help="timer kind (default: detected)"
        )
        sub.add_argument("--dry-run", action="store_true", help="print what would be written, write nothing")
        sub.add_argument("--claude-home", default=argparse.SUPPRESS, help="Claude config dir of the runs")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..capture.places import claude_home, state_root
    from ..errors import UsageError
    from ..periodic import schedule

    home = claude_home(args.claude_home)
    state = state_root(home)
    kind = schedule.choose_kind(args.kind)

    def say(text: str) -> None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")

    if args.action == "remove":
        remover = schedule.remove_cron if kind == "cron" else schedule.remove_systemd
        remover(state, dry_run=args.dry_run, say=say)
        return 0
    projects = []
    for name in [*args.projects, *args.project] or ["."]:
        path = Path(name).expanduser().resolve()
        if not path.is_dir():
            raise UsageError(f"no such project directory: {name}")
        projects.append(path)
    job = schedule.Job(tuple(dict.fromkeys(projects)), schedule.parse_every(args.every), home, args.engine)
    installer = schedule.install_cron if kind == "cron" else schedule.install_systemd
    installer(job, state, dry_run=args.dry_run, say=say)
    return 0
