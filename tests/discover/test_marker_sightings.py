"""A marker and the capture-queue item it became are one sighting of one learning."""

from __future__ import annotations

from consolidate.discover.candidates import queue_signal
from consolidate.discover.discover import build_report
from consolidate.discover.phrasing import marker_principle
from consolidate.discover.signals import make_signal

PAYLOAD = "Run the suite with `make test`: it loads the DB fixture plugin that plain pytest misses."


def _marker(session: str) -> object:
    principle, detail = marker_principle(PAYLOAD)
    return make_signal(
        "marker", principle, quote=PAYLOAD, detail=detail, session=session, uuid=f"u-{session}"
    )


def test_a_marker_and_its_own_queue_item_count_once() -> None:
    item = {"id": "q1", "channel": "learning", "payload": PAYLOAD}
    report = build_report([_marker("s1"), queue_signal(item)])  # type: ignore[list-item]
    [candidate] = report.candidates
    assert candidate.frequency == 1 and candidate.queue_id == "q1"


def test_the_same_marker_in_two_sessions_counts_twice() -> None:
    report = build_report([_marker("s1"), _marker("s2")])  # type: ignore[list-item]
    [candidate] = report.candidates
    assert candidate.frequency == 2
