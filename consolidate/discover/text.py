"""Small text helpers for mining: code masking, sentences, language, tokens and similarity."""

from __future__ import annotations

import re
from functools import lru_cache

from ..lazyre import lazy

_FENCE = lazy(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_INLINE_CODE = lazy(r"`[^`\n]*`")
_QUOTED_LINE = lazy(r"^\s*>.*$", re.MULTILINE)
# The look-behinds all hold at the same place, so the cheap one (a sentence's end) is tried first.
_SENTENCE_END = lazy(
    r"(?<=[.!?。！？])(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\betc\.)(?<!\bvs\.)\s+|(?<=[。！？])|\n+"
)
_CYRILLIC = lazy(r"[А-Яа-яЁё]")
_CJK = lazy(r"[\u3400-\u9fff]")
_TURKISH = lazy(
    r"[ğĞşŞıİ]|\b(?:ve|bir|bu|şu|için|değil|yerine|kullan\w*|yap\w*|çünkü|lütfen|hayır)\b"
)  # not IGNORECASE: it would let "İ" match every "i"
_WORD = lazy(r"[^\W_]+(?:[-'][^\W_]+)*", re.UNICODE)
_CJK_RUN = lazy(r"[\u3400-\u9fff]+")


def _split(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS = _split(
    """
    a an the and or but if then so to of in on at for from by with without into onto is are was were be
    been being it its this that these those there here we you i me my our your they them he she his her
    do does did done doing have has had having can could would should will shall may might must not no
    yes please just also very really only as than too when where what which who whom how why all any
    some more most other such own same about over under again further once up down out off let lets
    let's ok okay user и в во на с со к ко по за из от до у о об а но или же бы ли не ни да нет это этот эта
    эти то тот та те так как что чтобы для при без над под мы вы я ты он она они его её их мне нам вам
    тебе уже ещё еще всё все пожалуйста 的 了 是 在 和 就 都 也 还 要 把 被 这 那 你 我 他 们 吧 吗 呢 啊 请 ve veya ile bir bu
    şu o da de mi mı mu mü ama fakat için gibi daha çok en ne ki biz siz ben sen onlar lütfen
    """
)


@lru_cache(maxsize=1024)
@lru_cache(maxsize=256)  # a turn's text is masked by several rules one after the other
def mask_code(text: str) -> str:
    """Fenced blocks, inline code and quoted lines blanked out (cues inside quoted code are not the user's)."""
    if "`" not in text and "~~~" not in text and ">" not in text:
        return text  # nothing any of the three patterns could match
    text = _FENCE.sub(" ", text)
    text = _QUOTED_LINE.sub(" ", text)
    return _INLINE_CODE.sub(" `code` ", text)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def language(text: str) -> str:
    """A rough guess among the languages the lexicon knows: en, ru, zh, tr."""
    if _CJK.search(text):
        return "zh"
    if _CYRILLIC.search(text):
        return "ru"
    if _TURKISH.search(text.lower()):
        return "tr"
    return "en"


def clip(text: str, limit: int) -> str:
    """Collapse whitespace and cut at a word boundary, with an ellipsis when cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:-—") + "…"


# the medium dream's two matchers stem about 10,000 texts, the second the lines the first stemmed
@lru_cache(maxsize=16384)
def stems(text: str) -> frozenset[str]:
    """Content-word stems (prefixes) plus CJK character bigrams, for fuzzy comparison."""
    lowered = text.lower()
    result: set[str] = set()
    cjk = not lowered.isascii()  # an ASCII text holds no CJK run: neither pattern need look at it
    for word in _WORD.findall(_CJK_RUN.sub(" ", lowered) if cjk else lowered):
        if word in STOPWORDS or len(word) < 2:
            continue
        result.add(word[:6] if len(word) > 6 else word)
    for run in _CJK_RUN.findall(lowered) if cjk else ():
        if len(run) == 1:
            result.add(run)
        result.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(result)


def overlap(a: str, b: str) -> tuple[float, float, int]:
    """(Jaccard, containment of the smaller set, shared count) of the two texts' stems."""
    sa, sb = stems(a), stems(b)
    if not sa or not sb:
        return 0.0, 0.0, 0
    shared = len(sa & sb)
    return shared / len(sa | sb), shared / min(len(sa), len(sb)), shared


def content_size(text: str) -> int:
    return len(stems(text))


_NAME_OPENING = lazy(r"[^\s`]*[\d_/.@-][^\s`]*[\w]")  # `vc-x1`, `py3`, `src/app`: a name, as spelt


_HYPHENED_WORD = lazy(r"[A-Za-z]+(?:-[A-Za-z]+)+[,.:;]?")


def capitalised(text: str) -> str:
    """`text` with its first letter in upper case, unless its first word is a name spelt with a digit,
    a hyphen, a slash or a dot (`vc-x1 push …`, `pre-commit hooks …` aside: a hyphen between letters
    alone is a word)."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if _NAME_OPENING.fullmatch(first) and not _HYPHENED_WORD.fullmatch(first):
        return text
    return text[:1].upper() + text[1:] if text else ""
