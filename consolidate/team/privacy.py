"""What may leave a person's memory for the team folder: no secret, no absolute home path, nothing
of a session transcript, and no personal preference unless it is chosen explicitly."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from ..discover.lexicon import BEHAVIOUR, CONVENTION
from ..secrets import find_secrets

MAX_SHARED_BYTES = 16_384  # a topic file longer than this is not a rule but a dump
_HOME_PATH = re.compile(
    r"(?<![\w.~-])(?:/home/[^/\s`'\")\]]+|/Users/[^/\s`'\")\]]+|/root(?=/)|[A-Za-z]:\\Users\\[^\\\s`'\"]+)"
)
_TRANSCRIPT = re.compile(
    r"\"(?:parentUuid|sessionId|isSidechain|toolUseResult)\"\s*:|<system-reminder>|"
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl\b"
)
_ABOUT_YOU = re.compile(
    r"\b(?:the user|user) (?:is|prefers|likes|wants|works|has|uses)\b|"
    r"\bcall me\b|\baddress me\b|\bmy (?:name|role|background|preferences?)\b|\babout me\b",
    re.IGNORECASE,
)
_QUOTED_WHY = re.compile(r"(?m)^\*\*Why:\*\*.*$")  # the person's own words, quoted: not about them
_PERSONAL_SECTION = re.compile(r"\b(?:preferences?|personal|about me|user|profile)\b", re.IGNORECASE)


def portable(text: str, roots: Iterable[Path]) -> str:
    """`text` with absolute paths into the repository made relative to its root, so a rule reads the
    same in every clone (`/home/me/proj/src/x.py` → `src/x.py`)."""
    for root in sorted({str(r).rstrip("/") for r in roots if str(r) not in ("", "/")}, key=len, reverse=True):
        text = re.sub(re.escape(root) + r"/(?=\S)", "", text)
        text = re.sub(re.escape(root) + r"(?![\w./-])", ".", text)
    return text


def refusal(name: str, text: str, home: Path | None = None) -> str | None:
    """Why `text` (the content of `name`, as it would be shared) may not leave, or None."""
    for secret in find_secrets(text):
        line = text.count("\n", 0, secret.start) + 1
        return f"{name} line {line} holds a secret ({secret.kind})"
    found = home_path(text, home)
    if found is not None:
        return f"{name} line {found[0]} names a path in a home directory ({found[1]}…)"
    if holds_transcript(text):
        return f"{name} holds session transcript records or names a transcript file"
    if len(text.encode("utf-8")) > MAX_SHARED_BYTES:
        return f"{name} is over {MAX_SHARED_BYTES // 1024} KiB: too long for a shared rule"
    return None


def home_path(text: str, home: Path | None = None) -> tuple[int, str] | None:
    """(line, path) of the first absolute path into a home directory, or None."""
    found = [(m.start(), m.group(0)) for m in _HOME_PATH.finditer(text)]
    if home is not None and str(home) not in ("", "/"):
        found += [(m.start(), str(home)) for m in re.finditer(re.escape(str(home)) + r"(?![\w-])", text)]
    if not found:
        return None
    start, path = min(found)
    return text.count("\n", 0, start) + 1, path


def holds_transcript(text: str) -> bool:
    """Session transcript records, or the name of a transcript file."""
    return bool(_TRANSCRIPT.search(text))


def personal_reason(section: str, memory_type: str | None, text: str) -> str | None:
    """Why a memory is about the person rather than the project (kept back unless chosen), or None."""
    if memory_type == "user":
        return "a note about you (type: user)"
    if _PERSONAL_SECTION.search(section):
        return f"filed under '{section}'"
    said = _QUOTED_WHY.sub("", text)
    if BEHAVIOUR.search(said.lower()) and not CONVENTION.search(said.lower()):
        return "how to talk to you"  # "answer in Russian", not "write commit messages in English"
    if _ABOUT_YOU.search(said):
        return "about you, not the project"
    return None
