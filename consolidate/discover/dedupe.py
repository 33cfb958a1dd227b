"""Merge near-duplicate candidates: the same lesson said twice (or in two sessions) is one candidate
with its frequency summed, its evidence pooled, and more confidence and impact when it recurs."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import lru_cache

from ..lazyre import lazy
from .existing import contradicts, negated_terms
from .report import Evidence, Learning
from .spelling import corrected, typos
from .text import STOPWORDS, overlap, stems

MERGE_JACCARD = 0.5
MERGE_CONTAINMENT = 0.75
SAME_CODE_JACCARD = 0.2
MAX_EVIDENCE = 5
_CODE = lazy(r"`([^`\n]+)`")
_PLACEHOLDER = lazy(r"^(?:\.+|…|x{2,}|<[^>]*>|\*)$")
_PLAIN_VERBS = frozenset(
    {"use", "run", "always", "never", "instead", "rather", "prefer", "всегда", "использ", "总是", "kullan"}
)


def similar(a: str, b: str) -> bool:
    """Near-duplicate principles that do not contradict each other (a shared command counts extra)."""
    jaccard, containment, shared = overlap(a, b)
    close = jaccard >= MERGE_JACCARD or containment >= MERGE_CONTAINMENT and shared >= 3
    if not close and jaccard >= SAME_CODE_JACCARD and _code_spans(a) & _code_spans(b):
        close = True
    if not close and _same_swap(a, b):
        close = True
    if shared < 2 or not close:
        return False
    return not contradicts(a, b) and (orders_the_same(a, b) or _same_swap(a, b))


# The verbs that only carry what a rule says to use ("use `tspec`", "run `tspec`", "prefer `tspec`"):
# one act.
_USING = frozenset({"use", "run", "call", "invok", "execut", "prefer", "switch", "stick"})
_LEADING = lazy(r"^\s*(?:for|when|whenever|in|on|with|during)\b[^,]{0,80},\s*", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _act(rule: str) -> str | None:
    """The act a rule orders or forbids (`samerule.act_of`), past a leading "For `x`," or "When …,"
    clause, the verbs of using folded into one. Read once per wording: merging compares each
    candidate with the first of every cluster, so the same wordings come again and again."""
    from .samerule import act_of  # the meaning match loads only when two candidates are alike

    act = act_of(corrected(_LEADING.sub("", rule.strip(), count=1)))  # "Uswd `x`" orders using
    return "use" if act in _USING else act


_NOT_UNTIL = lazy(
    r"^\W*(?:don'?t|do not|never)\s+(?P<act>.+?)\s+(?:until|till|before)\s+(?:after\s+)?(?P<cond>[^,;.]+)",
    re.IGNORECASE,
)
_AFTER = lazy(r"^\W*(?:after|once)\s+(?P<cond>[^,;]+),\s*(?P<act>[^,;.]+)", re.IGNORECASE)
_CARRYING = frozenset({"run", "use", "call", "do"})


def _sequence(rule: str) -> tuple[str, frozenset[str]] | None:
    """(the act, the stems of what it waits for) of a rule that orders an act after something: "Don't
    run `cargo install` until after the tests pass" and "After all tests pass, install the new version"
    are both (install, {test, pass}); None for any other rule."""
    from .samerule import act_of

    match = _NOT_UNTIL.match(rule) or _AFTER.match(rule)
    if match is None:
        return None
    words = match["act"].split()
    while len(words) > 1 and words[0].lower() in _CARRYING:
        words.pop(0)  # "run `cargo install`": the command is the act
    head = words[0] if words else ""
    if head.startswith("`"):
        head = " ".join(words).split("`")[1].split()[-1] if "`" in " ".join(words)[1:] else head
    act = act_of(head.strip("`")) if head else None
    return (act, frozenset(stems(match["cond"]))) if act else None


def one_sequence(a: str, b: str) -> bool:
    """Two rules that order the same act after the same thing, one as "don't X until Y", the other as
    "after Y, X": one rule (the second may say more, "ASAP")."""
    one, other = _sequence(a), _sequence(b)
    if one is None or other is None or one[0] != other[0]:
        return False
    return len(one[1] & other[1]) >= min(2, len(one[1]), len(other[1]))


def orders_the_same(a: str, b: str) -> bool:
    """Do two rules (about the same command, say) order the same act? "Install it once the tests pass"
    and "pass `--path .` to `tspec install`" share a command and order two things: two rules. Unknown
    when a rule opens with no verb (then nothing keeps them apart)."""
    one, other = _act(a), _act(b)
    return one is None or other is None or one == other


def _same_swap(a: str, b: str) -> bool:
    """Both say "X, not Y" about the same X and Y ("use pnpm instead of npm" / "always pnpm, never npm")."""
    neg_a, neg_b = negated_terms(a), negated_terms(b)
    if not neg_a & neg_b:
        return False
    preferred = (stems(a) - neg_a) & (stems(b) - neg_b)
    return bool(preferred - _PLAIN_VERBS)


def _code_spans(text: str) -> set[str]:
    """The commands and names in backticks, placeholders dropped (`tspec ..` and `tspec xxx` are one)."""
    spans = (
        " ".join(w for w in span.lower().split() if not _PLACEHOLDER.match(w)) for span in _CODE.findall(text)
    )
    return {span for span in spans if span}


def merge_candidates(candidates: list[Learning]) -> list[Learning]:
    """One candidate per cluster of near-duplicates; the most confident one speaks for the cluster."""
    clusters: list[list[Learning]] = []
    for candidate in sorted(candidates, key=lambda c: (-c.confidence, -len(c.evidence))):
        for cluster in clusters:
            if similar(candidate.principle, cluster[0].principle):
                cluster.append(candidate)
                break
        else:
            clusters.append([candidate])
    return [combine(cluster) for cluster in clusters]


_DEICTIC = lazy(r"\b(?:here|this|that|now|it|these|those|me|i|you)\b", re.IGNORECASE)
_CURATED = frozenset({"marker", "queue"})


def clarity(candidate: Learning) -> tuple[int, int, int]:
    """How well a wording stands alone: a rule someone wrote down for later first, then the fewest words
    that point at the moment ("here", "this", "me"), then the one that says the most."""
    words = set(re.findall(r"\w+", candidate.principle.lower()))
    return (candidate.kind in _CURATED, -len(_DEICTIC.findall(candidate.principle)), len(words))


_SWAP = lazy(r"\b(?:instead of|rather than)\b", re.IGNORECASE)
_TERM = lazy(r"[\w'’./-]+")
# Words that only join a rule's parts ("until", "after"): a wording that lacks them says no less.
_JOINING = frozenset(
    {
        "until",
        "after",
        "before",
        "once",
        "unless",
        "while",
        "whenever",
        "then",
        "must",
        "need",
        "needs",
        "always",
    }
    | {"don't", "dont", "doesn't", "won't", "can't", "cannot"}
)
# Words of degree and hedging ("almost always", "really", "probably"): how strongly it was said, not
# what the rule says — a wording that lacks them loses nothing a rule would keep.
DEGREE = frozenset(
    {
        "almost",
        "nearly",
        "mostly",
        "usually",
        "generally",
        "basically",
        "really",
        "actually",
        "probably",
        "possibly",
        "definitely",
        "simply",
        "often",
        "maybe",
        "perhaps",
        "possible",
        "should",
        "would",
        "could",
    }
)


def unsaid_words(part: str, whole: str) -> list[str]:
    """The words of `part` that `whole` (a wording with its trigger) does not say, as itself, a part of
    a dotted name ("uv.lock": lock) or an inflection ("passes" / "pass", "dependencies" / "dependency"):
    what a merge that keeps only `whole` would lose ("The linter must run before every commit" kept as
    "Run `cargo clippy` before every commit" loses "linter"). A plain word of four letters or fewer
    ("file", "here") says too little to count; a name in backticks always counts."""
    said = {p for w in _terms(whole) for p in (w, *re.split(r"[./-]", w)) if len(p) > 1}
    named = {p for span in _CODE.findall(part.lower()) for p in _terms(span)}
    return [
        word
        for word in dict.fromkeys(_terms(part))
        if (len(word) > 4 or word in named and len(word) > 1)
        and word not in STOPWORDS
        and word not in _JOINING
        and word not in DEGREE
        and not any(_inflected(word, other) for other in said)
    ]


def _terms(text: str) -> list[str]:
    return [w.strip(".-/'’") for w in _TERM.findall(text.lower().replace("`", " "))]


def _inflected(word: str, other: str) -> bool:
    """The same word, or one of its forms: a shared start of at least four letters, all of the shorter
    word but its last letter, that leaves at most four letters over ("passes" / "pass", "dependencies" /
    "dependency"; not "linter" / "line")."""
    if word == other:
        return True
    short, long = sorted((word, other), key=len)
    shared = len(os.path.commonprefix([short, long]))
    return shared >= 4 and shared >= len(short) - 1 and len(long) - shared <= 4


def combine(cluster: list[Learning]) -> Learning:
    """The most confident candidate leads; among those about as confident, the clearest wording speaks
    (a written-down rule before a remark made in passing; then one without a word another wording spells
    differently - a typo; then one that names what it replaces; then the one that says the most)."""
    lead = cluster[0]
    close = [c for c in cluster if c.confidence >= lead.confidence - 0.1]
    wordings = list(dict.fromkeys(c.principle for c in close))
    misspelt = dict(zip(wordings, typos(wordings), strict=True))
    speaker = max(
        close,
        key=lambda c: (
            clarity(c)[0],
            -misspelt[c.principle],
            bool(
                _SWAP.search(c.principle)
            ),  # "use X instead of Y" says more than "use X as much as possible"
            *clarity(c)[1:],
        ),
    )
    sessions = {e.session for c in cluster for e in c.evidence if e.session}
    extra_sessions = max(0, len(sessions) - 1)
    merged = replace(speaker)
    merged.frequency = sum(c.frequency for c in cluster if not _own_queue_item(c, cluster))
    merged.evidence = pooled_evidence(cluster)
    merged.queue_id = lead.queue_id or next((c.queue_id for c in cluster if c.queue_id), "")
    merged.detail = speaker.detail or max(
        (c.detail for c in cluster if detail_fits(c.detail, speaker)), key=len, default=""
    )
    others = dict.fromkeys(  # what another wording says that the speaker does not: kept, not lost
        c.principle
        for c in cluster
        if c.principle != speaker.principle
        and unsaid_words(c.principle, f"{speaker.trigger} {speaker.principle}")
    )
    merged.detail = "\n\n".join([merged.detail.strip(), *(f"Also: {o}" for o in others)]).strip()
    bonus = 0.05 * (len(cluster) - 1) + 0.05 * extra_sessions
    merged.confidence = round(min(0.98, lead.confidence + bonus), 2)
    merged.impact = round(min(1.0, max(c.impact for c in cluster) + 0.15 * extra_sessions), 2)
    return merged


def detail_fits(detail: str, learning: Learning) -> bool:
    """Is the detail about this learning: every code span it names (a command, a flag) said by the
    principle, in code or in its words? "`x` without `--flag` failed: …" belongs to a rule about
    `--flag`, never to another rule of the same session that merely names `x`."""
    said = " ".join(learning.principle.lower().replace("`", " ").split())
    return all(
        " ".join(span.lower().split()) in said for span in re.findall(r"`([^`\n]+)`", detail) if span.strip()
    )


def _own_queue_item(candidate: Learning, cluster: list[Learning]) -> bool:
    """A capture-queue item that is a marker of the cluster queued: the same sighting, counted once."""
    said = " ".join(candidate.principle.lower().split())
    return candidate.kind == "queue" and any(
        c.kind == "marker" and " ".join(c.principle.lower().split()) == said for c in cluster
    )


def pooled_evidence(cluster: list[Learning]) -> list[Evidence]:
    """Up to five pieces of evidence, one per session first."""
    everything = [e for c in cluster for e in c.evidence]
    first_per_session: list[Evidence] = []
    seen: set[str] = set()
    for evidence in everything:
        if evidence.session not in seen:
            seen.add(evidence.session)
            first_per_session.append(evidence)
    rest: list[Evidence] = []
    for evidence in everything:
        if len(first_per_session) + len(rest) >= MAX_EVIDENCE:
            break
        if evidence not in first_per_session:
            rest.append(evidence)
    return (first_per_session + rest)[:MAX_EVIDENCE]


def distinct_sessions(candidate: Learning) -> int:
    return len({e.session for e in candidate.evidence if e.session})
