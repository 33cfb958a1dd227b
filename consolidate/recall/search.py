"""Answer a query from the recall index: BM25 over its content words, best first.

A query is read as its content words joined by OR (stopwords of the four languages left out), so a
question in plain words finds the passages sharing the most telling of them. Words of five letters or
more also match by their stem (`deployed` finds `deployment`, `dosyası` finds `dosyasını`); Chinese is
matched by its bigrams. Standard library only: the UserPromptSubmit hook calls this.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from .text import QueryTerms, fold, fts_phrase, query_terms

SNIPPET_CHARS = 240
PREFIX_MIN = 5  # words this long also match longer forms of their first letters
STEM_CUT = 2
_COLUMNS = "d.uid, d.session, d.ts, d.role, d.kind, d.memory_file, d.line, d.text"
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Hit:
    uid: str
    session: str
    timestamp: str
    role: str
    kind: str
    memory_file: str
    line: int
    text: str
    score: float

    def snippet(self, terms: QueryTerms, chars: int = SNIPPET_CHARS, mark: tuple[str, str] = ("", "")) -> str:
        return make_snippet(self.text, terms, chars, mark)

    def to_dict(self, terms: QueryTerms, mark: tuple[str, str] = ("", "")) -> dict[str, Any]:
        data = asdict(self)
        del data["text"], data["uid"]
        data["snippet"] = self.snippet(terms, mark=mark)
        data["matched"] = sorted(matched_terms(self.text, terms))
        return data


@dataclass(frozen=True)
class Filters:
    since: str | None = None  # ISO time; session hits before it are left out (memory always counts)
    kinds: tuple[str, ...] = ()
    exclude_session: str = ""

    def sql(self) -> tuple[str, list[Any]]:
        clauses, params = [], []
        if self.since:
            clauses.append("(d.role = 'memory' OR d.ts >= ?)")
            params.append(self.since)
        if self.kinds:
            clauses.append(f"d.kind IN ({', '.join('?' * len(self.kinds))})")
            params += list(self.kinds)
        if self.exclude_session:
            clauses.append("d.session != ?")
            params.append(self.exclude_session)
        return "".join(f" AND {c}" for c in clauses), params


def search(
    db: sqlite3.Connection,
    query: str | QueryTerms,
    *,
    limit: int = 10,
    filters: Filters | None = None,
    tagged_only: bool = False,
) -> list[Hit]:
    """The best `limit` hits for the query, best first (none for a query without content words);
    `tagged_only` searches only memory and tagged messages (the small index auto-recall uses)."""
    terms = query_terms(query) if isinstance(query, str) else query
    if not terms:
        return []
    where, params = (filters or Filters()).sql()
    table = "fts_auto" if tagged_only else "fts"
    rows = db.execute(
        f"SELECT {_COLUMNS}, bm25({table}) FROM {table} JOIN docs d ON d.id = {table}.rowid "
        f"WHERE {table} MATCH ?{where} ORDER BY bm25({table}) LIMIT ?",
        [match_expression(terms), *params, limit],
    ).fetchall()
    return [_hit(row) for row in rows]


def document_frequencies(db: sqlite3.Connection, terms: QueryTerms) -> tuple[int, dict[str, int]]:
    """(documents in the index, how many hold each term — by its stem when it is searched by stem)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'docs'").fetchone()  # counted at each update
    total = int(row[0]) if row else int(db.execute("SELECT count(*) FROM docs").fetchone()[0])
    counts = {}
    for term in terms.all:
        low = _stem(term) if _stemmed(term) else term
        high = low + "\uffff" if _stemmed(term) or len(term) == 1 else low
        row = db.execute(
            "SELECT coalesce(sum(doc), 0) FROM fts_vocab WHERE term >= ? AND term <= ?", (low, high)
        )
        counts[term] = int(row.fetchone()[0])
    return total, counts


def match_expression(terms: QueryTerms) -> str:
    """The FTS5 expression: each term as a string (long words by their stem, as a prefix), OR-ed."""
    parts = [f"{fts_phrase(_stem(w))}*" if _stemmed(w) else fts_phrase(w) for w in terms.words]
    parts += [fts_phrase(c) + ("*" if len(c) == 1 else "") for c in terms.cjk]
    return " OR ".join(parts)


def _stemmed(word: str) -> bool:
    return len(word) >= PREFIX_MIN and word.isalpha()


def _stem(word: str) -> str:
    """A crude stem: drop the last letter or two, never below four (`deployed` → `deploy`)."""
    return word[: max(PREFIX_MIN - 1, len(word) - STEM_CUT)]


def _hit(row: tuple[Any, ...]) -> Hit:
    uid, session, ts, role, kind, memory_file, line, text, score = row
    return Hit(uid, session, ts, role, kind, memory_file, int(line), text, float(score))


def matched_terms(text: str, terms: QueryTerms) -> set[str]:
    """The query terms the text contains (words by their stem at a word start, CJK as substrings)."""
    folded = fold(text)
    found = {t for t in terms.cjk if t in folded}
    for word in terms.words:
        stem = _stem(word) if _stemmed(word) else word
        if stem in folded and _at_word_start(stem).search(folded):  # the substring test rules most out
            found.add(word)
    return found


@lru_cache(maxsize=256)
def _at_word_start(needle: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![^\W_]){re.escape(needle)}")


def make_snippet(
    text: str, terms: QueryTerms, chars: int = SNIPPET_CHARS, mark: tuple[str, str] = ("", "")
) -> str:
    """One line of about `chars` characters around the densest cluster of matches, matches marked."""
    spans = _match_spans(text, terms)
    if not spans:
        return _flat(text[:chars]) + ("…" if len(text) > chars else "")
    start = _best_window(spans, chars, len(text))
    end = min(len(text), start + chars)
    inside = [(a, b) for a, b in spans if a >= start and b <= end]
    pieces, cursor = [], start
    for a, b in inside:
        if a < cursor:
            continue
        pieces += [text[cursor:a], mark[0], text[a:b], mark[1]]
        cursor = b
    pieces.append(text[cursor:end])
    return ("…" if start > 0 else "") + _flat("".join(pieces)) + ("…" if end < len(text) else "")


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _match_spans(text: str, terms: QueryTerms) -> list[tuple[int, int]]:
    """Where the terms occur in the original text (folding may change lengths: map back per char)."""
    folded, origin = _folded_map(text)
    spans = []
    for term in terms.all:
        needle = _stem(term) if _stemmed(term) else term
        boundary = "" if term in terms.cjk else r"(?<![^\W_])"
        for match in re.finditer(
            boundary + re.escape(needle) + (r"[^\W_]*" if term in terms.words else ""), folded
        ):
            spans.append((origin[match.start()], origin[match.end() - 1] + 1))
    merged: list[tuple[int, int]] = []
    for a, b in sorted(set(spans)):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _folded_map(text: str) -> tuple[str, list[int]]:
    if text.isascii():
        return text.lower(), list(range(len(text)))
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        folded = fold(char)
        out.append(folded)
        origin += [index] * len(folded)
    return "".join(out), origin


def _best_window(spans: list[tuple[int, int]], chars: int, length: int) -> int:
    """The window start (a third of the window before the first match in it) covering most matches."""
    best, best_count = 0, -1
    for a, _ in spans:
        start = max(0, min(a - chars // 3, length - chars))
        count = sum(1 for s, e in spans if s >= start and e <= start + chars)
        if count > best_count:
            best, best_count = start, count
    return best
