"""Learning markers in assistant text.

- a hidden comment `<!-- learning: … -->` (single or multi-line); other channels use the same shape
  with their own name (`<!-- profile-fact: … -->`);
- a visible line `📝 Learned: …` (or its translations: `📝 Öğrenildi: …`, `📝 Усвоено: …`, `📝 学到：…`);
- a `#lesson … #/lesson` block, plain text or `key: value` lines.

Markers inside code (fenced blocks or inline backticks) are examples, not markers; so are payloads that
are only a placeholder such as `<…>` or `...`. Standard library only: the capture hook uses it.
"""

from __future__ import annotations

import re

from ..lazyre import lazy
from ..plain import Frozen

_COMMENT = lazy(r"<!--\s*(?P<channel>[A-Za-z][A-Za-z0-9_-]{0,40})\s*:(?P<body>.*?)-->", re.DOTALL)
VISIBLE_LABELS = (
    "learned",
    "learning",
    "lesson",
    "lesson learned",
    "öğrenildi",
    "öğrenilen",
    "ders",
    "усвоено",
    "выучено",
    "урок",
    "изучено",
    "запомнено",
    "学到",
    "已学到",
    "学到了",
    "经验",
    "教训",
    "习得",
)
_VISIBLE = lazy(r"^[ \t>*_-]*📝\s*\**(?P<label>[^:：\n*]{1,30})\**\s*[:：]\s*\**(?P<body>.+)$", re.MULTILINE)
_LESSON = lazy(r"#lesson\b(?P<body>.*?)#/lesson", re.DOTALL | re.IGNORECASE)
_FENCE = lazy(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_INLINE_CODE = lazy(r"`[^`\n]*`")
_PLACEHOLDER = lazy(r"^\s*(?:<[^>]*>|\.{3}|…|\[[^\]]*\]|\{[^}]*\})?\s*$")


class Marker(Frozen):
    __slots__ = FIELDS = ("channel", "payload", "form", "fields")
    channel: str  # "learning" for the visible line and #lesson blocks too
    payload: str
    form: str  # "comment" | "visible" | "lesson"
    fields: tuple[tuple[str, str], ...]  # key: value lines of a #lesson block

    def __init__(
        self, channel: str, payload: str, form: str, fields: tuple[tuple[str, str], ...] = ()
    ) -> None:
        self._set(channel=channel, payload=payload, form=form, fields=fields)


def find_markers(text: str) -> list[Marker]:
    """Every marker in the text, in order; a visible line and a learning comment are one marker."""
    if "<!--" not in text and "📝" not in text and "#lesson" not in text and "#Lesson" not in text:
        return []
    prose = _mask_code(text)
    found: list[tuple[int, Marker]] = []
    for match in _COMMENT.finditer(prose):
        body = _clean(text[match.start("body") : match.end("body")])
        if not _PLACEHOLDER.match(body):
            found.append((match.start(), Marker(match["channel"].lower(), body, "comment")))
    for match in _VISIBLE.finditer(prose):
        label = match["label"].strip().lower()
        body = _clean(text[match.start("body") : match.end("body")]).strip("*_ ")
        if label in VISIBLE_LABELS and not _PLACEHOLDER.match(body):
            found.append((match.start(), Marker("learning", body, "visible")))
    for match in _LESSON.finditer(prose):
        body = text[match.start("body") : match.end("body")]
        fields = _lesson_fields(body)
        payload = _clean(body)
        if not _PLACEHOLDER.match(payload):
            found.append((match.start(), Marker("learning", payload, "lesson", fields)))
    return [marker for _, marker in _one_per_learning(sorted(found, key=lambda pair: pair[0]))]


def _mask_code(text: str) -> str:
    """The text with code replaced by spaces of the same length, so offsets still line up."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    return _INLINE_CODE.sub(blank, _FENCE.sub(blank, text))


def _clean(body: str) -> str:
    lines = [line.strip() for line in body.strip().splitlines()]
    return "\n".join(line for line in lines if line)


_FIELD = lazy(r"^\s*(?P<key>[A-Za-z][A-Za-z _-]{0,30}?)\s*:\s*(?P<value>.+)$")


def _lesson_fields(body: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for line in body.splitlines():
        match = _FIELD.match(line)
        if match:
            pairs.append((match["key"].strip().lower().replace(" ", "_"), match["value"].strip()))
    return tuple(pairs)


def _one_per_learning(found: list[tuple[int, Marker]]) -> list[tuple[int, Marker]]:
    """A visible `📝 Learned:` line and a hidden learning comment of the same message are one learning,
    however each is worded: each learning comment takes the nearest visible line not yet taken (the
    comment, which carries the why, speaks for both). Visible lines left over are learnings of their own."""
    visible = [i for i, (_, m) in enumerate(found) if m.form == "visible"]
    dropped: set[int] = set()
    for position, marker in found:
        if marker.form != "comment" or marker.channel != "learning":
            continue
        free = [v for v in visible if v not in dropped]
        if free:
            dropped.add(min(free, key=lambda v: (abs(found[v][0] - position), v)))
    return [pair for i, pair in enumerate(found) if i not in dropped]


def without_markers(text: str) -> str:
    """The text as prose, with no capture syntax left to copy: hidden comments dropped, a visible
    `📝 Learned: X` line reduced to X, a `#lesson` block to its rule."""
    if "<!--" not in text and "📝" not in text and "#lesson" not in text.lower():
        return text

    def lesson(match: re.Match[str]) -> str:
        fields = dict(_lesson_fields(match["body"]))
        return fields.get("rule") or _clean(match["body"]).split("\n", 1)[0]

    text = re.sub(r"<!--.*?(?:-->|\Z)", " ", text, flags=re.DOTALL)
    text = _LESSON.sub(lesson, text)
    text = re.sub(r"#/?lesson\b", " ", text, flags=re.IGNORECASE)
    return _VISIBLE.sub(lambda m: m["body"].strip("*_ "), text).replace("📝", "")
