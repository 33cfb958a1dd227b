"""From signals to candidates: quality rules, secrets, layers, memory comparison, dedupe, queue items."""

from __future__ import annotations

import pytest

from consolidate.discover import build_report
from consolidate.discover.candidates import pointer_line, to_candidate
from consolidate.discover.signals import Signal, make_signal


def _signal(kind: str, principle: str, session: str = "s1", uuid: str = "u1", **extra: object) -> Signal:
    return make_signal(
        kind, principle, quote=principle, session=session, uuid=uuid, trigger="running `npm`", **extra
    )


@pytest.mark.parametrize(
    ("principle", "reason"),
    [
        ("Always write tests", "generic"),
        ("Be more careful when editing files", "generic"),
        ("For now, skip the lint step instead of fixing it", "transient"),
        ("Rename utils.py to helpers.py", "one-off"),
        ("Don't do that", "no principle"),
        ("No", "no principle"),
    ],
)
def test_content_quality_rules_drop_candidates(principle: str, reason: str) -> None:
    report = build_report([_signal("correction", principle)])
    assert report.candidates == []
    assert report.stats[f"dropped_{reason.replace(' ', '_').replace('-', '_')}"] == 1


def test_secrets_are_redacted_and_never_emitted() -> None:
    token = "ghp_" + "a1" * 18
    signal = _signal("remember", f"The deploy token is {token}")
    assert token not in signal.principle and token not in signal.quote and signal.redacted
    report = build_report([signal])
    assert report.candidates == [] and report.stats["dropped_secret"] == 1
    clean = make_signal(
        "remember", "Run migrations locally, the staging DB is read-only", quote=f"x {token} y"
    )
    assert "[REDACTED:github-token]" in clean.quote and not clean.redacted


@pytest.mark.parametrize(
    ("kind", "principle", "layer", "section"),
    [
        ("remember", "Always answer in Russian", "L0", "Preferences"),
        ("remember", "以后都用中文回答我", "L0", "Preferences"),
        ("correction", "Commit messages follow the 50/72 rule, always", "L1", "Conventions"),
        ("decision", "Use SQLite for the queue because it needs no server", "L1", "Decisions"),
        ("error-fix", "For `pytest`, omit `--no-cov` (unrecognized arguments)", "L2", "Commands"),
        ("correction", "Use pnpm instead of npm", "L2", "Feedback"),
    ],
)
def test_layer_and_section(kind: str, principle: str, layer: str, section: str) -> None:
    candidate = to_candidate(_signal(kind, principle))
    assert (candidate.layer, candidate.section) == (layer, section)


def test_long_marker_detail_goes_to_a_topic_file() -> None:
    signal = _signal("marker", "Redis pool exhausted under load", detail="Redis pool exhausted. " * 20)
    assert to_candidate(signal).layer == "L3"


def test_pointer_uses_the_trigger_form() -> None:
    candidate = to_candidate(_signal("correction", "Use pnpm instead of npm"))
    assert pointer_line(candidate) == "**When running `npm`:** Use pnpm instead of npm."


def test_already_recorded_is_dropped_related_is_update_or_contradiction() -> None:
    memory = {
        "MEMORY.md": "# Project Memory\n\n## Feedback\n- **When installing packages:** Use pnpm instead of npm.\n",
        "CLAUDE.md": "Run the tests with `cargo test` before every commit.\nDeploys go through the staging cluster first.\n",
    }
    report = build_report(
        [
            _signal("correction", "Use pnpm instead of npm", uuid="a"),
            _signal("correction", "Use `tspec test` instead of `cargo test` before a commit", uuid="b"),
            _signal(
                "remember",
                "Deploys go through the staging cluster first, then a canary, then production",
                uuid="c",
            ),
            _signal(
                "remember", "The search index is rebuilt with `make reindex` after schema changes", uuid="d"
            ),
        ],
        memory,
    )
    by_uuid = {c.evidence[0].uuid: c for c in report.candidates}
    assert "a" not in by_uuid and report.stats["dropped_recorded"] == 1
    assert by_uuid["b"].category == "CONTRADICT" and "cargo test" in by_uuid["b"].related
    assert by_uuid["c"].category == "UPDATE" and by_uuid["c"].related.startswith("Deploys go through")
    assert by_uuid["d"].category == "FILL_GAP" and by_uuid["d"].related == ""


