"""Scripted agent reports for the dream tests (the scripted engine answers with these)."""

from __future__ import annotations

CLEAN = "- Write clean code and keep functions small."
AUDIT = {
    "findings": [
        {
            "category": "LOW-VALUE",
            "file": "MEMORY.md",
            "entry": CLEAN,
            "action": "REMOVE",
            "confidence": 0.85,
            "evidence": "generic advice",
        }
    ],
    "entries_audited": 34,
}
DISCOVERY = {
    "candidates": [
        {
            "kind": "correction",
            "principle": "use `uv add`, never `pip install`",
            "trigger": "adding a dependency",
            "confidence": 0.9,
            "impact": 0.8,
            "evidence": [{"session": "s1", "quote": "no, use uv add"}],
        }
    ],
    "sessions_scanned": 2,
}
