"""Auto-recall (opt-in, `[recall] auto = true`): on UserPromptSubmit, the few hits most relevant to the
prompt — memory first, then past decisions — within a byte budget, each injected once per session.

It answers from the index only and never indexes: when the index is missing or has not been refreshed
for `refresh_minutes`, a detached `python -m consolidate.recall.background` brings it up to date for the
next prompt. A hit must share at least two of the prompt's telling words — words found in at most 2%
of the project's indexed texts — and a third of them for a long prompt, so an everyday prompt
("commit this", "bump the version") recalls nothing. The lines of MEMORY.md that Claude Code loads anyway,
and the current session, are never recalled. Standard library only.
"""

from __future__ import annotations

import hashlib
import math
import os
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ..capture.places import memory_dir
from ..hooks.context import HookContext
from ..hooks.dedup import SessionMarks
from .search import Filters, Hit, document_frequencies, make_snippet, matched_terms, search
from .store import INDEX_FILE, STAMP_FILE, index_dir, open_reader
from .text import QueryTerms, query_terms

HEADER = "From earlier sessions and the memory of this project (consolidate recall; may be outdated):"
KINDS = ("memory", "decision", "correction", "remember", "learning")
LOADED_INDEX_LINES = 200  # Claude Code loads these lines of MEMORY.md into every session
PROMPT_CHARS = 2000
CANDIDATES = 20
SNIPPET_CHARS = 300
MIN_TELLING = 2  # a hit must share this many of the prompt's rare terms
RARE_FRACTION = 0.02  # a term in at most this share of the indexed texts is rare
RARE_MIN_DOCS = 3
TELLING_SHARE = 1 / 3  # … and at least this share of them, for a long prompt


def auto_recall(ctx: HookContext) -> str:
    """The context block for this prompt, or "" (auto-recall off, nothing relevant, all seen)."""
    config = ctx.config
    prompt = ctx.payload.get("prompt")
    if not config.recall_auto or not isinstance(prompt, str):
        return ""
    index = index_dir(ctx.state_dir, memory_dir(ctx.home, ctx.project_dir)) / INDEX_FILE
    refresh_in_background(ctx, index, config.recall_refresh_minutes * 60)
    terms = query_terms(prompt[:PROMPT_CHARS])
    if not terms:
        return ""
    db = open_reader(index)
    if db is None:
        return ""
    try:
        telling = telling_terms(*document_frequencies(db, terms))
        if len(telling) < MIN_TELLING:
            return ""
        filters = Filters(kinds=KINDS, exclude_session=ctx.session_id)
        hits = search(db, terms, limit=CANDIDATES, filters=filters, tagged_only=True)
    except sqlite3.Error as exc:  # a damaged or busy index costs this prompt its recall, nothing else
        from ..hooks.entry import log_failure

        log_failure(ctx.env, "UserPromptSubmit recall", exc)
        return ""
    finally:
        db.close()
    lines = choose(hits, terms, telling, SessionMarks(ctx.state_dir, ctx.session_id).claim,
                   max_hits=config.recall_max_hits, max_bytes=config.recall_max_bytes)  # fmt: skip
    return "\n".join([HEADER, *lines]) if lines else ""


def telling_terms(total: int, frequencies: dict[str, int]) -> set[str]:
    """The prompt's terms that are rare in this project's index: the ones a match can be trusted on."""
    limit = max(RARE_MIN_DOCS, RARE_FRACTION * total)
    return {term for term, count in frequencies.items() if 0 < count <= limit}


def choose(
    hits: list[Hit],
    terms: QueryTerms,
    telling: set[str],
    claim: Callable[[str], bool],
    *,
    max_hits: int,
    max_bytes: int,
) -> list[str]:
    """Relevant hits, memory first, one per file or session, within the budget; each claimed once per
    session."""
    needed = max(MIN_TELLING, math.ceil(len(telling) * TELLING_SHARE))
    relevant = [
        h for h in hits if len(matched_terms(h.text, terms) & telling) >= needed and not _loaded_anyway(h)
    ]
    ordered = [h for h in relevant if h.role == "memory"] + [h for h in relevant if h.role != "memory"]
    chosen: list[str] = []
    sources: set[str] = set()
    used = len(HEADER.encode()) + 1
    for hit in ordered:
        if len(chosen) >= max_hits:
            break
        line = render(hit, terms)
        size = len(line.encode()) + 1
        source = hit.memory_file or hit.session
        if source in sources or used + size > max_bytes or not claim("recall-" + _digest(hit.uid)):
            continue
        chosen.append(line)
        sources.add(source)
        used += size
    return chosen


def render(hit: Hit, terms: QueryTerms) -> str:
    snippet = make_snippet(hit.text, terms, SNIPPET_CHARS)
    if hit.role == "memory":
        return f"- [memory {hit.memory_file}] {snippet}"
    who = "the user" if hit.role == "user" else "the assistant"
    return f"- [{hit.timestamp[:10]}, {hit.kind} by {who}] {snippet}"


def _loaded_anyway(hit: Hit) -> bool:
    return hit.memory_file == "MEMORY.md" and hit.line <= LOADED_INDEX_LINES


def _digest(uid: str) -> str:
    return hashlib.sha1(uid.encode(), usedforsecurity=False).hexdigest()[:16]


def refresh_in_background(ctx: HookContext, index: Path, every_seconds: float) -> bool:
    """Start a detached index update when the last update is `every_seconds` old or more (or none ran).

    The stamp is touched when an update is started here and when any update finishes, so parallel
    prompts start at most one; the update itself also gives way to one already running.
    """
    stamp = index.parent / STAMP_FILE
    try:
        if time.time() - stamp.stat().st_mtime < every_seconds:
            return False
    except FileNotFoundError:
        pass
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.touch()
    try:
        spawn_detached(
            [sys.executable, "-m", "consolidate.recall.background", ctx.project_dir],
            {**os.environ, **ctx.env},
        )
    except OSError:  # no update this time; the prompt is still answered from the index as it is
        return False
    return True


def spawn_detached(argv: list[str], env: dict[str, str]) -> int:
    """Start `argv` in its own session with no stdio, and do not wait for it; its pid."""
    null = os.devnull
    actions = [(os.POSIX_SPAWN_OPEN, fd, null, os.O_RDWR, 0) for fd in (0, 1, 2)]
    return os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
