"""Near-duplicate search that scales: token sets and an exact similarity join by prefix filtering,
so only entries that share a rare word are compared — never all pairs of a large memory, and no pair
above the threshold is missed (a MinHash banding would miss some: 6% of the pairs at Jaccard 0.4).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal (for word lists kept readable in source)."""
    return frozenset(text.split())


_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?|[\u4e00-\u9fff]")
_LINK = re.compile(r"\]\([^)\n]*\)|https?://\S+")
STOPWORDS = word_set(
    "a an the and or but if then else when while of to in on at by for with from as is are was were be been "
    "being it its this that these those there here do does did so than too very can could should "
    "would will may might must shall has have had i you we they he she them our your their my me us via "
    "into onto out up down over under about after before also only just any all each every some such more "
    "most other same own per etc e g ie eg detail details see note notes "
    "и в во не на что как с со по к ко из за от до для это то а но или же ли бы у о об при "
    "的 了 是 在 和 也 就 都 而 及 与 或 一 个 "
    "ve ile bir bu şu için da de ki ya mi mı ama"
)


def tokens(text: str) -> frozenset[str]:
    """Content words of `text`, lower case, without stopwords, links and markup."""
    plain = _LINK.sub(" ", text).casefold()
    return frozenset(
        stem(w) for w in _WORD.findall(plain) if w not in STOPWORDS and (len(w) > 1 or not w.isascii())
    )


def stemmed(text: str) -> frozenset[str]:
    """`word_set` of a literal, stemmed like `tokens` stems (for word lists compared with tokens)."""
    return frozenset(stem(w) for w in text.split())


def stem(word: str) -> str:
    """A light English stemmer (loads/loaded/loading → load), enough to match restatements."""
    if not word.isascii() or len(word) <= 4:
        return word
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)  # |a ∪ b| = |a| + |b| − |a ∩ b|: one set operation, not two
    return shared / (len(a) + len(b) - shared)


def containment(a: frozenset[str], b: frozenset[str]) -> float:
    """How much of `a` is inside `b`."""
    return len(a & b) / len(a) if a else 0.0


