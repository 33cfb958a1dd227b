"""Near-duplicate search that scales: token sets, MinHash signatures and LSH banding, so only
entries that share a band are compared exactly — never all pairs of a large memory.

With 32 hash functions in 16 bands of 2 rows, a pair with Jaccard 0.5 becomes a candidate with
probability 1 − (1 − 0.5²)¹⁶ ≈ 0.99; pairs below 0.2 rarely do.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations

BANDS, ROWS = 16, 2


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


def _hashes(token: str) -> tuple[int, ...]:
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=64).digest()
    digest += hashlib.blake2b(token.encode("utf-8"), digest_size=64, person=b"minhash-2").digest()
    return struct.unpack(f"<{BANDS * ROWS}I", digest[: 4 * BANDS * ROWS])


def signature(items: Iterable[str], cache: dict[str, tuple[int, ...]]) -> tuple[int, ...] | None:
    """The MinHash signature of a token set (None for an empty set)."""
    rows = []
    for item in items:
        hashed = cache.get(item)
        if hashed is None:
            hashed = cache[item] = _hashes(item)
        rows.append(hashed)
    if not rows:
        return None
    return tuple(min(column) for column in zip(*rows, strict=True))


def candidate_pairs(sets: Sequence[frozenset[str]]) -> set[tuple[int, int]]:
    """Index pairs (i < j) that share at least one LSH band."""
    cache: dict[str, tuple[int, ...]] = {}
    buckets: dict[tuple[int, tuple[int, ...]], list[int]] = defaultdict(list)
    for index, items in enumerate(sets):
        sig = signature(items, cache)
        if sig is None:
            continue
        for band in range(BANDS):
            buckets[(band, sig[band * ROWS : (band + 1) * ROWS])].append(index)
    pairs: set[tuple[int, int]] = set()
    for members in buckets.values():
        if len(members) < 2 or len(members) > 200:
            continue  # a band shared by hundreds is boilerplate, not duplication
        pairs.update(combinations(members, 2))  # members are in index order: each pair is (i < j)
    return pairs


def similar_pairs(sets: Sequence[frozenset[str]], threshold: float) -> list[tuple[int, int, float]]:
    """Pairs with Jaccard ≥ threshold, best first (exact Jaccard on LSH candidates only)."""
    sizes = [len(s) for s in sets]
    masks = _bitmasks(sets)
    scored = []
    for i, j in candidate_pairs(sets):  # never an empty set: it has no signature
        left, right = sizes[i], sizes[j]
        if (left < threshold * right) if left < right else (right < threshold * left):
            continue  # Jaccard ≤ |smaller| / |larger|: below the threshold whatever they share
        shared = (masks[i] & masks[j]).bit_count()  # |a ∩ b| without building the set
        score = shared / (left + right - shared)  # `jaccard`, inlined: this loop runs per candidate pair
        if score >= threshold:
            scored.append((i, j, score))
    return sorted(scored, key=lambda p: (-p[2], p[0], p[1]))


def _bitmasks(sets: Sequence[frozenset[str]]) -> list[int]:
    """Each set as an integer with one bit per distinct token: an intersection is one AND."""
    bits: dict[str, int] = {}
    masks = []
    for items in sets:
        mask = 0
        for item in items:
            bit = bits.get(item)
            if bit is None:
                bit = bits[item] = 1 << len(bits)
            mask |= bit
        masks.append(mask)
    return masks
