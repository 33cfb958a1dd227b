"""Does a remembered text already say what a candidate says? Coverage of meaning, not token overlap.

A text's content words (Markdown, link targets and stop words left out; character pairs for scripts
without spaces) are compared with rapidfuzz: a word counts as said when the other text has the same
word or one within a small edit distance (dependency / dependencies, config / configs). `coverage(a, b)`
is the share of a's words that b says. A candidate is already recorded when an entry's whole text
covers it (`RECORDED`); two candidates are one learning when each covers most of the other. Coverage
is asymmetric on purpose: a short title whose words all appear in a long candidate says far less than
the candidate, so it never makes the candidate a duplicate.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from rapidfuzz import fuzz, process

RECORDED = 0.8  # an entry that says this much of a candidate already records it
ALIKE = 0.75  # two candidates that each say this much of the other are one learning
MIN_WORDS = 3  # fewer content words than this is too little to judge by
_WORD_MATCH = 85  # rapidfuzz ratio for two words to count as the same word
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_WORD = re.compile(r"[^\W_][\w.\-/]*[^\W_]|[^\W_]", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "for",
        "with",
        "when",
        "while",
        "is",
        "are",
        "be",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "use",
        "using",
        "used",
        "not",
        "never",
        "always",
        "do",
        "does",
        "don't",
        "than",
        "then",
        "from",
        "into",
        "at",
        "by",
        "as",
        "so",
        "if",
        "via",
        "any",
        "all",
        "each",
        "every",
        "can",
        "should",
        "must",
        "will",
        "would",
        "has",
        "have",
        "had",
        "was",
        "were",
        "been",
        "you",
        "your",
        "they",
        "their",
        "there",
        "what",
        "which",
        "who",
        "also",
        "only",
        "just",
        "more",
        "most",
        "less",
        "about",
        "after",
        "before",
        "over",
        "under",
        "such",
        "other",
        "some",
        "no",
        "yes",
        "see",
        "detail",
        "details",
        "run",
        "runs",
    ]
)


def words(text: str) -> list[str]:
    """The content words of `text`, lower-cased, in order, each once."""
    text = _LINK_TARGET.sub("]", text.lower()).replace("`", " ").replace("*", " ")
    found: dict[str, None] = {}
    for word in _WORD.findall(text):
        word = word.strip(".-/")
        if _CJK.search(word):
            chars = [c for c in word if not c.isspace()]
            found.update((a + b, None) for a, b in zip(chars, chars[1:], strict=False))
        elif len(word) > 2 and word not in STOP:
            found[word] = None
    return list(found)


def coverage(part: Sequence[str], whole: Sequence[str]) -> float:
    """The share of `part`'s words that `whole` says (the same word, or one a few edits away)."""
    if not part:
        return 0.0
    vocabulary = set(whole)
    said = 0
    for word in part:
        if (
            word in vocabulary
            or len(word) > 3
            and process.extractOne(word, whole, scorer=fuzz.ratio, score_cutoff=_WORD_MATCH)
        ):
            said += 1
    return said / len(part)


def alike(a: Sequence[str], b: Sequence[str]) -> float:
    """How much two texts say of each other: the lower of the two coverages."""
    return min(coverage(a, b), coverage(b, a))


class Index:
    """Known texts by word, so a query is compared only with texts that share a word with it."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.words: list[list[str]] = []
        self._by_word: dict[str, list[int]] = defaultdict(list)
        for text in texts:
            self.add(text)

    def add(self, text: str) -> int:
        found = words(text)
        self.words.append(found)
        for word in found:
            self._by_word[word[:4]].append(len(self.words) - 1)
        return len(self.words) - 1

    def _sharing(self, query: Sequence[str]) -> set[int]:
        return {i for word in query for i in self._by_word.get(word[:4], ())}

    def covering(self, text: str) -> tuple[float, int]:
        """The known text that says the most of `text`: (coverage, position), (0.0, -1) when none."""
        query = words(text)
        if len(query) < MIN_WORDS:
            return 0.0, -1
        scored = ((coverage(query, self.words[i]), i) for i in self._sharing(query))
        return max(scored, default=(0.0, -1))

    def most_alike(self, text: str) -> tuple[float, int]:
        """The known text most alike `text` both ways: (score, position)."""
        query = words(text)
        scored = ((alike(query, self.words[i]), i) for i in self._sharing(query))
        return max(scored, default=(0.0, -1))
