"""The correction detector: does a user prompt correct the agent? (English, Russian, Chinese, Turkish)

A hit injects a reminder to capture a learning; a false positive costs one short line of context, a miss
loses the lesson, so the phrases lean inclusive. Matching is on casefolded text with Turkish dotless and
dotted i folded to plain `i`, so `YANLIŞ`, `yanlış` and `yanlis` all match.
"""

from __future__ import annotations

from ..lazyre import lazy

_WORD_PHRASES = {
    "en": (
        r"no,? (?:do|make|use|write|try) it",
        r"that'?s (?:wrong|incorrect|not (?:what|right|it))",
        r"wrong",
        r"incorrect",
        r"not like (?:that|this)",
        r"i (?:told|asked) you",
        r"i (?:already )?said",
        r"(?:don'?t|do not|stop) (?:do|doing|use|using|touch|add|adding) (?:that|this|it)",
        r"you forgot",
        r"why did you",
        r"(?:revert|undo) (?:that|this|it)",
        r"not what i (?:asked|meant|wanted)",
        r"i said no",
        r"never (?:do|use)",
    ),
    "ru": (
        r"не надо",
        r"неправильно",
        r"неверно",
        r"я же (?:говорил|говорила|сказал|сказала|просил|просила)",
        r"не так",
        r"нет,? (?:сделай|делай|используй|надо)",
        r"зачем ты",
        r"переделай",
        r"не делай",
        r"откати",
    ),
    "tr": (
        r"yanlis",
        r"hayir,? (?:soyle|boyle|bunu)",
        r"oyle degil",
        r"boyle degil",
        r"sana (?:soyledim|demistim)",
        r"(?:bunu|onu) yapma",
        r"hatali",
        r"geri al",
        r"dogru degil",
    ),
}
# Chinese has no word boundaries: these match as substrings.
_SUBSTRINGS = (
    "不对",
    "错了",
    "不是这样",
    "不要这样",
    "别这样",
    "我说过",
    "我已经说过",
    "搞错",
    "不正确",
    "重新做",
    "撤销",
)
_TURKISH_FOLD = str.maketrans({"ı": "i", "\u0307": None, "ş": "s", "ğ": "g", "ü": "u", "ö": "o", "ç": "c"})
_WORDS = lazy(r"(?<!\w)(?:" + "|".join(p for phrases in _WORD_PHRASES.values() for p in phrases) + r")(?!\w)")
REMINDER = (
    "The user's message reads like a correction. If it corrects how you worked, capture it once you "
    "understand it: write a visible `📝 Learned: …` line and a hidden `<!-- learning: <the rule, with the "
    "why> -->` marker, or record an episode with `consolidate learnings capture`."
)


def fold(text: str) -> str:
    return text.casefold().translate(_TURKISH_FOLD)


def find_correction(prompt: str) -> str | None:
    """The first correction phrase in `prompt`, or None. A prompt that holds none of the phrases'
    spellings (most prompts) is answered without compiling the pattern (a few milliseconds of a hook
    that runs on every prompt)."""
    folded = fold(prompt)
    if any(spelling in folded for spelling in _spellings()):
        match = _WORDS.search(folded)
        if match:
            return match.group(0)
    return next((phrase for phrase in _SUBSTRINGS if phrase in prompt), None)


_SPELLINGS: list[tuple[str, ...]] = []


def _spellings() -> tuple[str, ...]:
    """Every string a word phrase matches: a text the pattern matches holds one of them."""
    if not _SPELLINGS:
        _SPELLINGS.append(
            tuple(s for phrases in _WORD_PHRASES.values() for p in phrases for s in spell_out(p))
        )
    return _SPELLINGS[0]


def spell_out(pattern: str) -> list[str]:
    """Every string `pattern` matches, for a pattern of literal characters, `(?:a|b)` groups and `?`
    after a character or a group (the only syntax the phrases use; anything else raises ValueError)."""
    spelled, end = _sequence(pattern, 0)
    if end != len(pattern):
        raise ValueError(f"unbalanced phrase: {pattern!r}")
    return spelled


def _sequence(pattern: str, at: int) -> tuple[list[str], int]:
    spelled = [""]
    while at < len(pattern) and pattern[at] not in "|)":
        if pattern.startswith("(?:", at):
            options, at = _alternatives(pattern, at + 3)
        elif pattern[at] in "\\[]{}()*+.^$?":
            raise ValueError(f"unsupported syntax in phrase: {pattern!r}")
        else:
            options, at = [pattern[at]], at + 1
        if pattern.startswith("?", at):
            options, at = [*options, ""], at + 1
        spelled = [head + tail for head in spelled for tail in options]
    return spelled, at


def _alternatives(pattern: str, at: int) -> tuple[list[str], int]:
    options: list[str] = []
    while True:
        spelled, at = _sequence(pattern, at)
        options.extend(spelled)
        if at >= len(pattern):
            raise ValueError(f"unbalanced phrase: {pattern!r}")
        at += 1
        if pattern[at - 1] == ")":
            return options, at
