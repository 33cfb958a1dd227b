from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.audit.dates import find_relative_dates, fix_relative_dates
from consolidate.audit.versions import compatible, conflicting, parse_spec, restate

ANCHOR = date(2026, 5, 12)  # a Tuesday


@pytest.mark.parametrize(
    ("stated", "spec", "bare", "ok"),
    [
        ("2.x", ">=2.5,<3", "exact", True),
        ("1.x", ">=2.5,<3", "exact", False),
        ("3", "<3", "exact", False),
        ("20", ">=20", "minimum", True),
        ("18", ">=20", "minimum", False),
        ("3.11", ">=3.11", "minimum", True),
        ("3.10", ">=3.11", "minimum", False),
        ("18", "^18.2.0", "exact", True),
        ("17", "^18.2.0", "exact", False),
        ("4", "~4.1", "exact", True),
        ("1.0", "1.0", "caret", True),
        ("2", "1.0", "caret", False),
    ],
)
def test_compatible(stated: str, spec: str, bare: str, ok: bool) -> None:
    assert compatible(stated, parse_spec(spec, bare=bare)) is ok


def test_restate_keeps_the_style() -> None:
    assert restate("1.x", parse_spec(">=2.5,<3")) == "2.x"
    assert restate("v16", parse_spec(">=20", bare="minimum")) == "v20"
    assert restate("3.10", parse_spec(">=3.11", bare="minimum")) == "3.11"


def test_conflicting() -> None:
    assert conflicting("2.x", "1.9") and not conflicting("2", "2.4")


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("fixed it yesterday", "2026-05-11"),
        ("raised last week", "2026-05-04"),
        ("rotated 3 days ago", "2026-05-09"),
        ("вчера починили", "2026-05-11"),
        ("на прошлой неделе подняли", "2026-05-04"),
        ("昨天修复了", "2026-05-11"),
        ("上周提高到", "2026-05-04"),
        ("dün düzeltildi", "2026-05-11"),
        ("geçen hafta çıkarıldı", "2026-05-04"),
        ("deployed today", "2026-05-12"),
        ("last month we moved", "2026-04-01"),
    ],
)
def test_relative_dates_in_four_languages(text: str, when: str) -> None:
    found = find_relative_dates(text, ANCHOR)
    assert [r.when.isoformat() for r in found] == [when]


def test_fix_wording_and_code_is_left_alone() -> None:
    assert fix_relative_dates("Fixed the test yesterday.", ANCHOR)[0] == "Fixed the test on 2026-05-11."
    assert fix_relative_dates("As of yesterday it works.", ANCHOR)[0] == "As of 2026-05-11 it works."
    assert (
        fix_relative_dates("На прошлой неделе подняли лимит.", ANCHOR)[0]
        == "На неделе с 2026-05-04 подняли лимит."
    )
    assert find_relative_dates("run `git log --since yesterday`", ANCHOR) == []
    assert find_relative_dates("todays yesterdays", ANCHOR) == []


_DATE_WORDS = st.sampled_from(
    [
        "yesterday", "Today", "3 days ago", "a couple of weeks ago", "last Friday", "next week", "вчера",
        "5 дней назад", "昨天", "3天前", "geçen hafta", "`yesterday`", "[x](yesterday.md)", "the", "deploy",
        "on", "ago", "week", "last", "LAST WEEK", "Tonight", "bu hafta", "This Morning", "next  week", "→", "—", "laſt week", "LAST \u212aelvin", "Ünite", "2026-12-01", " ", "\n",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_DATE_WORDS, max_size=12).map(" ".join))
def test_the_word_check_skips_only_texts_no_pattern_matches(text: str) -> None:
    from consolidate.audit import dates

    anchor = date(2026, 12, 1)
    quick = dates.find_relative_dates(text, anchor)
    quick_check = dates._may_hold_date
    try:
        dates._may_hold_date = lambda text: True  # every pattern is tried
        assert dates.find_relative_dates(text, anchor) == quick
    finally:
        dates._may_hold_date = quick_check
