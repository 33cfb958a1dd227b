"""Recall: BM25 search over what was said in a project's past sessions and over its memory files.

An SQLite FTS5 index in our state dir (`<state>/recall/<memory-dir key>/index.sqlite3`), updated
incrementally from a scan state: `update_index` reads only what transcripts gained, `search` answers
from the index alone. `store`, `text` and `search` use the standard library only, so the
UserPromptSubmit hook can answer from the index (`auto`) without importing anything heavy.
"""
