"""Terminal output: coloured tables and diffs on a terminal, plain Markdown text in a pipe."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TextIO


def is_terminal(stream: TextIO) -> bool:
    """A person is at the other end (interactive prompts, tables); colour is a separate choice."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def use_colour(stream: TextIO) -> bool:
    return is_terminal(stream) and not os.environ.get("NO_COLOR")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A pipe table; cells have `|` escaped and newlines folded."""

    def cell(value: object) -> str:
        return str(value).replace("\n", " ").replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("-" * (len(h) + 2) for h in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def print_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], stream: TextIO | None = None, title: str = ""
) -> None:
    stream = stream or sys.stdout
    if not is_terminal(stream):
        if title:
            stream.write(f"{title}\n\n")
        stream.write(markdown_table(headers, rows))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(*headers, title=title or None, title_justify="left")
    for row in rows:
        table.add_row(*(_styled(str(value)) for value in row))
    Console(file=stream).print(table)


def _styled(value: str) -> str:
    from rich.markup import escape

    text = escape(value)
    if value == "done" or value == "ok":
        return f"[green]{text}[/]"
    if value.startswith(("failed", "unverified", "over")):
        return f"[red]{text}[/]"
    if value.startswith("skipped"):
        return f"[yellow]{text}[/]"
    return text


def print_diff(diff: str, stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    if not use_colour(stream):
        stream.write(diff if diff.endswith("\n") else diff + "\n")
        return
    colours = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}
    for line in diff.splitlines():
        colour = "" if line.startswith(("+++", "---")) else colours.get(line[:1], "")
        stream.write(f"{colour}{line}\x1b[0m\n" if colour else f"{line}\n")


def print_markdown(text: str, stream: TextIO | None = None) -> None:
    stream = stream or sys.stdout
    if not is_terminal(stream):
        stream.write(text if text.endswith("\n") else text + "\n")
        return
    from rich.console import Console
    from rich.markdown import Markdown

    Console(file=stream).print(Markdown(text))


def ask_on_terminal(question: str) -> str:
    """Ask on the terminal itself (`/dev/tty`), so a piped stdout carries only the report and the
    question is never lost in the pipe; stdin and stderr when there is no such device. EOFError at
    the end of input, KeyboardInterrupt on Ctrl-C."""
    try:
        with open("/dev/tty", "r+", encoding="utf-8", errors="replace") as tty:
            tty.write(question)
            tty.flush()
            line = tty.readline()
    except OSError:
        sys.stderr.write(question)
        sys.stderr.flush()
        line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


def warn(message: str) -> None:
    sys.stderr.write(f"consolidate: {message}\n")
