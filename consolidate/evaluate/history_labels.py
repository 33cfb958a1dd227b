"""Labels of a real-history dev set: which session moments taught the rules a project wrote down.

A label file (`labels/<corpus>.json`) references the corpus by ids only: for each rule that appears
in the project's CLAUDE.md between two versions, the version (commit sha prefix and line range), a
short paraphrase, a pattern the words of a candidate stating it must match, and the session moments
(`<session id>/<record uuid>`) that taught it — or a status saying it was never said in the sessions.
Real lessons the user never wrote down and real non-lessons (look-alikes) are labeled the same way.
Hand verdicts on the plan's ADDs live beside it (`<corpus>.verdicts.json`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

LABELS_DIR = Path(__file__).parent / "labels"


@dataclass(frozen=True)
class Moment:
    session: str
    uuid: str

    @classmethod
    def parse(cls, text: str) -> Moment:
        session, _, uuid = text.partition("/")
        return cls(session, uuid)

    def __str__(self) -> str:
        return f"{self.session}/{self.uuid}"


@dataclass
class Rule:
    id: str
    about: str
    key: str = ""  # a pattern a candidate's principle must match to state this rule
    version: str = ""  # sha prefix of the version that first holds it ("" for lessons never written)
    status: str = "taught"  # taught | not-in-sessions | code-description | lesson
    moments: list[Moment] = field(default_factory=list)
    lines: tuple[int, int] | None = None

    def stated_by(self, principle: str) -> bool:
        return not self.key or re.search(self.key, principle, re.IGNORECASE) is not None


@dataclass(frozen=True)
class Version:
    file: str
    sha: str
    time: datetime
    subject: str


@dataclass
class Verdict:
    key: str  # see `verdict_key`
    verdict: str  # "keep" | "drop"
    reason: str
    about: str = ""  # a short paraphrase of what the ADD says (never the corpus text)
    split: str = ""


@dataclass
class Labels:
    name: str
    corpus: str
    transcripts: str
    memory_file: str
    heldout_after: str = ""
    history: str = ""
    files: dict[str, str] = field(default_factory=dict)
    reverse_edits: list[Moment] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    lessons: list[Rule] = field(default_factory=list)
    non_lessons: list[tuple[Moment, str]] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)

    def taught(self) -> list[Rule]:
        return [r for r in self.rules if r.status == "taught"]


def load_labels(name: str, directory: Path = LABELS_DIR) -> Labels:
    """The labels `labels/<name>.json` and their verdicts `labels/<name>.verdicts.json` (when present)."""
    data = json.loads((directory / f"{name}.json").read_text(encoding="utf-8"))
    labels = Labels(
        name=name,
        corpus=data["corpus"],
        transcripts=data.get("transcripts", "."),
        memory_file=data.get("memory_file", "CLAUDE.md"),
        heldout_after=data.get("heldout_after", ""),
        history=data.get("history", ""),
        files=dict(data.get("files", {})),
        reverse_edits=[Moment.parse(m) for m in data.get("reverse_edits", [])],
        rules=[_rule(item) for item in data.get("rules", [])],
        lessons=[_rule(item, status="lesson") for item in data.get("lessons", [])],
        non_lessons=[(Moment.parse(n["moment"]), n.get("why", "")) for n in data.get("non_lessons", [])],
    )
    verdicts = directory / f"{name}.verdicts.json"
    if verdicts.exists():
        for item in json.loads(verdicts.read_text(encoding="utf-8")):
            labels.verdicts[item["key"]] = Verdict(**item)
    return labels


def _rule(item: dict[str, object], status: str = "") -> Rule:
    lines = item.get("lines")
    return Rule(
        id=str(item["id"]),
        about=str(item.get("about", "")),
        key=str(item.get("key", "")),
        version=str(item.get("version", "")),
        status=status or str(item.get("status", "taught")),
        moments=[Moment.parse(str(m)) for m in item.get("moments", [])],  # type: ignore[attr-defined]
        lines=(int(lines[0]), int(lines[1])) if isinstance(lines, list) else None,
    )


def read_history(folder: Path) -> list[Version]:
    """The versions listed in `HISTORY.txt` (file, sha, commit time, subject), oldest first."""
    versions = []
    for line in (folder / "HISTORY.txt").read_text(encoding="utf-8").splitlines():
        parts = line.split(None, 3)
        if len(parts) < 3:
            continue
        stamp = datetime.strptime(parts[2], "%Y-%m-%dT%H:%M:%S%z")
        versions.append(Version(parts[0], parts[1], stamp, parts[3] if len(parts) > 3 else ""))
    return sorted(versions, key=lambda v: v.time)


def verdict_key(session: str, uuid: str, principle: str) -> str:
    """A hand verdict is keyed by where the ADD's evidence points and a digest of what it says."""
    digest = hashlib.sha256(" ".join(principle.split()).encode()).hexdigest()[:12]
    return f"{session}/{uuid}#{digest}"
