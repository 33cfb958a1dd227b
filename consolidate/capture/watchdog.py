"""The capture watchdog: a dry stretch of conversation with no marker gets one nudge.

Counted per transcript since its last marker: assistant turns (the first assistant record after a
prompt the user typed) and characters the user typed. Tool results, system reminders, hook output,
command output and compaction summaries are not typed by the user and do not count. Once both reach
their thresholds the watchdog nudges once; a new marker starts a new stretch.
"""

from __future__ import annotations

from ..transcripts.records import Record, human_text

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any


NUDGE = (
    "capture watchdog: {turns} assistant turns and {chars} characters from the user since the last "
    "learning marker. Review the recent turns for a correction, decision or discovery worth keeping; if "
    "there is one, write it as `📝 Learned: …` plus `<!-- learning: … (why) -->`."
)


def fresh() -> dict[str, Any]:
    return {"turns": 0, "chars": 0, "awaiting_reply": False, "nudged": False}


def observe(watch: dict[str, Any], record: Record, marked: bool) -> None:
    """Count one record into the stretch; a marker in it ends the stretch."""
    if record.sidechain:
        return
    if record.type == "user":
        typed = human_text(record)
        if typed:
            watch["chars"] += len(typed)
            watch["awaiting_reply"] = True
    elif record.type == "assistant" and watch["awaiting_reply"]:
        watch["turns"] += 1
        watch["awaiting_reply"] = False
    if marked:
        watch.update(turns=0, chars=0, nudged=False)


def nudge(watch: dict[str, Any], min_turns: int, min_chars: int) -> str | None:
    """The nudge when the stretch is dry enough and not yet nudged (then marks it nudged)."""
    if watch.get("nudged") or watch.get("turns", 0) < min_turns or watch.get("chars", 0) < min_chars:
        return None
    watch["nudged"] = True
    return NUDGE.format(turns=watch["turns"], chars=watch["chars"])
