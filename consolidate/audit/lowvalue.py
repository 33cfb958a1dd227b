"""LOW-VALUE: generic best practice that says nothing about this project ("write clean code",
"tests are important"). Conservative on purpose: every content word must be generic, and anything
specific — a name, a number, code, a link, a stated preference — keeps the entry."""

from __future__ import annotations

import re

from .drafts import Draft
from .similar import stemmed, tokens
from .units import Unit

GENERIC = stemmed(
    """
    use code coding clean cleaner readable readability maintainable maintainability quality best practice practices
    important importance good great better always write writing written test tests testing tested meaningful
    names naming name variable variables document documented documentation comment comments helpful keep
    simple simplicity small short functions function avoid bugs bug careful carefully double check checks
    work handle errors error properly matters matter refactor refactoring needed follow principles solid dry
    kiss make sure everything things thing consistent consistency style efficient efficiency optimize secure
    security think understand changes change quality robust reliable modular reusable professional standards
    conventions convention need needs useful remember try proper correctly correct possible whenever
    applicable clear concise elegant well structured organized codebase software development developer
    developers review reviews reviewed thoroughly thorough high ensure making easy easier read understandable
    premature optimization responsibility single edge cases case logic complexity complex unnecessary
    duplication duplicate overengineering engineering approach solution solutions quickly fast slow
    cover coverage unit units bugs mistakes mistake pay attention detail details quality-first habit habits
    lines long obvious self-documenting explain explains explaining why what readable
    пиши писать чистый чистым код кода тесты тестов важны важно всегда лучшие практики хороший понятный
    写 干 净 整 洁 的 代 码 测 试 很 重 要 最 佳 实 践 总 是 好 清 晰 要 写
    temiz kod yaz yazın testler önemlidir önemli iyi her zaman okunabilir
    """
)
_SPECIFIC = re.compile(
    r"`|\d|\]\(|https?://|\b(?:user|users|prefers?|preferred|wants?|asked|likes?|dislikes?|team|"
    r"here|this (?:repo|project|codebase))\b",
    re.IGNORECASE,
)
_PROPER_NOUN = re.compile(r"(?<=[a-z,;] )[A-Z][a-zA-Z]+")


def is_low_value(text: str) -> bool:
    """Generic advice with no project-specific content."""
    if _SPECIFIC.search(text) or _PROPER_NOUN.search(text):
        return False
    words = tokens(re.sub(r"\*\*[^*]*\*\*", lambda m: m.group(0).strip("*"), text))
    return len(words) >= 2 and words <= GENERIC


def low_value_findings(units: list[Unit]) -> list[Draft]:
    drafts = []
    for unit in units:
        if not unit.is_memory or unit.claims or unit.links or not is_low_value(unit.content):
            continue
        removable = unit.is_entry and unit.source in ("index", "cluster")
        evidence = "generic advice with nothing specific to this project; every session already knows it"
        drafts.append(
            Draft(
                "LOW-VALUE",
                unit,
                evidence,
                "REMOVE" if removable else "NONE",
                0.7 if removable else 0.5,
                reason="generic",
            )
        )
    return drafts
