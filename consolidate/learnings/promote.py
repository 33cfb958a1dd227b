"""Promotion: an episode that keeps scoring high becomes a rule in the project's CLAUDE.md.

CLAUDE.md is owner-only, so promotion never edits it silently: it builds a plan with one ADD proposal
(layer L1) and hands it to the same review/apply path as a dream, or writes the plan for later review.
The episode is marked promoted only once its rule is in CLAUDE.md.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from memory_layout import parse_document

from ..fsutil import digest_file
from ..plan import AddEntry, Evidence, Plan, Proposal, Target
from ..settings import Settings
from .episodes import Episode
from .scoring import score

DEFAULT_SECTION = "Learnings"


def rule_text(episode: Episode) -> str:
    """The CLAUDE.md entry: the rule, and its reason when the episode has one."""
    reason = episode.why or (f"learned from: {episode.error}" if episode.error else "")
    return f"{episode.rule} ({reason})" if reason else episode.rule


def already_promoted(episode: Episode, claude_md: Path) -> bool:
    """The rule is already an entry of CLAUDE.md (e.g. a plan written earlier was applied)."""
    try:
        document = parse_document(claude_md.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    text = rule_text(episode)
    return document.find_entry(text) is not None or document.find_entry("- " + text) is not None


def promotion_plan(
    episode: Episode, settings: Settings, now: datetime, section: str = DEFAULT_SECTION
) -> Plan:
    target = settings.layout.project_claude_md
    proposal = Proposal(
        id="P1",
        action="ADD",
        summary=f"Promote {episode.id}: {episode.rule[:100]}",
        layer="L1",
        target=Target(file=str(target), section=section),
        rationale=(
            f"Episode {episode.id} scores {score(episode, now):.2f} (seen {episode.freq}×, impact "
            f"{episode.impact}); a rule for every session of this project belongs in its CLAUDE.md."
        ),
        category="PROMOTE",
        confidence=min(1.0, score(episode, now)),
        sources=["learnings"],
        evidence=[Evidence(session=episode.id, quote=episode.context or episode.error or episode.rule)],
        changes=[AddEntry(op="add_entry", file=str(target), section=section, text=rule_text(episode))],
    )
    return Plan(
        project=str(settings.layout.project),
        memory_dir=str(settings.memory_dir),
        snapshot={str(target): digest_file(target)},
        proposals=[proposal],
    )
