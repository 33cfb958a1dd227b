"""Is a line of memory whole and valid Markdown? Every line synthesis writes is checked here first.

A line is broken when a code span, bracket, parenthesis or link does not close, and an index entry
is cut when it ends on a fragment: an ellipsis, a dangling connective ("…, and"), an open clause
mark. Text inside fenced code blocks is code, not prose, and is not checked.
"""

from __future__ import annotations

import re

from .pointers import _BACKTICKS, _escaped, code_spans, has_broken_link

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LINK_TAIL = re.compile(r"\s*(?:→|->)\s*\[[^\]]*\]\([^)\s]*\)\s*$")
# Words no whole sentence ends on ("… and", "… the"); "to", "with", "of" can ("when told to").
_DANGLING = frozenset(["a", "an", "and", "because", "but", "e.g.", "i.e.", "or", "than", "the", "via"])
_OPEN_END = ("…", "...", ",", ";", "—", "–", "-", "(", "[", "→", "->")  # a ":" may lead to what follows


def unmatched_backticks(line: str) -> list[tuple[int, int]]:
    """The backtick runs of `line` that open a code span no run closes."""
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line) if not _escaped(line, m.start())]
    spans, _ = code_spans(line)
    return [  # a run inside a span is its content (`` ` `` shows one backtick), not a delimiter
        (start, end) for start, end in runs if not any(s <= start and end <= e for s, e in spans)
    ]


def _outside_code(line: str, spans: list[tuple[int, int]]) -> str:
    """The line with each code span replaced by a plain word (code is neither prose nor a fragment)."""
    parts, last = [], 0
    for start, end in spans:
        parts.append(line[last:start])
        parts.append(" code ")
        last = end
    parts.append(line[last:])
    return "".join(parts)


def _pairs_close(text: str, opening: str, closing: str) -> bool:
    return not unmatched(text, opening, closing)


def unmatched(text: str, opening: str, closing: str) -> list[int]:
    """Positions of the `opening`/`closing` characters of `text` that have no partner (a backslash-
    escaped one is plain text)."""
    if opening not in text and closing not in text:
        return []
    stack: list[int] = []
    lone: list[int] = []
    for position, char in enumerate(text):
        if position and text[position - 1] == "\\":
            continue
        if char == opening:
            stack.append(position)
        elif char == closing:
            if stack:
                stack.pop()
            else:
                lone.append(position)
    return sorted(lone + stack)


def escape_unmatched(line: str) -> str:
    """`line` with each bracket or parenthesis that has no partner (outside code spans) escaped, so it
    reads the same and breaks nothing: "works :)" becomes "works :\\)"."""
    spans, _ = code_spans(line)
    prose = _outside_code_keep_length(line, spans)
    lone = set(unmatched(prose, "(", ")")) | set(unmatched(prose, "[", "]"))
    return "".join(f"\\{char}" if index in lone else char for index, char in enumerate(line))


def _outside_code_keep_length(line: str, spans: list[tuple[int, int]]) -> str:
    chars = list(line)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def line_problems(line: str, *, entry: bool = False) -> list[str]:
    """What is wrong with one line: unclosed code span, bracket, parenthesis or link, and — for an
    index entry (`entry=True`) or any line — a trailing fragment. Empty when the line is whole."""
    problems: list[str] = []
    spans, closed = code_spans(line)
    if not closed:
        problems.append("unclosed code span")
    prose = _outside_code(line, spans)
    if not _pairs_close(prose, "[", "]"):
        problems.append("unbalanced brackets")
    if not _pairs_close(prose, "(", ")"):
        problems.append("unbalanced parentheses")
    if has_broken_link(prose):
        problems.append("broken link")
    tail = _fragment(prose, entry=entry)
    if tail:
        problems.append(tail)
    return problems


def _fragment(prose: str, *, entry: bool) -> str:
    text = _LINK_TAIL.sub("", prose).rstrip()
    if not text.strip():
        return ""
    if text.endswith(("…", "...")):
        return "ends in an ellipsis"
    if not entry:
        return ""
    if text.endswith(_OPEN_END):
        return "ends on an open clause"
    last = text.rstrip(".!?*").rsplit(None, 1)[-1].lower() if text.rstrip(".!?*").split() else ""
    if last in _DANGLING:
        return f"ends on a dangling “{last}”"
    return ""


def text_problems(
    text: str, *, entries: bool = False, only: set[int] | None = None
) -> list[tuple[int, str, str]]:
    """(line number, line, problem) for every broken line of `text`, fenced code left out.
    With `entries`, each top-level list item's first line is also checked as an index entry; with
    `only`, just the lines of those numbers are checked (fences are still followed through the rest)."""
    found: list[tuple[int, str, str]] = []
    lines = text.splitlines()
    start = _frontmatter_end(lines)
    for number, value in _frontmatter_values(lines[:start]):
        if only is not None and number not in only:
            continue
        found.extend(
            (number, value, problem) for problem in line_problems(value) if problem == "ends in an ellipsis"
        )
    prose, closed = prose_lines(lines[start:], first=start + 1)
    for number, line in prose:
        if only is not None and number not in only:
            continue
        is_entry = entries and bool(re.match(r"^[-*+] ", line))
        found.extend((number, line, problem) for problem in line_problems(line, entry=is_entry))
    if not closed and (only is None or len(lines) in only):
        found.append((len(lines), "", "unclosed code fence"))
    return found


def prose_lines(lines: list[str], *, first: int = 1) -> tuple[list[tuple[int, str]], bool]:
    """(number, line) of the lines outside fenced code blocks (fence lines left out too), and whether
    every fence closed."""
    found: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(lines, start=first):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
        elif opened:
            fence = opened.group(1)
        else:
            found.append((number, line))
    return found, fence is None


def _frontmatter_end(lines: list[str]) -> int:
    """How many leading lines are YAML frontmatter (0 when there is none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    closing = next((i for i, line in enumerate(lines[1:], start=1) if line.strip() in ("---", "...")), None)
    return closing + 1 if closing is not None else 0


def _frontmatter_values(lines: list[str]) -> list[tuple[int, str]]:
    """(line number, value) of each top-level `key: value`, folded continuation lines joined: a value
    is checked whole (YAML folds long text over lines), and only for a cut-off ending."""
    values: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if line.startswith((" ", "\t")) and values and line.strip():
            values[-1] = (values[-1][0], values[-1][1] + " " + line.strip())
        elif ":" in line and not line.startswith(("-", "#")):
            values.append((number, line.split(":", 1)[1].strip().strip("'\"")))
    return values
