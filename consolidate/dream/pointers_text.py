"""The words of a trigger pointer to text moved out of the index: when to open it (from the heading it
sat under) and what it holds (its first plain sentence, else what its subsections cover). Never cut
mid-clause: a sentence that does not fit is not used."""

from __future__ import annotations

import re

from ..secrets import has_secret

MAX_TAKEAWAY = 140
_NUMBERING = re.compile(r"^\s*(?:\d+[.)]|[ivx]+\.|[-*•])\s+", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^>\n]*>")
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"'])")


def pointer_topic(title: str) -> str:
    """`Agent All Parameters` → `working on agent all parameters` (names with capitals inside stay)."""
    words = [w if re.search(r"[A-Z].*[A-Z]|[a-z][A-Z]|`", w) else w.lower() for w in _plain(title).split()]
    phrase = " ".join(words).strip(" ,.:")
    head, colon, tail = phrase.partition(":")
    if colon and tail.strip():
        phrase = f"{head.strip()} ({tail.strip()})"  # "Tools: Add Tools" → "tools (add tools)"
    return f"working on {phrase or 'this part of the project'}"


def pointer_takeaway(title: str, text: str) -> str:
    """One complete sentence saying what the moved text holds."""
    sentence = _first_sentence(text)
    if sentence:
        return sentence
    subsections = [_plain(m) for m in re.findall(r"(?m)^#{1,6}\s+(.+?)\s*#*\s*$", _without_fences(text))]
    subsections = [s for s in dict.fromkeys(subsections) if s][:4]
    if subsections:
        more = " and more" if len(set(re.findall(r"(?m)^#{1,6}\s", text))) and len(subsections) == 4 else ""
        return f"covers {', '.join(subsections)}{more}."
    return f"the full notes on {_plain(title) or 'this topic'}."


def _first_sentence(text: str, look: int = 5) -> str:
    """The first plain sentence among the first `look` lines of prose: not a heading, list, table,
    code or a line that is mostly a URL."""
    for line in [line for line in _without_fences(text).splitlines() if _is_prose(line)][:look]:
        plain = _plain(line.strip().lstrip("> "))
        first = _SENTENCE_END.split(plain, maxsplit=1)[0].strip()
        if first.endswith(":"):
            first = first[:-1].rstrip() + "."  # "… with the `run()` method:" introduces code
        if 15 <= len(first) <= MAX_TAKEAWAY and _balanced(first) and not has_secret(first):
            return first if first.endswith((".", "!", "?")) else first + "."
    return ""


def _is_prose(line: str) -> bool:
    stripped = line.strip()
    if not stripped or stripped.startswith(("#", "|", "-", "*", "+", "<")) or _NUMBERING.match(stripped):
        return False
    return "://" not in stripped and not stripped.lower().startswith("source:")


def _without_fences(text: str) -> str:
    out, fence = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fence = not fence
            continue
        if not fence:
            out.append(line)
    return "\n".join(out)


def _plain(text: str) -> str:
    text = _TAG.sub(" ", _LINK.sub(r"\1", text))
    text = _NUMBERING.sub("", text.replace("**", "").replace("__", ""))
    return " ".join(text.split()).strip()


def _balanced(text: str) -> bool:
    return (
        text.count("`") % 2 == 0 and text.count("(") == text.count(")") and text.count("[") == text.count("]")
    )
