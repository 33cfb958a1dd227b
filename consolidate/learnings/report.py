"""Views of the episodes: the score table, lint findings as data, and the Markdown report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .episodes import Episode
from .scoring import LintFinding, age_days, lint, ranked


def score_rows(episodes: Iterable[Episode], now: datetime) -> list[dict[str, Any]]:
    return [
        {
            "id": e.id,
            "score": value,
            "freq": e.freq,
            "impact": e.impact,
            "age_days": round(age_days(e, now), 1),
            "status": e.status,
            "rule": e.rule,
            "trigger": e.trigger.to_record() if e.trigger else None,
        }
        for value, e in ranked(episodes, now)
    ]


def finding_dict(finding: LintFinding) -> dict[str, Any]:
    e = finding.episode
    return {
        "kind": finding.kind,
        "id": e.id,
        "score": finding.score,
        "freq": e.freq,
        "rule": e.rule,
        "advice": finding.advice,
    }


def markdown_report(episodes: dict[str, Episode], now: datetime, top: int = 10) -> str:
    """A report for the owner: counts, the top-scored live rules, and what lint asks for."""
    statuses = Counter(e.status for e in episodes.values())
    live = [e for e in episodes.values() if e.status == "active"]
    lines = [
        f"# Learnings report — {now.strftime('%Y-%m-%d')}",
        "",
        f"{len(episodes)} episode(s): {statuses['active']} active, {statuses['promoted']} promoted, "
        f"{statuses['archived']} archived.",
        "",
        "## Top learnings",
        "",
    ]
    rows = score_rows(live, now)[:top]
    lines += [
        f"- **{r['score']:.2f}** [{r['id']}] {r['rule']} (freq {r['freq']}, {r['impact']})" for r in rows
    ]
    if not rows:
        lines.append("(none)")
    findings = lint(episodes.values(), now)
    lines += ["", "## Lint", ""]
    lines += [f"- **{f.kind}** [{f.episode.id}] {f.episode.rule} — {f.advice}" for f in findings]
    if not findings:
        lines.append("nothing to do")
    return "\n".join(lines) + "\n"
