"""Every line a proposal would write is checked before the proposal enters a plan.

The check runs on the files as the proposal would leave them, and only on the lines it adds: a code
span, bracket or link that does not close, or an index entry (or CLAUDE.md rule) that ends on a
fragment. Code blocks are code, not prose. Such a line is a bug of synthesis: the proposal is left
out with a note naming the line — and with `CONSOLIDATE_STRICT_LINES=1` (the test suite sets it)
synthesis raises instead, so the bug cannot pass unseen.
"""

from __future__ import annotations

import difflib
import os

from memory_layout import CLUSTER_DIR, INDEX
from memory_layout.wellformed import text_problems

from ..plan import Proposal

STRICT = "CONSOLIDATE_STRICT_LINES"


class BrokenLine(AssertionError):
    """Synthesis produced a line that would break (raised only in strict mode)."""


def broken_lines(files: list[tuple[str, str, str | None]]) -> list[tuple[str, str, str]]:
    """(file, line, problem) for each line the proposal adds that is not whole, valid Markdown;
    `files` are the proposal's (name, before, after), as `review.proposed_files` gives them."""
    found: list[tuple[str, str, str]] = []
    for name, before, after in files:
        if after is None:
            continue
        added = _added_lines(before, after)
        is_topic = not name.startswith("/") and name != INDEX and not name.startswith(f"{CLUSTER_DIR}/")
        for _, line, problem in text_problems(after, entries=not is_topic, only=added):
            found.append((name, line, problem))
    return found


def check_proposal(proposal: Proposal, files: list[tuple[str, str, str | None]]) -> str | None:
    """Why the proposal must not enter the plan, or None. Raises BrokenLine in strict mode."""
    broken = broken_lines(files)
    if not broken:
        return None
    name, line, problem = broken[0]
    reason = f"a line it writes would be broken ({problem}) in {name}: {line.strip()}"
    if os.environ.get(STRICT) == "1":
        raise BrokenLine(f"{proposal.id} {proposal.summary!r}: {reason}")
    return reason


def _added_lines(before: str, after: str) -> set[int]:
    """1-based numbers of the lines of `after` that `before` does not have in place."""
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    added: set[int] = set()
    for tag, _, _, start, end in matcher.get_opcodes():
        if tag in ("insert", "replace"):
            added.update(range(start + 1, end + 1))
    return added
