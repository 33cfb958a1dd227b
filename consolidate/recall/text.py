"""Text as the index sees it: folded for matching in English, Russian, Turkish and Chinese.

Folding removes case and diacritics the same way on both sides (`café`, `Çalıştırma`, `ёлка` match
`cafe`, `calistirma`, `елка`); SQLite's unicode61 tokenizer alone keeps Turkish `ı` and Russian `ё`
apart. Chinese has no spaces between words, so a CJK run is indexed as its overlapping two-character
pieces (`数据库` → `数据 据库`, the bigram scheme of Lucene's CJK analyzer) and a query's run is
searched the same way: most Chinese words are two characters long, which trigrams cannot match.
Standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RUN = re.compile(f"[{CJK_CLASS}]+")  # one compiled class: each costs a millisecond or two
_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_WORD = re.compile(r"\w+")  # then split at CJK runs (a class like [^\W…] costs milliseconds to compile)
_TURKISH = str.maketrans({"ı": "i"})
# Chinese particles and pronouns split a query's run into the words around them (的, 了 … say nothing).
_CJK_PARTICLES = re.compile("[的了吗呢吧啊呀么和与及或把被将给就也都还在是我你他她它们这那个]+")
MIN_TERM = 2

_STOPWORDS = """
    a about after again all also am an and any are as at be been before being both but by can could did do
    does doing done for from get got had has have having he her here him his how i if in into is it its just
    let like me more most my no not now of off on once only or other our out over please same she should so
    some such than that the their them then there these they this those through to too under up us very was
    we were what when where which while who why will with would you your yes ok okay thanks think want need
    lets against because since until without between each few many much own via per any every
    и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от
    меня еще нет о из ему теперь когда даже ну ли если уже или ни быть был него до вас нибудь опять уж вам
    ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтоб без будто
    чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой
    тем чтобы нее сейчас были куда зачем всех никогда можно при наконец два об другой хоть после над больше тот
    через эти нас про всего них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть
    том нельзя такой им более всегда конечно всю между это как давай давайте
    acaba ama aslında az bazı belki biri birkaç birşey biz bu çok çünkü da daha de defa diye eğer en gibi hem
    hep hepsi her hiç için ile ise kez ki kim mı mu mü nasıl ne neden nerde nerede nereye niçin niye o sanki
    şey siz şu tüm ve veya ya yani bir olan olarak ben sen onu bunu şunu var yok evet hayır lütfen
    """


def fold(text: str) -> str:
    """Lower case without diacritics: what both the index and a query are matched on."""
    if text.isascii():
        return text.lower()
    stripped = _MARKS.sub("", unicodedata.normalize("NFKD", text))
    return unicodedata.normalize("NFC", stripped).casefold().translate(_TURKISH).replace("\u0307", "")


STOPWORDS = frozenset(fold(word) for word in _STOPWORDS.split())


def has_cjk(text: str) -> bool:
    return _CJK_RUN.search(text) is not None


def search_text(text: str) -> str:
    """The folded text the index tokenizes: each CJK run as its bigrams, set apart from other words."""
    folded = fold(text)
    return (
        _CJK_RUN.sub(lambda m: " " + " ".join(bigrams(m.group(0))) + " ", folded)
        if has_cjk(folded)
        else folded
    )


def bigrams(run: str) -> list[str]:
    """The overlapping two-character pieces of a CJK run (a single character stays itself)."""
    return [run[i : i + 2] for i in range(len(run) - 1)] if len(run) > 1 else [run]


@dataclass(frozen=True)
class QueryTerms:
    """A query's content words, and the bigrams of its CJK runs."""

    words: tuple[str, ...]
    cjk: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        return self.words + self.cjk

    def __bool__(self) -> bool:
        return bool(self.words or self.cjk)


def query_terms(query: str) -> QueryTerms:
    """The distinct content terms of a query, in order: stopwords and one-letter words left out."""
    words: list[str] = []
    cjk: list[str] = []
    for token in (t for word in _WORD.findall(fold(query)) for t in _split_cjk(word)):
        if _CJK_RUN.match(token):
            pieces = [p for p in _CJK_PARTICLES.split(token) if p]
            cjk += [
                b for p in pieces for b in bigrams(p) if b not in cjk and (len(b) > 1 or len(pieces) == 1)
            ]
        elif len(token) >= MIN_TERM and token not in STOPWORDS and token not in words:
            words.append(token)
    return QueryTerms(tuple(words), tuple(cjk))


def _split_cjk(word: str) -> list[str]:
    """A word as its CJK and other runs (`用pnpm安装` → `用`, `pnpm`, `安装`), underscores dropped."""
    if not has_cjk(word):
        return [word] if word.strip("_") else []
    pieces = _CJK_RUN.split(word)
    runs = _CJK_RUN.findall(word)
    out = [pieces[0]]
    for run, rest in zip(runs, pieces[1:], strict=True):
        out += [run, rest]
    return [p for p in out if p.strip("_")]


def fts_phrase(term: str) -> str:
    """A term as an FTS5 string (quotes doubled), so no query word is read as an operator."""
    return '"' + term.replace('"', '""') + '"'
