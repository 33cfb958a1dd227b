"""The command line: one library call per command. `main(argv) -> int` is what tests call."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .errors import ConsolidateError, UsageError

# Each name is a module in consolidate.commands exposing HELP, add_arguments(parser) and run(args), and
# optionally SHARED: which of the shared options it takes (default: both).
COMMANDS = (
    "status",
    "dream",
    "review",
    "schedule",
    "snapshot",
    "audit",
    "scan",
    "remember",
    "apply",
    "undo",
    "share",
    "onboard",
    "eval",
    "queue",
    "tick",
    "learnings",
    "hook",
    "install",
    "uninstall",
    "recall",
    "doctor",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


SHARED = ("memory-dir", "claude-home")


def common_options(shared: Sequence[str] = SHARED) -> _Parser:
    common = _Parser(add_help=False)
    if "memory-dir" in shared:
        common.add_argument("--memory-dir", help="use this memory dir instead of the one Claude Code derives")
    if "claude-home" in shared:
        common.add_argument(
            "--claude-home", help="Claude config dir (default: $CLAUDE_CONFIG_DIR or ~/.claude)"
        )
    return common


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or with `only` just that command's (the hooks answer faster that way)."""
    parser = _Parser(prog="consolidate", description="Keep a coding agent's memory true, small and useful.")
    parser.add_argument("--version", action="version", version=f"consolidate {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in [only] if only else COMMANDS:
        module = importlib.import_module(f"consolidate.commands.{name.replace('-', '_')}")
        common = common_options(getattr(module, "SHARED", SHARED))
        command = sub.add_parser(name, help=module.HELP, description=module.HELP, parents=[common])
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        only = argv[0] if argv and argv[0] in COMMANDS else None
        args = build_parser(only).parse_args(argv)
        if not getattr(args, "run", None):
            raise UsageError("consolidate: a command is required (see consolidate --help)")
        return int(args.run(args) or 0)
    except ConsolidateError as exc:
        sys.stderr.write(one_line_error(exc) + "\n")
        return exc.exit_code
    except SystemExit as exc:  # --help and --version print and stop: still an exit code, not an exit
        return exc.code if isinstance(exc.code, int) else 0
    except KeyboardInterrupt:
        sys.stderr.write("consolidate: interrupted\n")
        return 130
    except BrokenPipeError:
        return 1
    except OSError as exc:  # the disk, not us: name the file and say what the system said
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"consolidate: {where}{exc.strerror or exc}\n")
        return 1
    except Exception as exc:  # a bug of ours: one line for the user, the traceback only on request
        if os.environ.get("CONSOLIDATE_DEBUG"):
            import traceback  # only here: every command would load it otherwise

            traceback.print_exc()
        sys.stderr.write(
            f"consolidate: internal error: {type(exc).__name__}: {exc} (CONSOLIDATE_DEBUG=1 shows more)\n"
        )
        return 1


def one_line_error(exc: BaseException) -> str:
    """`consolidate: <reason>` once: a parser's message already starts with the command's name."""
    text = " ".join(str(exc).split())
    return text if text.startswith(("consolidate: ", "consolidate ")) else f"consolidate: {text}"


def main_entry() -> NoReturn:
    code = main()
    # The work is done and every file written: the collector need not walk what is still alive (a
    # scan's rules, caches and report) once more on the way out, a few percent of a whole scan.
    gc.freeze()
    sys.exit(code)
