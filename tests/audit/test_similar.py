"""The near-duplicate join finds exactly the pairs an all-pairs comparison finds, in the same order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.audit.similar import jaccard, similar_pairs, tokens


def all_pairs(sets: list[frozenset[str]], threshold: float) -> list[tuple[int, int, float]]:
    """The reference: every pair compared, Jaccard computed as `similar_pairs` computes it."""
    found = []
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            score = jaccard(sets[i], sets[j])
            if sets[i] and sets[j] and score >= threshold:
                found.append((i, j, score))
    return sorted(found, key=lambda p: (-p[2], p[0], p[1]))


# A small vocabulary, so that random sets overlap often and many pairs sit near the threshold.
SETS = st.lists(st.frozensets(st.sampled_from([f"w{n}" for n in range(14)]), max_size=12), max_size=30)
THRESHOLDS = st.sampled_from([0.3, 0.35, 0.4, 0.5, 0.6, 2 / 3, 0.75, 0.8, 1.0])


@settings(max_examples=300, deadline=None)
@given(SETS, THRESHOLDS)
def test_the_join_finds_every_pair_all_pairs_finds(sets: list[frozenset[str]], threshold: float) -> None:
    assert similar_pairs(sets, threshold) == all_pairs(sets, threshold)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.frozensets(st.text("abcdef", min_size=1, max_size=3), max_size=25), max_size=20), THRESHOLDS
)
def test_the_join_matches_all_pairs_on_larger_vocabularies(
    sets: list[frozenset[str]], threshold: float
) -> None:
    assert similar_pairs(sets, threshold) == all_pairs(sets, threshold)


def test_exact_thresholds_are_kept_despite_float_rounding() -> None:
    # 2 × 0.4 / 1.4 × 7 = 4.000000000000001: an index prefix one token short would miss this pair of
    # 7 words each sharing 4 (Jaccard exactly 0.4), whose unshared words are the rarest.
    shared = {"s1", "s2", "s3", "s4"}
    sets = [frozenset(shared | {"a1", "a2", "a3"}), frozenset(shared | {"b1", "b2", "b3"})]
    assert similar_pairs(sets, 0.4) == [(0, 1, 0.4)]
    assert similar_pairs(sets, 0.41) == []


def test_pairs_below_the_threshold_are_not_reported() -> None:
    texts = [
        f"Run the {name} job nightly and check its log for errors" for name in ("alpha", "beta", "gamma")
    ]
    texts += ["Run the alpha job nightly and check its log for errors twice"]
    sets = [tokens(t) for t in texts]
    found = similar_pairs(sets, 0.8)
    assert [(i, j) for i, j, _ in found] == [(0, 3)]
    assert found[0][2] == pytest.approx(jaccard(sets[0], sets[3]))


def test_empty_sets_pair_with_nothing_and_a_zero_threshold_is_refused() -> None:
    assert similar_pairs([frozenset(), frozenset(), frozenset({"a"})], 0.5) == []
    with pytest.raises(ValueError):
        similar_pairs([frozenset({"a"})], 0.0)


@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.frozensets(st.sampled_from([f"w{n}" for n in range(9)]), max_size=9), min_size=300, max_size=400
    ),
    THRESHOLDS,
)
def test_look_alike_sets_counted_at_once_give_the_same_pairs(
    sets: list[frozenset[str]], threshold: float
) -> None:
    # hundreds of sets over nine words: most share a word with hundreds of others, so most are
    # compared with all the sets before them at once (the bit-parallel count), not one by one
    assert similar_pairs(sets, threshold) == all_pairs(sets, threshold)


def test_a_template_memory_takes_the_counting_path_and_misses_no_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from consolidate.audit import similar

    counted = []
    original = similar._Dense.pairs

    def pairs(self: similar._Dense, y: int, *args: object, **kwargs: object) -> None:
        counted.append(y)
        original(self, y, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(similar._Dense, "pairs", pairs)
    verbs, nouns = ["sync", "flush", "rotate", "prune"], ["ledger", "cache", "queue", "token", "quota"]
    texts = [
        f"When you {verbs[n % 4]} the {nouns[n % 5]} of section {n % 7}: keep the batch under {n % 3} rows"
        for n in range(600)
    ]
    sets = [tokens(t) for t in texts]
    assert similar_pairs(sets, 0.4) == all_pairs(sets, 0.4)
    assert len(counted) > 300


@given(SETS, st.lists(st.booleans(), min_size=30, max_size=30))
def test_a_join_of_a_subset_or_at_a_higher_threshold_is_the_part_of_the_join_it_keeps(
    sets: list[frozenset[str]], chosen: list[bool]
) -> None:
    """What the auditor relies on (value conflicts join only the entries with values, merges only at
    0.5): the same pairs, in the same order, as the join of every set at 0.4 filtered."""
    found = similar_pairs(sets, 0.4)
    assert similar_pairs(sets, 0.5) == [pair for pair in found if pair[2] >= 0.5]
    kept = [i for i in range(len(sets)) if chosen[i]]
    within = [(kept[x], kept[y], score) for x, y, score in similar_pairs([sets[i] for i in kept], 0.4)]
    assert within == [(i, j, score) for i, j, score in found if chosen[i] and chosen[j]]
