"""The offline signal discoverer: corrections, remember requests, decisions, markers, error → fix and
rejected tool uses mined from Claude Code transcripts, as `Candidate`s for the dream."""

from ..timeparse import parse_since
from .discover import build_report, discover, discover_recent, find_candidates, load_memory_texts

__all__ = [
    "build_report",
    "discover",
    "discover_recent",
    "find_candidates",
    "load_memory_texts",
    "parse_since",
]
