"""What the two gather agents report, whatever engine runs them (offline, claude-sdk, anthropic).

The discoverer reports candidate learnings mined from sessions; the auditor reports findings about
what is already remembered. LLM engines must produce exactly these shapes: their JSON is validated
into these models, and anything that does not validate is an engine failure.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Layer = Literal["L0", "L1", "L2", "L2c", "L3", "meta"]
CandidateCategory = Literal["UPDATE", "CONTRADICT", "FILL_GAP", "NOISE"]
SignalKind = Literal[
    "marker",  # <!-- learning: … -->, 📝 Learned: …, #lesson … #/lesson
    "remember",  # "remember that …" from the user
    "correction",  # the user corrected what the assistant just did
    "error-fix",  # a failing tool call followed by a changed call that succeeds
    "rejection",  # a rejected tool use with the user's reason
    "decision",  # a decision with a stated reason
    "preference",  # an accepted preference or configuration discovery
    "queue",  # an item of the capture queue
]
FindingCategory = Literal[
    "STALE",
    "CONTRADICT",
    "DATE_FIX",
    "MERGE",
    "REDUNDANT",
    "SUPERSEDED",
    "LOW-VALUE",
    "HYGIENE",
    "SECRET",
]
FindingAction = Literal["EDIT", "REMOVE", "MERGE", "CLUSTER", "NONE"]
FINDING_CATEGORIES: tuple[str, ...] = get_args(FindingCategory)


class _Report(BaseModel):
    model_config = ConfigDict(extra="ignore")


class EvidenceRef(_Report):
    session: str = ""
    uuid: str = ""
    timestamp: str = ""
    quote: str = Field(default="", max_length=2000)
    file: str = ""  # a transcript path, or a memory/project file for audit evidence


class Candidate(_Report):
    """A learning worth remembering, as the discoverer proposes it.

    `title` is the index takeaway (at most ~90 characters, key fact first, a complete phrase) and
    `principle` the whole rule, of any length: the index line is built from the title, and the whole
    principle, `detail` and `why` are written where the learning lands (so they speak of the project,
    never of this run); `note` is for the reviewer only and never written. Reports written before `title`
    and `layers` existed (one `layer`, no title) still load: the title is then written offline, and
    `layers` is `[layer]`.
    """

    kind: SignalKind
    category: CandidateCategory = "FILL_GAP"
    title: str = ""  # the index takeaway: "`tspec test -p tspec` runs the tests, not cargo test"
    principle: str = Field(min_length=3)  # the whole rule, phrased as a reusable principle
    trigger: str = ""  # the task condition: "running the test suite" (rendered as **When …:**)
    layers: list[Layer] = Field(
        default_factory=list
    )  # where it belongs: one or more of L0, L1, L2, L2c, L3, meta
    layer: Layer = "L2"  # the first of `layers` (the only one in older reports)
    section: str = ""  # the heading it goes under: a MEMORY.md (or cluster) section, or a CLAUDE.md heading
    detail: str = ""  # the longer body: steps, examples, caveats — written whole into the topic file
    why: str = ""  # the reason the rule holds, in a sentence
    note: str = ""  # for the reviewer only (what to check before applying): shown, never written
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    impact: float = Field(default=0.5, ge=0.0, le=1.0)
    frequency: int = Field(default=1, ge=1)
    related: str = ""  # the existing entry it updates or contradicts, quoted as listed (a pointer's line)
    queue_id: str = ""  # the capture-queue item it came from, acked once applied or rejected
    evidence: list[EvidenceRef] = Field(default_factory=list)
    # every sighting a merged learning stands for ("<session>\0<record uuid>"), beyond the evidence
    # quoted: the backlog keeps them, so the same sessions read again are known as the same sightings
    sightings: list[str] = Field(default_factory=list)

    @field_validator("layers", mode="before")
    @classmethod
    def _layers_as_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # "L1", or "L0, L1" / "L0+L1"
            return [part for part in re.split(r"[\s,+/]+", value) if part]
        return value

    @model_validator(mode="after")
    def _one_layer_field(self) -> Candidate:
        if not self.layers:
            self.layers = [self.layer]
        else:
            self.layers = list(dict.fromkeys(self.layers))
            self.layer = self.layers[0]
        return self

    def on_layer(self, layer: Layer) -> Candidate:
        """This learning placed on one layer only."""
        return self.model_copy(update={"layer": layer, "layers": [layer]})


class RelatedEntry(_Report):
    file: str
    entry: str


class Finding(_Report):
    """Something wrong with what is remembered, and what to do about it."""

    category: FindingCategory
    file: str  # relative to the memory dir, or an absolute CLAUDE.md path
    entry: str = ""  # the quoted entry text (empty for whole-file findings)
    line: int = 0
    evidence: str = ""
    action: FindingAction = "NONE"
    replacement: str = ""  # the new entry text for EDIT and MERGE
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    related: list[RelatedEntry] = Field(default_factory=list)  # entries a MERGE absorbs
    topic_file: str = ""  # the topic file a REMOVE or MERGE retires, if any
    topic_content: str = ""  # MERGE of topic files: new text of the file `replacement` links to
    rationale: str = ""  # what was found, in words a reader understands (`evidence` adds `fact` to it)
    fact: str = ""  # the fact behind it, when there is one: a commit, a manifest line, the line elsewhere
    reason: str = ""  # what kind of finding within its category ("renamed", "in-claude-md", …)
    subject: str = ""  # what it is about, for findings fixed together (a renamed path)


class Usage(_Report):
    """Tokens and cost of one agent run (zero for the offline engine)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    cost_usd: float = 0.0
    turns: int = 0
    model: str = ""


class DiscoveryReport(_Report):
    candidates: list[Candidate] = Field(default_factory=list)
    sessions_scanned: int = 0
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    # capture-queue items dropped as already recorded, noise or secret: ack them, they will not come back
    dropped_queue_ids: list[str] = Field(default_factory=list)
    stats: dict[str, int] = Field(default_factory=dict)  # lines read/skipped, signals found/dropped by reason


class AuditedFile(_Report):
    """One file the auditor read, and how much of it it checked."""

    file: str  # relative to the memory dir, or an absolute path for CLAUDE.md files and their imports
    layer: str = ""  # L0, L1 (with their imports), L2, L2c, L3
    imported_by: str = ""  # the file whose `@path` line brought it in
    units: int = 0  # entries and paragraphs audited
    findings: int = 0


class AuditReport(_Report):
    findings: list[Finding] = Field(default_factory=list)
    entries_audited: int = 0  # the sum of `files[].units`
    files: list[AuditedFile] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
