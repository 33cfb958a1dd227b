"""Are two candidates one learning, and is a candidate a rejected learning again? Word coverage.

Whether a rule is already stated (by memory, CLAUDE.md or the team memory) is `discover.matcher`'s
decision, not this module's: here near-duplicate candidates merge (`additions.merge_alike`) and a
rejected learning is known in other words (`Backlog.was_rejected`).

A text's content words (Markdown, link targets and stop words left out; character pairs for scripts
without spaces) are compared with rapidfuzz: a word counts as said when the other text has the same
word or one within a small edit distance (dependency / dependencies, config / configs). `coverage(a, b)`
is the share of a's words that b says, and `says(a, b)` is that share, or nothing when b misses a
command or name a puts in backticks. Two candidates are one learning when each covers most of the
other. Coverage is asymmetric on purpose: a short title whose words all appear in a long candidate says far less than
the candidate, so it never makes the candidate a duplicate.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

RECORDED = 0.8  # the share `says` once took for "already recorded": the bench of scorers compares at it
ALIKE = 0.75  # two candidates that each say this much of the other are one learning
MIN_WORDS = 3  # fewer content words than this is too little to judge by
_WORD_MATCH = 90  # rapidfuzz ratio for two words to count as the same word (a typo away)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_WORD = re.compile(r"[^\W_][\w.\-/]*[^\W_]|[^\W_]", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_CODE = re.compile(r"`([^`\n]+)`")
_STOP_WORDS = """
the a an and or of to in on for with when while is are be it its this that these those use using used not
never always do does don't than then from into at by as so if via any all each every can should must will
would has have had was were been you your they their there what which who also only just more most less
about after before over under such other some no yes see detail details run runs here don doesn didn isn
aren wasn won shouldn instead repository repo follow
"""
STOP = frozenset(_STOP_WORDS.split())


def words(text: str) -> list[str]:
    """The content words of `text`, lower-cased, in order, each once (`uv.lock` also gives `lock`)."""
    text = _LINK_TARGET.sub("]", text.lower()).replace("`", " ").replace("*", " ")
    found: dict[str, None] = {}
    for word in _WORD.findall(text):
        word = word.strip(".-/")
        if _CJK.search(word):
            chars = [c for c in word if not c.isspace()]
            found.update((a + b, None) for a, b in zip(chars, chars[1:], strict=False))
        elif len(word) > 2 and word not in STOP:
            found[word] = None
            for part in re.split(r"[./-]", word) if re.search(r"[./-]", word) else ():
                if len(part) > 2 and part not in STOP:
                    found[part] = None
    return list(found)


def key_words(text: str) -> list[str]:
    """The words of what `text` puts in backticks: the commands, files and names it is about."""
    return words(" ".join(_CODE.findall(text)))


def coverage(part: Sequence[str], whole: Sequence[str]) -> float:
    """The share of `part`'s words that `whole` says: the same word, one with the same stem
    (dependency / dependencies), or one a typo away."""
    if not part:
        return 0.0
    vocabulary = set(whole)
    return sum(1 for word in part if word in vocabulary or _said_otherwise(word, whole)) / len(part)


def _said_otherwise(word: str, whole: Sequence[str]) -> bool:
    stem = _stem(word)
    if any(_stem(other) == stem for other in whole):
        return True
    return (
        len(word) >= 5
        and process.extractOne(word, whole, scorer=fuzz.ratio, score_cutoff=_WORD_MATCH) is not None
    )


@lru_cache(maxsize=65536)  # the words of a run's candidates are stemmed again for every pair compared
def _stem(word: str) -> str:
    """A light English stem: tagged / tags / tag, dependency / dependencies, adding / add."""
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: len(word) - len(suffix)] + replacement
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


@dataclass(frozen=True)
class Said:
    """A text as compared: its content words and the words of its code spans."""

    words: list[str]
    keys: list[str]

    @classmethod
    def of(cls, text: str) -> Said:
        return cls(words(text), key_words(text))


def says(part: Said, whole: Said) -> float:
    """How much of `part` `whole` says; nothing when `whole` misses a command or name `part` is about."""
    if part.keys and coverage(part.keys, whole.words) < 1.0:
        return 0.0
    return coverage(part.words, whole.words)


def alike(a: Said, b: Said) -> float:
    """How much two texts say of each other: the lower of the two."""
    return min(says(a, b), says(b, a))


class Index:
    """Known texts by word, so a query is compared only with texts that share a word with it."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.said: list[Said] = []
        self._by_word: dict[str, list[int]] = defaultdict(list)
        for text in texts:
            self.add(text)

    def add(self, text: str) -> int:
        found = Said.of(text)
        self.said.append(found)
        for word in found.words:
            self._by_word[word[:4]].append(len(self.said) - 1)
        return len(self.said) - 1

    def _sharing(self, query: Said) -> set[int]:
        return {i for word in query.words for i in self._by_word.get(word[:4], ())}

    def covering(self, text: str) -> tuple[float, int]:
        """The known text that says the most of `text`: (share, position), (0.0, -1) when none."""
        query = Said.of(text)
        if len(query.words) < MIN_WORDS:
            return 0.0, -1
        scored = ((says(query, self.said[i]), i) for i in self._sharing(query))
        return max(scored, default=(0.0, -1))

    def most_alike(self, text: str) -> tuple[float, int]:
        """The known text most alike `text` both ways: (score, position)."""
        query = Said.of(text)
        scored = ((alike(query, self.said[i]), i) for i in self._sharing(query))
        return max(scored, default=(0.0, -1))
