"""`lexicon.finder`: a rule made of parts, searched part by part with each part's literal prefilter, says
yes exactly where its lower-case twin finds a match."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.discover import lexicon

RULES = [lexicon.CORRECTION_CUE, lexicon.DIRECTIVE]
# Words and marks of the rules (and their look-alikes), so that generated texts match them often.
_WORDS = (
    "that's", "that is", "it's", "you're", "wrong", "incorrect", "not", "right", "like", "this", "i", "already",
    "just", "said", "told", "you", "asked", "meant", "about", "please", "don't", "dont", "do", "never", "stop",
    "always", "quit", "ever", "use", "run", "call", "prefer", "instead", "of", "rather", "than", "should",
    "must", "make", "sure", "need", "to", "has", "have", "avoid", "stick", "with", "switch", "only", "leave",
    "file", "branch", "commit", "npm", "pnpm", ",", ".", "!", ";", "—", "-", "\n", "не", "надо", "вместо",
    "используй", "不要", "别用", "而不是", "用", "yanlış", "yerine", "kullanma", "asla", "yapmalı", "gelmeli",
)  # fmt: skip
texts = st.lists(st.one_of(st.sampled_from(_WORDS), st.text(max_size=5)), max_size=30).map(" ".join)


@settings(max_examples=300)
@given(texts)
def test_the_finder_says_yes_where_the_rule_matches(text: str) -> None:
    for rule in RULES:
        whole = lexicon.lowered(rule)
        assert lexicon.finder(rule)(text) == (whole.search(text) is not None)


def test_a_rule_split_into_its_parts_is_the_same_rule() -> None:
    """The parts a finder searches are the rule's own, each whole: joined again they are the rule; none
    refers back to a group (a group's number changes once a part stands alone) and none spells an
    upper-case letter (the twin is searched in lower-cased text)."""
    for rule in RULES:
        parts = lexicon._PARTS[rule.pattern]
        assert "|".join(f"(?:{p})" for p in parts) == rule.pattern
        for part in parts:
            assert not re.search(r"\\[1-9]|\(\?P=|\(\?\(", part), part
            spelt = re.sub(r"\\.", "", part)  # escapes (\b, \S, \W) aside
            assert spelt == spelt.lower(), part


def test_the_finder_on_real_turns() -> None:
    assert lexicon.finder(lexicon.CORRECTION_CUE)("no, that's wrong — use pnpm")
    assert lexicon.finder(lexicon.DIRECTIVE)("yapmalısın bunu")  # a Turkish suffix, no English word
    assert not lexicon.finder(lexicon.CORRECTION_CUE)("thanks, looks good")
    assert not lexicon.finder(lexicon.DIRECTIVE)("thanks, looks good")
