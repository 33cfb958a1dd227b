from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from consolidate.learnings.episodes import Episode
from consolidate.learnings.scoring import find_duplicate, lint, score, similar

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


def episode(
    days_ago: float = 0, freq: int = 1, impact: str = "medium", status: str = "active", **kw: object
) -> Episode:
    ts = (NOW - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Episode(
        id=str(kw.pop("id", "EP-20261129-001")),
        ts=ts,
        rule=str(kw.pop("rule", "a rule")),
        freq=freq,
        impact=impact,
        status=status,
    )


@pytest.mark.parametrize(
    ("days", "freq", "impact", "expected"),
    [
        (0, 1, "medium", 0.4 + 0.1 + 0.12),
        (15, 2, "high", 0.4 * 0.5 + 0.2 + 0.21),
        (30, 3, "critical", 0 + 0.3 + 0.3),
        (45, 6, "low", 0 + 0.3 + 0.03),
    ],
)
def test_score_formula(days: float, freq: int, impact: str, expected: float) -> None:
    assert score(episode(days, freq, impact), NOW) == pytest.approx(expected, abs=1e-4)


def test_promoted_episodes_do_not_decay() -> None:
    assert score(episode(90, 1, "high", "promoted"), NOW) == pytest.approx(0.4 + 0.1 + 0.21)


def test_age_counts_from_the_last_bump() -> None:
    old = episode(60)
    old.last_seen = NOW.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert score(old, NOW) == pytest.approx(0.62)


def test_lint_hot_promote_stale() -> None:
    hot = episode(1, freq=3, impact="critical", id="EP-1")
    stale = episode(40, freq=1, impact="low", id="EP-2")
    plain = episode(5, id="EP-3")
    archived = episode(40, impact="low", status="archived", id="EP-4")
    findings = {(f.kind, f.episode.id) for f in lint([hot, stale, plain, archived], NOW)}
    assert findings == {("HOT", "EP-1"), ("PROMOTE", "EP-1"), ("STALE", "EP-2")}


def test_hot_advice_changes_the_system() -> None:
    hot = episode(freq=4, id="EP-1")
    hot.tags = ["workflow"]
    (finding,) = [f for f in lint([hot], NOW) if f.kind == "HOT"]
    assert "add a hook" in finding.advice


def test_near_duplicates() -> None:
    assert similar(
        "Run tests with uv run pytest; the system python lacks deps",
        "run tests with `uv run pytest` — the system Python lacks deps",
    )
    assert not similar("Run tests with uv run pytest", "Deploy with make release from main only")
    assert similar("use uv", "Use UV")
    assert not similar("use uv", "use pip")
    assert not similar("serve the docs on port 8080 locally", "serve the docs on port 9090 locally")
    assert similar(
        "always run the linter before you commit a change",
        "always run the linter before you commit any change",
    )
    live = [
        episode(id="EP-1", rule="never force-push main"),
        episode(id="EP-2", rule="use uv", status="archived"),
    ]
    assert find_duplicate("Never force-push main", live) is live[0]
    assert find_duplicate("use uv", live) is None  # archived episodes are not bumped
