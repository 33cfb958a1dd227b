"""Episodes: the user's interventions on one task, cited together.

A lesson is rarely taught in one turn. The user asks for something; the assistant acts; the user
rejects the action ("do a --ff-only"), rejects the retry and only then says the rule ("you can't merge
because of …"); or the rule comes first and the user corrects how the assistant carries it out ("how
should you install it?"). Everything from one typed request to the next — the rejections of the
assistant's actions, their reasons and what the user typed after interrupting — is one episode. A turn
of an episode that is no candidate of its own (a one-off reason, a question, a rule already recorded)
joins the candidate the same episode taught, as evidence, when it is about the same thing: the rule
names a content word of the turn or of the action it answered. It never makes a candidate and never
raises a candidate's frequency or rank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .report import Evidence, Learning
from .signals import Signal
from .text import stems

EPISODE_KIND = "episode"
MAX_EVIDENCE = 8
# Words any rule or remark may say: sharing one says nothing about what two turns are about.
_GENERIC = frozenset({
    "always", "never", "every", "each", "need", "needs", "want", "wants", "make", "sure", "think", "like",
    "good", "fine", "look", "looks", "now", "thing", "things", "way", "work", "works", "done", "again",
    "first", "later", "right", "wrong", "thanks",
})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Member:
    """A turn of an episode that may join the candidate the episode taught."""

    episode: str
    words: frozenset[str]  # what it is about: its own words and the action it answered
    evidence: Evidence


def action_words(context: str) -> frozenset[str]:
    """The content words of the action a turn answered (`running \\`git merge x\\`` -> git, merge, x),
    without the verb every action trigger starts with."""
    if "`" in context:
        inside = " ".join(context.split("`")[1::2])
        return _about(inside)
    _, _, rest = context.partition(" ")
    return _about(rest)


def _about(text: str) -> frozenset[str]:
    return frozenset(w for w in stems(text) if w not in _GENERIC)


def member_of(signal: Signal) -> Member | None:
    """A signal of an episode as a member: the words it says, the action it answered, where it was said."""
    if not signal.episode or signal.redacted:
        return None
    return Member(
        signal.episode,
        _about(signal.principle) | _about(signal.quote) | action_words(signal.context),
        Evidence(signal.session, signal.uuid, signal.timestamp, signal.quote, signal.file),
    )


def attach_episode_turns(
    candidates: list[Learning], members: Iterable[Member], signals: Iterable[Signal]
) -> None:
    """Each member joins (in place) the first candidate of its episode whose rule names what the member is
    about; the rest are dropped. `signals` are those the candidates were made from (the task of each moment)."""
    task = {(s.session, s.uuid): s.episode for s in signals if s.episode}
    if not task:
        return
    holders: dict[str, list[tuple[Learning, frozenset[str]]]] = {}  # episode -> its candidates, in order
    for candidate in candidates:
        episodes = {task[(e.session, e.uuid)] for e in candidate.evidence if (e.session, e.uuid) in task}
        said = _about(candidate.principle) if episodes else frozenset()
        for episode in sorted(episodes):
            holders.setdefault(episode, []).append((candidate, said))
    cited = {(e.session, e.uuid) for c in candidates for e in c.evidence}
    for member in members:
        key = (member.evidence.session, member.evidence.uuid)
        if key in cited:
            continue
        for holder, said in holders.get(member.episode, ()):
            if member.words & said and len(holder.evidence) < MAX_EVIDENCE:
                holder.evidence.append(member.evidence)
                cited.add(key)
                break