def similar_pairs(sets: Sequence[frozenset[str]], threshold: float) -> list[tuple[int, int, float]]:
    """Every pair (i < j) with Jaccard ≥ threshold (0 < threshold ≤ 1), best first: an exact similarity join.

    Prefix filtering ("All-Pairs", Bayardo et al. 2007): with the tokens of each set in one global order,
    rarest first, two sets with Jaccard ≥ t share a token among the first |y| − ⌈t·|y|⌉ + 1 of the larger
    one, and among the first |x| − ⌈2t/(1+t)·|x|⌉ + 1 of the smaller one. Sets are visited smallest first,
    only those prefixes are indexed, and each pair found there is checked exactly; pairs sharing only
    common words are never looked at, so a memory of unrelated entries costs about linear time.

    A memory of look-alike entries (one template, a few words each, a small vocabulary) gives a set
    thousands of candidates that way, each checked in Python. Such a set is checked against all the
    sets before it at once instead (`_dense`): its overlap with each of them counted bit-parallel, one
    big-integer addition per word of the set, and only those whose count can reach the threshold checked
    exactly — the same pairs, found without a step per candidate.
    """
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], not {threshold}")
    frequency = Counter(token for items in sets for token in items)
    rank = {token: r for r, token in enumerate(sorted(frequency, key=lambda t: (frequency[t], t)))}
    sizes = [len(items) for items in sets]
    ranked = [sorted(rank[token] for token in items) for items in sets]
    masks = [sum(1 << r for r in ranks) for ranks in ranked]  # an intersection is one AND
    index: list[list[int]] = [[] for _ in rank]
    indexed = 2 * threshold / (1 + threshold)
    order = sorted((i for i, size in enumerate(sizes) if size), key=lambda i: (sizes[i], i))
    dense = _Dense(order, sizes, len(rank))
    scored: list[tuple[float, int, int]] = []  # (score, one set, the other)
    for position, y in enumerate(order):
        size, ranks, mask = sizes[y], ranked[y], masks[y]
        probe = size - _ceil(threshold * size) + 1
        smallest = threshold * size - _EPSILON  # Jaccard ≤ |smaller| / |larger|
        if sum(len(index[r]) for r in ranks[:probe]) > dense.worth(position):
            dense.pairs(y, position, ranks, masks, threshold, smallest, scored)
        else:
            for x in set().union(*[index[r] for r in ranks[:probe]]):
                other = sizes[x]
                if other < smallest:
                    continue
                shared = (masks[x] & mask).bit_count()
                score = shared / (other + size - shared)  # `jaccard`, inlined: this loop runs per candidate
                if score >= threshold:
                    scored.append((score, x, y))
        for r in ranks[: size - _ceil(indexed * size) + 1]:
            index[r].append(y)
        dense.add(position, ranks)
    # best first, then by the pair: the few distinct scores sorted, and the pairs of each as numbers
    count = len(sets)
    by_score: dict[float, list[int]] = {}
    for score, x, y in scored:
        by_score.setdefault(score, []).append(x * count + y if x < y else y * count + x)
    pairs = []
    for score in sorted(by_score, reverse=True):
        codes = by_score[score]
        codes.sort()
        pairs += [(code // count, code % count, score) for code in codes]
    return pairs


class _Dense:
    """Overlap counts of one set with every set visited before it, bit-parallel: bit p of a token's
    mask says the set visited p-th holds it; the masks of a set's tokens are added up in bit planes
    (plane i holds bit i of each count), and a comparison of the planes with a number gives, in one
    mask, the sets whose count reaches it."""

    def __init__(self, order: list[int], sizes: list[int], tokens: int) -> None:
        self.order = order
        self.sizes = sizes
        self.postings: list[list[int]] = [[] for _ in range(tokens)]  # visit positions holding the token
        self.masks = [0] * tokens  # built from the postings only when a dense set needs them
        self.built = [0] * tokens  # how many postings each mask holds
        self.span: dict[int, tuple[int, int]] = {}  # size -> the visit positions of the sets of that size
        for position, i in enumerate(order):
            start, _ = self.span.get(sizes[i], (position, position))
            self.span[sizes[i]] = (start, position + 1)

    def worth(self, position: int) -> int:
        """Candidates past which counting all `position` sets before at once costs less."""
        return 64 + position // 32

    def add(self, position: int, ranks: list[int]) -> None:
        for r in ranks:
            self.postings[r].append(position)

    def _mask(self, r: int) -> int:
        postings, done = self.postings[r], self.built[r]
        if done < len(postings):
            mask = self.masks[r]
            for position in postings[done:]:
                mask |= 1 << position
            self.masks[r], self.built[r] = mask, len(postings)
        return self.masks[r]

    def pairs(
        self,
        y: int,
        position: int,
        ranks: list[int],
        masks: list[int],
        threshold: float,
        smallest: float,
        scored: list[tuple[float, int, int]],
    ) -> None:
        planes: list[int] = []
        for r in ranks:
            carry = self._mask(r)
            for i, plane in enumerate(planes):
                planes[i], carry = plane ^ carry, plane & carry
                if not carry:
                    break
            if carry:
                planes.append(carry)
        size, mask, order = self.sizes[y], masks[y], self.order
        found = 0
        for other in range(max(math.ceil(smallest), 1), size + 1):  # none visited before is larger
            start, end = self.span.get(other, (position, position))
            if start < position:
                need = _overlap_needed(other, size, threshold)
                found |= _at_least(planes, need) & ((1 << min(end, position)) - (1 << start))
        bits = format(found, "b")[::-1]
        at = bits.find("1")
        while at >= 0:  # each set found is a pair: only its score is left to compute
            x = order[at]
            shared = (masks[x] & mask).bit_count()
            scored.append((shared / (self.sizes[x] + size - shared), x, y))
            at = bits.find("1", at + 1)


def _overlap_needed(other: int, size: int, threshold: float) -> int:
    """The least overlap of sets of these sizes whose Jaccard, computed as the join computes it, is at
    least `threshold` (a Jaccard grows with the overlap): from the exact bound t·(|x| + |y|) / (1 + t),
    one less, so that rounding cannot make it miss the first one."""
    shared = max(math.ceil(threshold * (other + size) / (1 + threshold)) - 1, 0)
    while shared <= other and shared / (other + size - shared) < threshold:
        shared += 1
    return shared


def _at_least(planes: list[int], number: int) -> int:
    """The mask of the counts (in bit planes, lowest first) that are at least `number`."""
    if number <= 0:
        return -1
    if number >> len(planes):
        return 0
    above, equal = 0, -1
    for i in range(len(planes) - 1, -1, -1):
        if number >> i & 1:
            equal &= planes[i]
        else:
            above |= equal & planes[i]
            equal &= ~planes[i]
    return above | equal


_EPSILON = 1e-9  # a product like 0.3 × 10 = 3.0000000000000004 must not lengthen the required overlap


def _ceil(value: float) -> int:
    """⌈value⌉, rounding a float a hair above an integer down to it (a longer prefix is always safe)."""
    return math.ceil(value - _EPSILON)
