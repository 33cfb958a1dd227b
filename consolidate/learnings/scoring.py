"""Score, near-duplicates and lint over folded episodes: pure functions of the episodes and a clock.

Score = 0.4·recency + 0.3·frequency + 0.3·impact, with recency max(0, 1 − age_days/30) counted from the
last time the episode was seen (captured or bumped); a promoted episode no longer decays (recency 1).
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..lazyre import lazy
from ..plain import Frozen
from .episodes import IMPACT, Episode

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterable

HOT_FREQ = 3
PROMOTE_ABOVE = 0.8
STALE_BELOW = 0.15
_TOKEN = lazy(r"\w+")
_ADVICE = (
    (("step", "workflow", "forgot", "process"), "forgot a step: add a hook (PreToolUse/PostToolUse)"),
    (("tool", "command", "cli"), "wrong tool or flag: fix the tool's documentation or add a lesson trigger"),
    (("code", "test", "bug", "lint"), "code error: add a test or a lint rule"),
    (("style", "tone", "response"), "wrong response style: promote the rule into CLAUDE.md"),
)


def parse_ts(value: str) -> datetime | None:
    try:
        stamp = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def age_days(episode: Episode, now: datetime) -> float:
    seen = parse_ts(episode.seen)
    return max(0.0, (now - seen).total_seconds() / 86400) if seen else 30.0


def score(episode: Episode, now: datetime) -> float:
    recency = 1.0 if episode.status == "promoted" else max(0.0, 1 - age_days(episode, now) / 30)
    frequency = min(1.0, episode.freq / 3)
    return round(0.4 * recency + 0.3 * frequency + 0.3 * IMPACT[episode.impact], 4)


def ranked(episodes: Iterable[Episode], now: datetime) -> list[tuple[float, Episode]]:
    """Episodes by score, best first (ties: most recently seen first)."""
    scored = [(score(e, now), e) for e in episodes]
    return sorted(scored, key=lambda pair: (-pair[0], _neg_seen(pair[1])))


def _neg_seen(episode: Episode) -> float:
    seen = parse_ts(episode.seen)
    return -seen.timestamp() if seen else 0.0


def tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.casefold()))


def similar(a: str, b: str) -> bool:
    """Near-duplicate rules: nearly the same words (Jaccard ≥ 0.8) and exactly the same numbers.

    Numbers are where rules that read alike differ ("port 8080" vs "port 9090"), so they must agree.
    """
    left, right = tokens(a), tokens(b)
    if not left or not right or _numbers(left) != _numbers(right):
        return False
    if len(left) < 4 or len(right) < 4:
        return left == right
    return len(left & right) / len(left | right) >= 0.8


def _numbers(words: set[str]) -> set[str]:
    return {w for w in words if w.isdigit()}


def find_duplicate(rule: str, episodes: Iterable[Episode]) -> Episode | None:
    """The first live episode whose rule is a near-duplicate of `rule`."""
    return next((e for e in episodes if e.status != "archived" and similar(rule, e.rule)), None)


class LintFinding(Frozen):
    __slots__ = FIELDS = ("kind", "episode", "score", "advice")
    kind: str  # HOT, PROMOTE or STALE
    episode: Episode
    score: float
    advice: str

    def __init__(self, kind: str, episode: Episode, score: float, advice: str) -> None:
        self._set(kind=kind, episode=episode, score=score, advice=advice)


def lint(episodes: Iterable[Episode], now: datetime) -> list[LintFinding]:
    """HOT (freq ≥ 3: change the system), PROMOTE (score > 0.8), STALE (score < 0.15); active only."""
    findings: list[LintFinding] = []
    for value, episode in ranked((e for e in episodes if e.status == "active"), now):
        if episode.freq >= HOT_FREQ:
            findings.append(LintFinding("HOT", episode, value, hot_advice(episode)))
        if value > PROMOTE_ABOVE:
            findings.append(
                LintFinding("PROMOTE", episode, value, f"consolidate learnings promote {episode.id}")
            )
        elif value < STALE_BELOW:
            findings.append(
                LintFinding("STALE", episode, value, f"consolidate learnings archive {episode.id}")
            )
    return findings


def hot_advice(episode: Episode) -> str:
    """What to change when a rule keeps being broken: remembering it harder does not work."""
    words = tokens(" ".join([*episode.tags, episode.type, episode.context]))
    for keys, advice in _ADVICE:
        if words & set(keys):
            return "rule not working — " + advice
    return "rule not working — change the system: a hook, a test or a tool doc (or promote it)"
