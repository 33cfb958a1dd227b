"""How alike two pieces of memory text are: for deduplicating candidates against what is remembered.

Words (and character pairs for scripts without spaces) after dropping Markdown syntax, link targets and
stop words; alike = a high Jaccard overlap, or one text almost wholly contained in the other.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
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
        "this",
        "that",
        "use",
        "using",
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
        "detail",
        "details",
        "see",
        "run",
        "runs",
    ]
)


def tokens(text: str) -> frozenset[str]:
    text = _LINK_TARGET.sub("]", text.lower())
    words: set[str] = set()
    for word in _WORD.findall(text):
        if _CJK.search(word):
            chars = [c for c in word if not c.isspace()]
            words.update(a + b for a, b in zip(chars, chars[1:], strict=False))
        elif len(word) > 2 and word not in STOP:
            words.add(stem(word))
    return frozenset(words)


def stem(word: str) -> str:
    """A light English stem, enough to match dependency/dependencies and add/added/adding."""
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: len(word) - len(suffix)] + replacement
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """max(Jaccard, containment of the smaller set), in [0, 1]."""
    if not a or not b:
        return 0.0
    common = len(a & b)
    return max(common / len(a | b), common / min(len(a), len(b)) * (0.9 if min(len(a), len(b)) < 4 else 1.0))


class TextIndex:
    """Known texts indexed by token, so a query compares only with texts sharing a word."""

    def __init__(self, texts: Iterable[str]) -> None:
        self.sets: list[frozenset[str]] = []
        self.by_token: dict[str, list[int]] = defaultdict(list)
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        token_set = tokens(text)
        self.sets.append(token_set)
        for token in token_set:
            self.by_token[token].append(len(self.sets) - 1)

    def best(self, text: str) -> tuple[float, int]:
        """The highest overlap with any known text and its position (-1 when none)."""
        query = tokens(text)
        candidates = {i for token in query for i in self.by_token.get(token, ())}
        scored = ((overlap(query, self.sets[i]), i) for i in candidates)
        return max(scored, default=(0.0, -1))
