"""Repeated wishes: an instruction that reads as a task for this time, given again in another session.

A rejection's reason or a correction with no word that generalises ("First save the plan to a new
dated section in notes/chore-2", "Add to notes/chore-3 first") is dropped as a one-off. When the user
has to say the same thing again in a later session, it was no one-off: the assistant should have known,
and the wish is a standing rule. Such interventions are remembered by the scan state across scans
(`WishStore`: the newest `MAX_WISHES`, redacted and clipped like the rest of the state, never one that
carried a secret), so a wish said today is recognised as one said days ago in a session scanned then.

The report links the one-offs of this scan with the remembered ones by their words (digits and plurals
aside: `chores-2` is `chore-3`), and a group said in two sessions or more, one of them in this scan, is
one candidate when most of its statements stopped the same kind of action and its rule names that
action (the plan presented, the program run): worded by the statement that stands alone (no pronoun
for something said in the dialogue, no verb with its object lost) whose words the others say most, a
number that varies across the statements written as `N` (`notes/chore-N`), that action its trigger,
and every statement cited as evidence. When unsure — another action each time, a rule that does not
name it, no statement that stands alone — nothing is proposed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from ..fsutil import atomic_write
from ..lazyre import lazy
from ..secrets import has_secret, redact_clip
from .report import Evidence, Learning
from .signals import Signal
from .text import stems

WISH_KIND = "wish"  # a remembered intervention of an earlier scan, given to the report as a signal
WISH_SOURCES = frozenset({"rejection", "correction"})  # the user stepped in on what was just done
WISH_FILE = "wishes.json"
MAX_WISHES = 200  # remembered at most (the newest); a wish not repeated within them is forgotten
TEXT_LIMIT = 240
MIN_WORDS = 4  # content words a wish needs to be recognisable when said again
MIN_SHARED = 3  # content words two statements of one wish share
MIN_COVER = 0.6  # ... and the part of the shorter one's words that is
COMMON = 40  # a word held by more wishes than this links none (it names no particular wish)
MAX_EVIDENCE = 5
_DIGITS = lazy(r"\d+")
# A wish is an instruction: it opens with what to do (or not), as the user typed it.
_INSTRUCTION = lazy(
    r"^(?:(?:please|first|then|also|just|always|never|only|now),?\s+)*"
    r"(?:add|append|amend|ask|avoid|bump|check|commit|copy|create|delete|document|don'?t|do not|drop|"
    r"include|install|keep|link|list|make|mention|move|name|note|pass|push|put|record|reference|remind|"
    r"remove|rename|run|save|squash|start|stop|tag|test|update|use|wait|write)\b|"
    r"^(?:не |никогда |всегда |сначала |)?[а-яё]+(?:йте|ите|й|и)\b|^(?:先|请|不要|别|每次|把|用)",
    re.IGNORECASE,
)
_VARYING = lazy(r"[\w./-]*\d[\w./-]*")
# What cannot word the rule on its own, though it is evidence of it: a pronoun standing for something
# said in the dialogue ("add it as the first todo"), a verb with its object lost ("Add to notes/chore-3").
_LEANS_ON_DIALOGUE = lazy(
    r"\b(?:it|them|this|these|those)\b|^(?:\w+,?\s+)?(?:add|save|put|move|write|append|copy)\s+(?:to|in|into|on)\b",
    re.IGNORECASE,
)
_CODE_SPAN = lazy(r"`([^`\n]+)`")


class WishStore:
    """The interventions of earlier scans, in `wishes.json` beside the scan state."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / WISH_FILE
        self._rows: list[dict[str, str]] | None = None
        self._dirty = False

    def _all(self) -> list[dict[str, str]]:
        if self._rows is None:
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError):
                loaded = []
            rows = loaded if isinstance(loaded, list) else []
            self._rows = [
                r for r in rows if isinstance(r, dict) and all(isinstance(v, str) for v in r.values())
            ]
        return self._rows

    def past(self, current: Iterable[Signal]) -> list[Signal]:
        """The remembered wishes not said in `current` (the signals of this scan), as `wish` signals."""
        said = {(s.session, s.uuid) for s in current}
        return [
            Signal(
                kind=WISH_KIND,
                principle=row.get("principle", ""),
                session=row.get("session", ""),
                uuid=row.get("uuid", ""),
                timestamp=row.get("timestamp", ""),
                quote=row.get("quote", ""),
                context=row.get("context", ""),
                file=row.get("file", ""),
                channel=row.get("kind", ""),  # the kind of signal it was said as
            )
            for row in self._all()
            if (row.get("session", ""), row.get("uuid", "")) not in said
        ]

    def remember(self, signals: Iterable[Signal]) -> None:
        """Keep the interventions among `signals` (never one that carried a secret)."""
        rows = {(r.get("session", ""), r.get("uuid", "")): r for r in self._all()}
        for signal in signals:
            if signal.kind not in WISH_SOURCES or signal.redacted or not signal.uuid:
                continue
            if (
                signal.session,
                signal.uuid,
            ) in rows:  # kept by an earlier scan: a re-scan redacts nothing again
                continue
            texts = [redact_clip(t, TEXT_LIMIT, "") for t in (signal.principle, signal.quote, signal.context)]
            if any(has_secret(t) or "[REDACTED" in t for t in texts):
                continue
            row = {
                "kind": signal.kind,
                "session": signal.session,
                "uuid": signal.uuid,
                "timestamp": signal.timestamp,
                "principle": texts[0],
                "quote": texts[1],
                "context": texts[2],
                "file": signal.file,
            }
            rows[(signal.session, signal.uuid)] = row
            self._dirty = True
        kept = sorted(rows.values(), key=lambda r: r.get("timestamp", ""))[-MAX_WISHES:]
        self._dirty = self._dirty or len(kept) != len(rows)
        self._rows = kept

    def save(self) -> None:
        if self._dirty and self._rows is not None:
            try:
                atomic_write(self.path, json.dumps(self._rows, ensure_ascii=False).encode())
            except OSError:
                return  # a wish not remembered is only a repeat not recognised later
            self._dirty = False


