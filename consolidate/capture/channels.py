"""Sort the markers of assistant text into queue items, lesson episodes and likely typos.

The transcript reader finds the markers (`consolidate.transcripts.markers`); here they meet the
declared channels. A `#lesson` block becomes an episode of the learnings engine (so its trigger can
fire before a tool call); a comment or visible marker on a declared channel becomes a queue item; a
comment on an undeclared channel is dropped, and reported when one edit away from a declared name.
"""

from __future__ import annotations

from ..plain import Frozen, Plain
from ..secrets import redact
from .queue import NewItem, item_id

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any

    from ..transcripts.markers import Marker

LESSON_CHANNEL = "lesson"
_TRIGGER_KEYS = ("tool", "command", "path", "project", "guard")


class Typo(Frozen):
    __slots__ = FIELDS = ("written", "meant", "payload")
    written: str
    meant: str
    payload: str

    def __init__(self, written: str, meant: str, payload: str) -> None:
        self._set(written=written, meant=meant, payload=payload)

    def describe(self) -> str:
        return (
            f"likely typo: a `<!-- {self.written}: … -->` marker is on no declared channel — did you mean "
            f"`{self.meant}`? It was not queued: {_preview(self.payload)}"
        )


class Sorted(Plain):
    __slots__ = FIELDS = ("items", "lessons", "typos")

    def __init__(self) -> None:
        self.items: list[NewItem] = []
        self.lessons: list[dict[str, Any]] = []
        self.typos: list[Typo] = []


def sort_markers(
    markers: list[Marker], channels: Collection[str], source: dict[str, Any], into: Sorted
) -> None:
    for marker in markers:
        payload = redact(marker.payload)
        if marker.form == "lesson":
            into.lessons.append(lesson_episode(marker, payload))
        elif marker.channel in channels:
            into.items.append(NewItem(marker.channel, payload, {**source, "form": marker.form}))
        elif marker.form == "comment":
            meant = next((c for c in sorted(channels) if within_one_edit(marker.channel, c)), None)
            if meant is not None:
                into.typos.append(Typo(marker.channel, meant, payload))


def lesson_episode(marker: Marker, payload: str) -> dict[str, Any]:
    """A `#lesson` block as a capture for the learnings engine (its `origin` makes it once-only)."""
    fields = {key: redact(value) for key, value in marker.fields}
    trigger = {key: fields[key] for key in _TRIGGER_KEYS if fields.get(key)}
    tags = [t.strip() for t in fields.get("tags", "").split(",") if t.strip()]
    episode: dict[str, Any] = {
        "rule": fields.get("rule") or fields.get("lesson") or payload,
        "why": fields.get("why", ""),
        "error": fields.get("mistake") or fields.get("error", ""),
        "context": fields.get("context", ""),
        "impact": fields.get("impact", "medium").lower(),
        "type": "correction",
        "source": "marker",
        "tags": tags,
        "origin": item_id(LESSON_CHANNEL, payload),
    }
    if trigger:
        episode["trigger"] = trigger
    return episode


def within_one_edit(a: str, b: str) -> bool:
    """Levenshtein distance exactly one (an insertion, a deletion or a substitution)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return (a[i + 1 :] if len(a) == len(b) else a[i:]) == b[i + 1 :]
    return True


def _preview(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
