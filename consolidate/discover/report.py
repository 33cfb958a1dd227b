"""The discoverer's report as plain data, so `consolidate scan` runs without importing pydantic.

The shapes are those of `consolidate.models` (`EvidenceRef`, `Candidate`, `DiscoveryReport`), field for
field; `to_dict()` is that report's JSON and `to_model()` validates it into the model the dream and
the LLM engines share.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..models import DiscoveryReport

# An offline run costs no tokens: `Usage()` as JSON.
_NO_USAGE = {
    "input_tokens": 0,
    "output_tokens": 0,
    "cache_read_tokens": 0,
    "cache_write_tokens": 0,
    "cost_usd": 0.0,
    "turns": 0,
    "model": "",
}


@dataclass(slots=True)
class Evidence:
    session: str = ""
    uuid: str = ""
    timestamp: str = ""
    quote: str = ""
    file: str = ""


@dataclass(slots=True)
class Learning:
    """A candidate learning (`consolidate.models.Candidate`)."""

    kind: str
    category: str = "FILL_GAP"
    title: str = ""
    principle: str = ""
    trigger: str = ""
    layers: list[str] = field(default_factory=list)
    layer: str = "L2"
    section: str = ""
    detail: str = ""
    why: str = ""
    note: str = ""
    confidence: float = 0.5
    impact: float = 0.5
    frequency: int = 1
    related: str = ""
    queue_id: str = ""
    evidence: list[Evidence] = field(default_factory=list)
    sightings: list[str] = field(default_factory=list)  # filled when the dream merges learnings


@dataclass
class ScanReport:
    candidates: list[Learning] = field(default_factory=list)
    sessions_scanned: int = 0
    notes: list[str] = field(default_factory=list)
    dropped_queue_ids: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The report as `DiscoveryReport.model_dump(mode="json")` gives it."""
        return {
            "candidates": [{**asdict(c), "layers": c.layers or [c.layer]} for c in self.candidates],
            "sessions_scanned": self.sessions_scanned,
            "notes": list(self.notes),
            "usage": dict(_NO_USAGE),
            "dropped_queue_ids": list(self.dropped_queue_ids),
            "stats": dict(self.stats),
        }

    def to_model(self) -> DiscoveryReport:
        from ..models import DiscoveryReport

        return DiscoveryReport.model_validate(self.to_dict())
