"""A lazily compiled pattern behaves as the compiled one, and compiles only when first used; a prefiltered
one answers as the pattern does."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate import lazyre
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
    assert vars(pattern)["_compiled"] == re.compile(r"(?P<word>b\w+)", re.IGNORECASE)


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


# --- patterns kept between processes ----------------------------------------------------------------------


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Patterns kept in a file of this test's own (none saved at the interpreter's exit)."""
    path = tmp_path / "patterns.marshal"
    monkeypatch.setattr(lazyre._Kept, "path", str(path))
    monkeypatch.setattr(lazyre._Kept, "entries", {})
    monkeypatch.setattr(lazyre._Kept, "new", 0)
    monkeypatch.setattr(lazyre._Kept, "used", set())
    return path


_KEPT_SOURCES = ((r"(?P<word>b\w+)|(\d{2,})", re.IGNORECASE, False), (r"\b(?:always|never)\b", 0, True),
                 ("(?i)hayır|ſtop", 0, True), (r"^\s*(?P<x>[-*])\s+(?P=x)?", re.MULTILINE, False))  # fmt: skip
_TEXTS = ("a Big bag 42", "we never do that", "nothing", "HAYIR", "stop it", "  - -", "- x\n  * *")


def _answers(pattern: re.Pattern[str]) -> list[object]:
    pattern.search("")  # a lazy one compiles: the flags are then its compiled pattern's
    compiled = getattr(pattern, "__dict__", {}).get("_compiled", pattern)
    found: list[object] = [compiled.flags, compiled.groups, compiled.groupindex]
    for text in _TEXTS:
        match = pattern.search(text)
        found += [match and (match.span(), match.groups()), pattern.sub("_", text), pattern.findall(text)]
    return found


def test_a_kept_pattern_is_the_compiled_one_and_is_read_back(kept: Path) -> None:
    for source, flags, prefilter in _KEPT_SOURCES:
        first = lazy(source, flags, prefilter=prefilter)
        assert _answers(first) == _answers(re.compile(source, flags))
        assert vars(first)["_compiled"] == re.compile(source, flags)  # the same engine code
    assert lazyre._Kept.new == len(_KEPT_SOURCES)
    lazyre._save_kept()
    assert kept.is_file() and lazyre._Kept.new == 0
    lazyre._Kept.entries = lazyre._read_kept(str(kept))  # a later process
    assert len(lazyre._Kept.entries) == len(_KEPT_SOURCES)
    for source, flags, prefilter in _KEPT_SOURCES:
        again = lazy(source, flags, prefilter=prefilter)
        assert _answers(again) == _answers(re.compile(source, flags))
        assert vars(again)["_compiled"] == re.compile(source, flags)
    assert lazyre._Kept.new == 0  # built from what was kept: nothing compiled anew
    filtered = lazy(r"\b(?:always|never)\b", prefilter=True)
    assert filtered.search("nothing to see") is None and filtered.search("we never") is not None
    assert vars(filtered)["search"] is not vars(filtered)["_compiled"].search  # the prefilter stands


def test_an_entry_the_engine_refuses_or_an_unreadable_file_compiles_from_the_source(kept: Path) -> None:
    source = r"(?P<word>b\w+)"
    lazy(source).search("x")
    key = (source, 0, False)
    flags, code, groups, groupindex, names, literals = lazyre._Kept.entries[key]
    lazyre._Kept.entries[key] = (flags, code[:-4], groups, groupindex, names, literals)  # cut short
    broken = lazy(source)
    assert _answers(broken) == _answers(re.compile(source))
    assert lazyre._Kept.entries[key][1] == code  # compiled again, and kept right
    lazyre._Kept.entries[key] = ("not", "an", "entry")  # type: ignore[assignment]
    assert _answers(lazy(source)) == _answers(re.compile(source))
    kept.write_bytes(b"\x00garbage")
    assert lazyre._read_kept(str(kept)) == {}
    assert lazyre._read_kept(str(kept.parent / "absent")) == {}


def test_kept_patterns_are_saved_only_when_new_and_never_break_the_exit(kept: Path) -> None:
    lazyre._save_kept()
    assert not kept.exists()  # nothing compiled: nothing written
    lazy(r"x+y").search("xy")
    lazyre._Kept.path = str(kept.parent / "missing-dir-is-made" / "patterns.marshal")
    lazyre._save_kept()
    assert Path(lazyre._Kept.path).is_file()
    lazy(r"z+").search("z")
    lazyre._Kept.path = str(kept.parent / "a-file")  # its directory cannot be made: no error, no temp file
    (kept.parent / "a-file").mkdir()
    lazyre._save_kept()
    assert not list(kept.parent.glob("*.tmp")) and not list((kept.parent / "a-file").iterdir())


def test_keep_compiled_reads_the_file_beside_the_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazyre._Kept, "path", None)
    monkeypatch.setattr(lazyre._Kept, "entries", {})
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # no save registered at exit
    lazyre.keep_compiled()
    path = Path(str(lazyre._Kept.path))
    assert path.parent == Path(lazyre.__file__).parent / "__pycache__"
    assert sys.implementation.cache_tag in path.name


def test_a_file_grown_past_its_limit_keeps_only_the_patterns_in_use(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lazyre, "KEPT_LIMIT", 3)
    for index in range(4):  # patterns an earlier version of the code used
        lazy(f"old{index}").search("x")
    lazyre._Kept.used.clear()  # a later process, which uses none of them
    lazy(r"a+b").search("ab")
    lazy(r"c+d", prefilter=True).search("cd")
    lazyre._save_kept()
    assert set(lazyre._read_kept(str(kept))) == {("a+b", 0, False), ("c+d", 0, True)}