def test_near_duplicates_merge_and_repetition_raises_impact() -> None:
    signals = [
        _signal("correction", "Use pnpm instead of npm in this repo", session="s1", uuid="a"),
        _signal("correction", "We use pnpm here, not npm", session="s2", uuid="b"),
        _signal("rejection", "Always use pnpm, never npm", session="s3", uuid="c"),
        _signal("correction", "Use ruff format instead of black", session="s1", uuid="d"),
    ]
    report = build_report(signals)
    assert len(report.candidates) == 2
    pnpm = next(c for c in report.candidates if "pnpm" in c.principle)
    single = to_candidate(signals[0])
    assert pnpm.frequency == 3 and {e.uuid for e in pnpm.evidence} == {"a", "b", "c"}
    assert pnpm.impact > single.impact and pnpm.confidence > single.confidence


def test_contradicting_candidates_are_not_merged() -> None:
    report = build_report([
        _signal("correction", "Use `pnpm` instead of `npm`", uuid="a"),
        _signal("correction", "Use `npm` instead of `pnpm`", uuid="b"),
    ])  # fmt: skip
    assert len(report.candidates) == 2


def test_queue_items_become_queue_candidates_and_merge_with_their_marker() -> None:
    from consolidate.discover.candidates import queue_signal

    items = [
        {
            "id": "q1",
            "channel": "learning",
            "payload": "The sandbox rejects amounts under $1; fixtures use 100 cents.",
        },
        {"id": "q2", "channel": "learning", "payload": "Use pnpm instead of npm"},
        {
            "id": "q3",
            "channel": "profile-fact",
            "payload": "entity: alex\ntype: person\nfields:\n  role: maintainer",
        },
    ]
    marker = _signal("marker", "The sandbox rejects amounts under $1; fixtures use 100 cents.", uuid="m")
    memory = {"MEMORY.md": "- **When installing:** Use pnpm instead of npm.\n"}
    report = build_report([marker] + [queue_signal(i) for i in items], memory)
    by_queue = {c.queue_id: c for c in report.candidates}
    assert set(by_queue) == {"q1", "q3"}
    assert {e.uuid for e in by_queue["q1"].evidence} >= {"m"}
    assert by_queue["q1"].frequency == 1  # the marker and its own queue item are one sighting
    assert by_queue["q3"].kind == "queue" and by_queue["q3"].section == "Profile Fact"
    assert report.dropped_queue_ids == ["q2"]


def test_a_scan_with_nothing_remembered_does_not_load_the_matcher() -> None:
    import subprocess
    import sys

    from consolidate.discover.matcher import Matcher

    signals = [
        _signal("correction", "Use pnpm instead of npm for installs", uuid="a"),
        _signal("remember", "Run migrations locally, the staging DB is read-only", uuid="b"),
    ]
    report = build_report(signals, {"MEMORY.md": "  \n", "CLAUDE.md": ""})
    empty = Matcher.of_texts([])
    assert len(report.candidates) == 2
    for candidate in report.candidates:  # what the matcher says when nothing is remembered
        verdict = empty.judge(candidate.principle)
        assert (
            (candidate.category, candidate.related) == (verdict.category, verdict.related) == ("FILL_GAP", "")
        )
    code = (
        "import sys\nfrom consolidate.discover import build_report\nfrom consolidate.discover.signals import make_signal\n"
        "s = make_signal('correction', 'Use pnpm instead of npm for installs', quote='q', session='s', uuid='u',"
        " trigger='running `npm`')\n"
        "assert build_report([s], []).candidates\n"
        "print('consolidate.discover.matcher' in sys.modules, 'consolidate.discover.samerule' in sys.modules)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.split() == ["False", "False"]


def test_a_principle_naming_its_own_condition_gets_no_second_trigger_in_the_scan() -> None:
    from types import SimpleNamespace

    from consolidate.discover.candidates import pointer_line

    learning = SimpleNamespace(
        trigger="running `uv add`", principle="When adding a dependency: use `uv add`, never `pip install`"
    )
    assert pointer_line(learning) == "When adding a dependency: use `uv add`, never `pip install`."
    learning.principle = "Use `uv add`, never `pip install`"
    assert pointer_line(learning) == "**When running `uv add`:** Use `uv add`, never `pip install`."