def _words(text: str) -> frozenset[str]:
    """Content stems with digits, hyphens and a plural `s` left out (`chores-2` is `chore-3`)."""
    result = set()
    for stem in stems(text):
        word = _DIGITS.sub("", stem).strip("-")
        word = word[:-1] if word.endswith("s") and len(word) > 3 else word
        if len(word) >= 2:
            result.add(word[:5])
    return frozenset(result)


def repeated_wishes(fresh: Sequence[Signal], past: Sequence[Signal]) -> list[Learning]:
    """The candidates of the wishes said again: `fresh` are the one-offs of this scan, `past` the
    remembered interventions of earlier scans (see the module)."""
    from .candidates import to_candidate
    from .existing import contradicts
    from .quality import form_problem, rejection_reason, task_for_now

    wishes: list[Signal] = []  # this scan's first, then the remembered ones
    seen: set[str] = set()
    fresh_count = 0
    for number, wish in enumerate([*fresh, *past]):
        is_fresh = number < len(fresh)
        if not is_fresh and rejection_reason(replace(wish, kind=wish.channel or "rejection")) != "one-off":
            continue
        said = {wish.uuid, f"{wish.timestamp}\0{wish.principle}"}  # a record copied into a resumed session
        if said & seen:
            continue
        seen |= said
        wishes.append(wish)
        fresh_count += is_fresh
    if len(wishes) < 2:
        return []
    words = [_words(w.principle) for w in wishes]
    usable = [
        len(words[i]) >= MIN_WORDS
        and _INSTRUCTION.match(w.principle.strip()) is not None
        and not form_problem(w.principle, explicit=True)
        and not task_for_now(w.principle)
        for i, w in enumerate(wishes)
    ]
    holders: dict[str, list[int]] = {}
    for i, ws in enumerate(words):
        if usable[i]:
            for word in ws:
                holders.setdefault(word, []).append(i)
    parent = list(range(len(wishes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    links: Counter[tuple[int, int]] = Counter()
    for held in holders.values():
        if len(held) <= COMMON:
            for a, i in enumerate(held):
                for j in held[a + 1 :]:
                    links[(i, j)] += 1
    linked: dict[int, Counter[int]] = {}
    for (i, j), shared in links.items():
        if shared < MIN_SHARED or shared < MIN_COVER * min(len(words[i]), len(words[j])):
            continue
        if contradicts(wishes[i].principle, wishes[j].principle):
            continue
        parent[root(i)] = root(j)
        linked.setdefault(i, Counter())[j] = shared
        linked.setdefault(j, Counter())[i] = shared
    groups: dict[int, list[int]] = {}
    for i in linked:
        groups.setdefault(root(i), []).append(i)
    result = []
    for members in groups.values():
        sessions = {wishes[i].session for i in members}
        if len(sessions) < 2 or not any(i < fresh_count for i in members):
            continue
        candidate = _candidate(members, fresh_count, wishes, words, linked, to_candidate)
        if candidate is not None:
            result.append(candidate)
    return result


def _candidate(
    members: list[int],
    fresh_count: int,
    wishes: list[Signal],
    words: list[frozenset[str]],
    linked: dict[int, Counter[int]],
    to_candidate: Callable[[Signal], Learning],
) -> Learning | None:
    """The rule of one group of statements, or None when every one leans on its dialogue or the user did
    not stop the same action in most of them with a rule that names it (when unsure, nothing)."""
    members = sorted(members, key=lambda i: (wishes[i].timestamp, i))
    # A wish already said again before this scan was proposed then: it keeps the wording it had.
    earlier = [i for i in members if i >= fresh_count]
    speakers = earlier if len({wishes[i].session for i in earlier}) >= 2 else members
    said = Counter(word for i in speakers for word in words[i])

    def clarity(i: int) -> tuple[float, int, int]:
        own = words[i]
        covered = sum(1 for word in own if said[word] > 1) / len(own)
        return covered, sum(n for j, n in linked[i].items() if j in speakers), -speakers.index(i)

    wordings = [i for i in speakers if not _LEANS_ON_DIALOGUE.search(wishes[i].principle)]
    if not wordings:
        return None
    best = wishes[max(wordings, key=clarity)]
    rejected = Counter(
        wishes[i].context for i in members if _kind(wishes[i]) == "rejection" and wishes[i].context
    )
    trigger, count = rejected.most_common(1)[0] if rejected else ("", 0)
    principle = _generalised(best.principle, [wishes[i].principle for i in speakers])
    if not (count >= 2 and count * 2 > len(members) and _names_action(principle, trigger)):
        return None  # not the same action stopped each time, or a rule that does not say when it holds
    signal = replace(
        best,
        kind="preference",
        principle=principle,
        trigger=trigger,
        standing=True,
        channel="",
        also=[],
    )
    candidate = to_candidate(signal)
    candidate.frequency = len({wishes[i].session for i in members})
    fresh = [i for i in members if i < fresh_count][:MAX_EVIDENCE]  # what this scan read is always cited
    cited = sorted(fresh + [i for i in members if i >= fresh_count][: MAX_EVIDENCE - len(fresh)])
    cited.sort(key=lambda i: (wishes[i].timestamp, i))
    candidate.evidence = [
        Evidence(w.session, w.uuid, w.timestamp, w.quote, w.file) for w in map(wishes.__getitem__, cited)
    ]
    return candidate


def _names_action(principle: str, trigger: str) -> bool:
    """The rule names the action it was said to: the program of a command (`git add` is not named by
    "Add a body …"), or a word of an action such as "presenting a plan\"."""
    command = _CODE_SPAN.search(trigger)
    if command:
        return any(span.split()[0] == command[1].split()[0] for span in _CODE_SPAN.findall(principle))
    return bool((_words(trigger) - _ACTION_VERBS) & _words(principle))


_ACTION_VERBS = frozenset({"prese", "runni", "editi", "writi", "creat", "readi", "calli", "using"})


def _kind(wish: Signal) -> str:
    return wish.channel if wish.kind == WISH_KIND else wish.kind


def _generalised(principle: str, statements: list[str]) -> str:
    """A name with a number that another statement gives with another number is written with `N`."""
    numbers: dict[str, set[tuple[str, ...]]] = {}
    for text in statements:
        for token in _VARYING.findall(text):
            numbers.setdefault(_shape(token), set()).add(tuple(_DIGITS.findall(token)))

    def varied(match: re.Match[str]) -> str:
        token = match[0]
        return _DIGITS.sub("N", token) if len(numbers.get(_shape(token), ())) > 1 else token

    return _VARYING.sub(varied, principle)


def _shape(token: str) -> str:
    """A name with its numbers, a plural `s` before them and a file suffix left out."""
    base = re.sub(r"\.(?:md|txt|rst)$", "", token.lower().strip("."))
    return re.sub(r"s?-?\d+", "#", base)
