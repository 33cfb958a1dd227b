"""A lazily compiled pattern behaves as the compiled one, and compiles only when first used; a prefiltered
one answers as the pattern does."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.lazyre import lazy, required_literals


def test_compiled_on_first_use_and_the_same_afterwards() -> None:
    pattern = lazy(r"(?P<word>b\w+)", re.IGNORECASE)
    assert "_compiled" not in vars(pattern)
    assert pattern.pattern == r"(?P<word>b\w+)" and pattern.flags == re.IGNORECASE
    assert "_compiled" not in vars(pattern)  # reading the source compiles nothing
    match = pattern.search("a Big bag")
    assert match is not None and match.group("word") == "Big"
    assert pattern.findall("a Big bag") == ["Big", "bag"]
    assert pattern.sub("x", "a Big bag") == "a x x"
    assert pattern.groupindex == {"word": 1}  # any attribute of the compiled pattern
    assert vars(pattern)["_compiled"] is re.compile(r"(?P<word>b\w+)", re.IGNORECASE)


# --- the literal prefilter ------------------------------------------------------------------------------


def test_required_literals_are_derived_from_the_pattern() -> None:
    assert required_literals(r"\bdon'?t\b|x+y") == ("x", "dont", "don't")
    assert required_literals(r"ab?c") == ("ac", "abc")
    assert required_literals(r"(?:^|[.!;])\s*never\b") == ("never",)
    assert required_literals(r"a\bb(?=c)d") == ("abd",)  # zero-width parts only narrow the matches
    assert required_literals(r"always|every time|whenever|ever") == ("ever", "always")  # "ever" is in both
    assert required_literals(r"\w+(?:alım|elim)\b") == ("alım", "elim")
    for open_ended in (r"\w+", r"a|\d", r"(a|)\1", r".*", r"x?y*"):
        assert required_literals(open_ended) is None, open_ended
    assert required_literals(r"[^x]yz?|q") == ("q", "y") and required_literals(r"(a)\1") == ("a",)
    # Ignoring case, the literals are folded as the engine compares them ("ı" is taken for "i").
    assert (
        required_literals("ABC|hayır", re.IGNORECASE)
        == ("abc", "hayir")
        == required_literals("(?i)abc|hayır")
    )
    assert required_literals(r"x(?i:abc)") == ("x",)  # a part ignoring case in a pattern that does not


_TRICKY = (
    r"(?:^|[.!;:,]\s*|\b(?:please|you)\s+)never\b",
    r"\b(?:don'?t|do not)\b[^.\n]*,\s*ever\b|\bnever ever\b",
    r"^\s*[\w`./-]+(?:\s+[\w`./-]+)?,\s*not\s+[\w`./-]+",
    r"a{2,}b|(?=foo)bar|x(?!y)z",
    r"(?:ab|cd)?ef|[ab]c|a(?:b|)c",
    r"\b\w+(?:alım|elim)\b|nev(?:er)+",
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["never", "ever", "don't", "do not", ", ", "not ", "ab", "cd", "ef", "foo", "bar", "x",
                         "y", "z", "alım", "elim", "please ", "you", ".", "\n", " ", "a", "b", "c", "é"]),
        max_size=12,
    ).map("".join)
)  # fmt: skip
def test_a_prefiltered_pattern_answers_as_the_pattern(text: str) -> None:
    for source in _TRICKY:
        plain, filtered = re.compile(source), lazy(source, prefilter=True)
        for method in ("search", "match", "fullmatch"):
            got, want = getattr(filtered, method)(text), getattr(plain, method)(text)
            assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups())), source


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["hay", "ır", "ir", "IR", "İ", "ı", "i", "I", "ſ", "s", "S", "\u212a", "k", "Σ", "σ", "ς",
                         "stop", "STOP", "Wrıte", "write", " ", "ο"]),
        max_size=10,
    ).map("".join)
)  # fmt: skip
def test_a_prefiltered_pattern_ignoring_case_answers_as_the_pattern(text: str) -> None:
    for source in (r"\bhayır\b|stop", r"wr[iı]te|kind|ſs", r"(?:ος|σο)i", r"(?-i:Stop)|ir"):
        plain, filtered = re.compile(source, re.IGNORECASE), lazy(source, re.IGNORECASE, prefilter=True)
        for method in ("search", "match", "fullmatch"):
            got, want = getattr(filtered, method)(text), getattr(plain, method)(text)
            assert (got and got.span()) == (want and want.span()), source


def test_a_text_without_the_literals_is_not_searched() -> None:
    pattern = lazy(r"\b(?:always|never)\b", prefilter=True)
    assert pattern.search("we never do that") is not None
    assert pattern.search("nothing to see") is None
    assert pattern.search("alwaysnever", 0) is None  # with a position the pattern runs as it is
    assert vars(pattern)["search"] is not vars(pattern)["_compiled"].search  # the filter stands in front
    unfiltered = lazy(r"\b(?:always|never)\b")
    assert unfiltered.search("nothing") is None and vars(unfiltered)["search"] == unfiltered._compiled.search
