"""A lazily compiled pattern behaves as the compiled one, and compiles only when first used."""

from __future__ import annotations

import re

from consolidate.lazyre import lazy


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
