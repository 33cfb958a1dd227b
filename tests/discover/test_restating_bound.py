"""The meaning match reads in full only the units that could state a learning: the bound it prunes
by (`Memory._most_said`) never changes which unit it finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.discover import samerule
from consolidate.discover.samerule import PAIR_PART, SAME, SAME_ANCHORED, SAME_GROUP, Memory, read
from tests.discover.test_samerule import OTHER_RULE, SAME_RULE

THRESHOLDS = (0.0, PAIR_PART, SAME_ANCHORED, SAME, SAME_GROUP)


class _Unpruned(Memory):
    """The memory as it compared before the bound: every unit that shares two words read in full."""

    def _most_said(self, said: samerule.Text, unit: samerule.Unit, floor: float) -> float:
        return float("inf")


def _unpruned(memory: Memory) -> Memory:
    copy = _Unpruned.__new__(_Unpruned)
    copy.__dict__.update(memory.__dict__)
    copy._weighed = {}
    return copy


def _assert_bounds(memory: Memory, principle: str) -> None:
    said = read(principle)
    for unit in memory.units:
        for floor in THRESHOLDS:
            if memory._most_said(said, unit, floor) >= floor:
                continue
            for needed in THRESHOLDS:
                for part in (False, True):
                    assert memory.says(said, unit, max(needed, floor), part) < floor, (unit.text, floor)


def _assert_extends_bound(memory: Memory, principle: str) -> None:
    own = samerule.Unit(principle, "", ())
    for unit in memory.units:
        outline, known = samerule.outline_of(unit.text), read(unit.text)
        assert (outline.stems, outline.anchor_stems, outline.practices) == (
            known.stems,
            known.anchor_stems,
            known.practices,
        )
        if memory._most_said(outline, own, SAME) < SAME:
            assert memory.says(known, own, SAME) < SAME, unit.text


def _same_found(memory: Memory, principle: str) -> None:
    unpruned = _unpruned(memory)
    assert memory.restating(principle) == unpruned.restating(principle), principle
    assert memory.extended(principle) == unpruned.extended(principle), principle


def test_the_labelled_pairs_are_judged_as_without_the_bound() -> None:
    for known, principle in SAME_RULE + OTHER_RULE:
        memory = Memory.of_texts([known])
        _assert_bounds(memory, principle)
        _assert_extends_bound(memory, principle)
        _same_found(memory, principle)


WORDS = [
    "deploy", "depoly", "the", "build", "tests", "pass", "after", "before", "never", "always", "run",
    "`make deploy`", "`make test`", "`pytest`", "changelog", "changleog", "release", "tag", "commit",
    "commits", "branch", "create", "feature", "lock", "advisory", "take", "staging", "right away",
    "because", "not", "don't", "instead of", "worktree", "scheduler", "schedulr", "gateway", "files",
]  # fmt: skip
_sentence = st.lists(st.sampled_from(WORDS), min_size=2, max_size=10).map(" ".join)
_item = st.tuples(st.sampled_from(["- ", "1. ", "", "**"]), _sentence).map("".join)
_heading = st.sampled_from(["", "Deploys", "Commands Claude Cannot Run", "Release steps", "Never do"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(_heading, st.lists(_item, min_size=1, max_size=3)), min_size=1, max_size=5),
    _sentence,
)
def test_random_memories_are_judged_as_without_the_bound(
    sections: list[tuple[str, list[str]]], principle: str
) -> None:
    statements = [(heading, item) for heading, items in sections for item in items]
    groups = [range(i, i + len(items)) for i, (_, items) in _starts(sections)]
    memory = Memory(statements, groups)
    _assert_bounds(memory, principle)
    _assert_extends_bound(memory, principle)
    _same_found(memory, principle)


def _starts(sections: list[tuple[str, list[str]]]) -> list[tuple[int, tuple[str, list[str]]]]:
    found, at = [], 0
    for section in sections:
        found.append((at, section))
        at += len(section[1])
    return found


def test_a_large_memory_reads_in_full_only_the_units_that_could_state_the_rule() -> None:
    statements = [
        ("Gateway", f"- **When you {verb} the {noun} of gateway #{n}:** {advice}.")
        for n, (verb, noun, advice) in enumerate(
            (v, o, a)
            for v in ("sync", "flush", "rotate", "prune")
            for o in ("ledger", "tenant", "cache", "queue", "token")
            for a in ("take the advisory lock before", "retry at most twice", "use the read replica")
        )
    ]
    memory = Memory(statements)
    principle = "When you flush the tenant of gateway #4: take the advisory lock before."
    samerule.read.cache_clear()
    found = memory.restating(principle)
    pruned_reads = samerule.read.cache_info().currsize
    samerule.read.cache_clear()
    assert found == _unpruned(memory).restating(principle)
    assert found is not None and "flush the tenant" in found.unit.text
    assert pruned_reads < samerule.read.cache_info().currsize - 10  # the units with only the advice in common
