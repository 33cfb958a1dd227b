"""`consolidate recall`: bring the project's index up to date, then search it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..settings import Settings
from .indexer import IndexBusy, IndexScope, IndexStats, update_index
from .search import Filters, Hit, search
from .store import INDEX_FILE, index_dir, open_reader, probe_capabilities
from .text import QueryTerms, query_terms


def index_scope(settings: Settings) -> IndexScope:
    index = index_dir(settings.state_dir, settings.memory_dir) / INDEX_FILE
    return IndexScope(index, (settings.layout.transcripts_dir,), settings.memory_dir)


@dataclass
class RecallResult:
    query: str
    terms: QueryTerms
    hits: list[Hit]
    stats: IndexStats | None
    notes: list[str] = field(default_factory=list)

    def to_dict(self, index: str) -> dict[str, Any]:
        return {
            "query": self.query,
            "terms": list(self.terms.all),
            "hits": [h.to_dict(self.terms) for h in self.hits],
            "index": {"path": index, **(self.stats.to_dict() if self.stats else {})},
            "notes": self.notes,
        }


def refresh(settings: Settings, *, rebuild: bool = False, wait: bool = True) -> IndexStats:
    """Update (or rebuild) the index; IndexBusy when `wait` is off and another update runs."""
    return update_index(index_scope(settings), rebuild=rebuild, wait=wait)


def recall(
    settings: Settings, query: str, *, limit: int = 10, since: datetime | None = None, update: bool = True
) -> RecallResult:
    """The best hits for `query`, after reading what changed since the last update (unless `update` is off)."""
    scope = index_scope(settings)
    terms = query_terms(query)
    result = RecallResult(query, terms, [], None)
    if update:
        try:
            result.stats = update_index(scope, wait=False)
        except IndexBusy:
            result.notes.append("another process is updating the index: searched it as it is")
    else:
        probe_capabilities().require()
    if not terms:
        result.notes.append("the query has no words to search for (only stopwords or single letters)")
        return result
    db = open_reader(scope.index)
    if db is None:
        result.notes.append("no index yet: run `consolidate recall --update`")
        return result
    try:
        stamp = since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S") if since else None
        result.hits = search(db, terms, limit=limit, filters=Filters(since=stamp))
    finally:
        db.close()
    return result
