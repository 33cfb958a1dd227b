"""Relative dates in memories ("yesterday", "на прошлой неделе", "上周", "geçen hafta") and their
absolute replacements, anchored on the day the entry was written.

A relative date is true only on the day it is written; loaded in a later session it misleads. The
anchor is the git commit date of the entry's line, else the file's modification time.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

Grain = Literal["day", "week", "month", "year"]
_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "a": 1,
    "an": 1,
    "a couple of": 2,
}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_PREPOSITIONS = re.compile(
    r"(?i)(?:\b(?:as of|since|until|till|before|after|from|on|by|of|in|during|at)\s*)$"
)


@dataclass(frozen=True)
class RelativeDate:
    start: int
    end: int
    text: str
    lang: str
    grain: Grain
    when: date  # the day (or first day of the week, month or year) it refers to


def _n(text: str) -> int:
    text = text.strip().lower()
    return int(text) if text.isdigit() else _NUMBERS.get(text, 1)


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _month(day: date, back: int) -> date:
    index = day.year * 12 + day.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


Resolver = Callable[[re.Match[str], date], tuple[Grain, date]]


def _days(offset: int) -> Resolver:
    return lambda m, a: ("day", a + timedelta(days=offset))


def _weeks(offset: int) -> Resolver:
    return lambda m, a: ("week", _week_start(a) + timedelta(weeks=offset))


def _months(offset: int) -> Resolver:
    return lambda m, a: ("month", _month(a, -offset))


def _years(offset: int) -> Resolver:
    return lambda m, a: ("year", date(a.year + offset, 1, 1))


def _ago(grain: Grain) -> Resolver:
    def resolve(m: re.Match[str], a: date) -> tuple[Grain, date]:
        count = _n(m["n"])
        if grain == "day":
            return "day", a - timedelta(days=count)
        if grain == "week":
            return "week", _week_start(a) - timedelta(weeks=count)
        if grain == "month":
            return "month", _month(a, count)
        return "year", date(a.year - count, 1, 1)

    return resolve


def _last_weekday(m: re.Match[str], a: date) -> tuple[Grain, date]:
    wanted = _WEEKDAYS.index(m["day"].lower())
    back = (a.weekday() - wanted) % 7 or 7
    return "day", a - timedelta(days=back)


_W = r"(?<![\w-])"  # a word start that also works for Cyrillic and Turkish letters
_E = r"(?![\w-])"
_NUM_EN = r"(?P<n>\d+|one|two|three|four|five|six|seven|a couple of|an?)"
_PATTERNS: list[tuple[str, str, Resolver]] = [
    ("en", rf"{_W}the day before yesterday{_E}", _days(-2)),
    ("en", rf"{_W}(?:today|this (?:morning|afternoon|evening)|tonight){_E}", _days(0)),
    ("en", rf"{_W}yesterday{_E}", _days(-1)),
    ("en", rf"{_W}tomorrow{_E}", _days(1)),
    ("en", rf"{_W}{_NUM_EN} days? ago{_E}", _ago("day")),
    ("en", rf"{_W}{_NUM_EN} weeks? ago{_E}", _ago("week")),
    ("en", rf"{_W}{_NUM_EN} months? ago{_E}", _ago("month")),
    ("en", rf"{_W}last (?P<day>monday|tuesday|wednesday|thursday|friday|saturday|sunday){_E}", _last_weekday),
    ("en", rf"{_W}last week{_E}", _weeks(-1)),
    ("en", rf"{_W}this week{_E}", _weeks(0)),
    ("en", rf"{_W}next week{_E}", _weeks(1)),
    ("en", rf"{_W}last month{_E}", _months(-1)),
    ("en", rf"{_W}this month{_E}", _months(0)),
    ("en", rf"{_W}last year{_E}", _years(-1)),
    ("ru", rf"{_W}позавчера{_E}", _days(-2)),
    ("ru", rf"{_W}сегодня{_E}", _days(0)),
    ("ru", rf"{_W}вчера{_E}", _days(-1)),
    ("ru", rf"{_W}завтра{_E}", _days(1)),
    ("ru", rf"{_W}(?P<n>\d+) (?:день|дня|дней) назад{_E}", _ago("day")),
    ("ru", rf"{_W}(?P<n>\d+) (?:неделю|недели|недель) назад{_E}", _ago("week")),
    ("ru", rf"{_W}на прошлой неделе{_E}", _weeks(-1)),
    ("ru", rf"{_W}на этой неделе{_E}", _weeks(0)),
    ("ru", rf"{_W}в прошлом месяце{_E}", _months(-1)),
    ("ru", rf"{_W}в этом месяце{_E}", _months(0)),
    ("ru", rf"{_W}в прошлом году{_E}", _years(-1)),
    ("zh", r"前天", _days(-2)),
    ("zh", r"今天", _days(0)),
    ("zh", r"昨天", _days(-1)),
    ("zh", r"明天", _days(1)),
    ("zh", r"(?P<n>\d+)\s*天前", _ago("day")),
    ("zh", r"(?P<n>\d+)\s*(?:周|个星期)前", _ago("week")),
    ("zh", r"上(?:个)?(?:周|星期|礼拜)", _weeks(-1)),
    ("zh", r"(?:本|这)(?:周|星期)", _weeks(0)),
    ("zh", r"上(?:个)?月", _months(-1)),
    ("zh", r"本月|这个月", _months(0)),
    ("zh", r"去年", _years(-1)),
    ("tr", rf"{_W}bugün{_E}", _days(0)),
    ("tr", rf"{_W}dün{_E}", _days(-1)),
    ("tr", rf"{_W}yarın{_E}", _days(1)),
    ("tr", rf"{_W}(?P<n>\d+) gün önce{_E}", _ago("day")),
    ("tr", rf"{_W}(?P<n>\d+) hafta önce{_E}", _ago("week")),
    ("tr", rf"{_W}geçen hafta{_E}", _weeks(-1)),
    ("tr", rf"{_W}bu hafta{_E}", _weeks(0)),
    ("tr", rf"{_W}geçen ay{_E}", _months(-1)),
    ("tr", rf"{_W}geçen yıl{_E}", _years(-1)),
]
_COMPILED = [(lang, re.compile(pattern, re.IGNORECASE), resolve) for lang, pattern, resolve in _PATTERNS]
# The patterns of other languages all need letters beyond ASCII; without such a letter (an arrow or
# a dash is no letter), only the English ones (and Turkish "bu hafta") can match, and each of those
# needs one of these words: most texts hold none, and are done after a few substring tests.
_ASCII_KEYS = ("yesterday", "today", "tonight", "tomorrow", "ago", "this ", "last ", "next ", "bu hafta")
_LETTER_BEYOND_ASCII = re.compile(r"[^\W\d_a-zA-Z]")


def _may_hold_date(text: str) -> bool:
    if not text.isascii() and _LETTER_BEYOND_ASCII.search(text):
        return True
    lowered = text.lower()
    return any(key in lowered for key in _ASCII_KEYS)


_CODE = re.compile(r"`[^`\n]*`|\]\([^)\n]*\)|https?://\S+")


def find_relative_dates(text: str, anchor: date) -> list[RelativeDate]:
    """Relative dates in `text` (outside code spans and links), resolved against `anchor`."""
    shielded = _CODE.sub(lambda m: "\0" * len(m.group(0)), text)
    if not _may_hold_date(shielded):
        return []
    found: list[RelativeDate] = []
    taken: list[tuple[int, int]] = []
    for lang, pattern, resolve in _COMPILED:
        for match in pattern.finditer(shielded):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            grain, when = resolve(match, anchor)
            found.append(RelativeDate(match.start(), match.end(), match.group(0), lang, grain, when))
            taken.append(match.span())
    return sorted(found, key=lambda r: r.start)


def absolute(rel: RelativeDate, before: str) -> str:
    """The absolute wording that replaces `rel`, given the text just before it."""
    day, month = rel.when.isoformat(), rel.when.strftime("%Y-%m")
    after_preposition = bool(_PREPOSITIONS.search(before))
    if rel.lang == "en":
        lead = (
            ""
            if after_preposition
            else {"day": "on ", "week": "in ", "month": "in ", "year": "in "}[rel.grain]
        )
        body = {"day": day, "week": f"the week of {day}", "month": month, "year": str(rel.when.year)}[
            rel.grain
        ]
        return lead + body
    if rel.lang == "ru":
        return {
            "day": day,
            "week": f"на неделе с {day}",
            "month": f"в {month}",
            "year": f"в {rel.when.year} году",
        }[rel.grain]
    if rel.lang == "zh":
        return {"day": day, "week": f"{day}当周", "month": month, "year": f"{rel.when.year}年"}[rel.grain]
    return {"day": day, "week": f"{day} haftası", "month": month, "year": str(rel.when.year)}[rel.grain]


def wording(rel: RelativeDate, text: str) -> str:
    """What replaces `rel` inside `text` (capitalised when the relative phrase was)."""
    words = absolute(rel, text[max(0, rel.start - 12) : rel.start])
    return words[:1].upper() + words[1:] if rel.text[:1].isupper() else words


def fix_relative_dates(text: str, anchor: date) -> tuple[str, list[RelativeDate]]:
    """`text` with every relative date made absolute, and the dates found."""
    found = find_relative_dates(text, anchor)
    out, last = [], 0
    for rel in found:
        out.append(text[last : rel.start])
        out.append(wording(rel, text))
        last = rel.end
    out.append(text[last:])
    return "".join(out), found
