"""The backlog: learnings found but not yet applied, kept in our state dir until applied or rejected.

A learning waits here when the ADD cap left it out, when the person did not select it, or when `--yes`
skipped it (an L0 change needs confirmation) — once the sessions it came from are marked consolidated,
it is the only place it lives. Every dream puts the waiting learnings first; applying one (or finding
it already recorded) settles it; only an explicit reject retires it, and a rejected learning is
remembered so that it does not come back, however it is worded next time.

One JSON file per memory dir (`<state>/backlog/<key>/backlog.json`), written atomically by whoever
holds the memory dir's run lock:

    backlog = Backlog.load(settings)
    backlog.pending()             # waiting learnings, oldest first (Candidate models)
    backlog.keep([(c, "ADD cap 7")])   # add or refresh
    backlog.settle(ids)           # applied or already recorded: gone
    backlog.reject(ids)           # retired and remembered
    backlog.was_rejected(c)       # a candidate that says what a rejected learning said
    backlog.save()
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..fsutil import atomic_write
from ..models import Candidate
from ..plan import Plan
from ..settings import Settings
from .similarity import ALIKE, Index
from .titles import flat

FILE = "backlog.json"
MAX_REJECTED = 500  # the oldest rejections are forgotten past this many


def learning_id(candidate: Candidate) -> str:
    """A stable id for a learning on its layers (its trigger and principle, case and spacing ignored):
    the same rule for L0 and for L1 is two learnings, one may wait while the other is applied."""
    layers = ",".join(sorted(candidate.layers))
    text = f"{layers}\0{flat(candidate.trigger).casefold()}\0{flat(candidate.principle).casefold()}"
    return "L" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:11]


@dataclass
class Waiting:
    id: str
    candidate: Candidate
    reason: str
    since: str  # when it first waited (UTC ISO-8601)


@dataclass
class Backlog:
    path: Path
    waiting: dict[str, Waiting] = field(default_factory=dict)
    rejected: dict[str, str] = field(default_factory=dict)  # id -> the rejected learning's text
    recorded: dict[str, str] = field(default_factory=dict)  # id -> the entry a review found stating it
    problem: str = ""  # why the file could not be read (it is then left alone, never overwritten)

    @classmethod
    def load(cls, settings: Settings) -> Backlog:
        return cls.read(backlog_file(settings))

    @classmethod
    def read(cls, path: Path) -> Backlog:
        try:
            return cls.parse(path, path.read_bytes())
        except FileNotFoundError:
            return cls(path)
        except OSError as exc:
            return cls(path, problem=f"backlog {path} not read: {exc}")

    @classmethod
    def parse(cls, path: Path, raw: bytes) -> Backlog:
        """The backlog these bytes hold (kept at `path`)."""
        backlog = cls(path)
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            backlog.problem = f"backlog {path} not read: {exc}"
            return backlog
        for item in data.get("waiting", []) if isinstance(data, dict) else []:
            try:
                candidate = Candidate.model_validate(item["candidate"])
                backlog.waiting[item["id"]] = Waiting(item["id"], candidate, item["reason"], item["since"])
            except (KeyError, TypeError, ValidationError):
                continue  # one unreadable item does not take the others down
        rejected = data.get("rejected", {}) if isinstance(data, dict) else {}
        backlog.rejected = {str(k): str(v) for k, v in rejected.items()} if isinstance(rejected, dict) else {}
        recorded = data.get("recorded", {}) if isinstance(data, dict) else {}
        backlog.recorded = {str(k): str(v) for k, v in recorded.items()} if isinstance(recorded, dict) else {}
        return backlog

    def pending(self) -> list[Candidate]:
        """The waiting learnings, oldest first."""
        return [w.candidate for w in sorted(self.waiting.values(), key=lambda w: w.since)]

    def __len__(self) -> int:
        return len(self.waiting)

    def keep(self, learnings: list[tuple[Candidate, str]]) -> None:
        """Let these learnings wait (a learning already waiting keeps its place)."""
        now = _now()
        for candidate, reason in learnings:
            key = learning_id(candidate)
            if key in self.rejected:
                continue
            since = self.waiting[key].since if key in self.waiting else now
            self.waiting[key] = Waiting(key, candidate, reason, since)

    def settle(self, ids: list[str]) -> None:
        """Applied, or already recorded: these no longer wait."""
        for key in ids:
            self.waiting.pop(key, None)

    def reject(self, learnings: list[Candidate]) -> None:
        """Retire these learnings for good: they are remembered and never proposed again."""
        for candidate in learnings:
            key = learning_id(candidate)
            self.waiting.pop(key, None)
            self.rejected[key] = f"{flat(candidate.trigger)} {flat(candidate.principle)}".strip()
        while len(self.rejected) > MAX_REJECTED:
            self.rejected.pop(next(iter(self.rejected)))

    def was_rejected(self, candidate: Candidate) -> bool:
        """The candidate is a rejected learning, in these words or others that say the same."""
        if learning_id(candidate) in self.rejected:
            return True
        index = Index(self.rejected.values())
        score, _ = index.most_alike(f"{candidate.trigger} {candidate.principle}")
        return score >= ALIKE

    def record(
        self, plan: Plan, *, done: set[str], rejected: set[str], marked: bool, settled: list[str]
    ) -> None:
        """What became of a plan's learnings once reviewed: applied ones (`done` proposal ids) and those
        set aside as already recorded are settled, rejected ones retired; when the sessions were marked
        consolidated (`marked`), every other learning — unselected, skipped, past the cap — waits here."""
        self.settle(settled)
        if marked:  # the waiting learnings this plan took up are now its proposals or its backlog
            self.settle(plan.from_backlog)
        states: dict[str, tuple[Candidate, list[str]]] = {}
        for proposal in plan.proposals:
            extra = proposal.model_extra or {}
            key, learning = extra.get("learning_id"), candidate_of(extra.get("learning"))
            if not key or learning is None:
                continue
            state = (
                "done" if proposal.id in done
                else "rejected" if proposal.id in rejected
                else "recorded" if proposal.skipped is not None
                else "waiting"
            )  # fmt: skip
            states.setdefault(str(key), (learning, []))[1].append(state)
            matched = (proposal.skipped or {}).get("matched") if state == "recorded" else None
            if isinstance(matched, dict) and matched.get("entry"):
                self.recorded[str(key)] = str(matched["entry"])  # what states it, for the next review
        while len(self.recorded) > MAX_REJECTED:
            self.recorded.pop(next(iter(self.recorded)))
        for key, (learning, seen) in states.items():
            if "waiting" in seen:  # one of its layers was not applied: the learning waits, whole
                if marked:
                    self.keep([(learning, "not applied")])
            elif "rejected" in seen and "done" not in seen:
                self.reject([learning])
            else:
                self.settle([key])
        if marked:
            self.keep(
                [
                    (c, str(item.get("reason", "")))
                    for item in plan.backlog
                    if (c := candidate_of(item.get("learning")))
                ]
            )

    def save(self) -> None:
        if self.problem:
            return  # never overwrite a file we could not read
        data: dict[str, Any] = {
            "version": 1,
            "waiting": [
                {
                    "id": w.id,
                    "reason": w.reason,
                    "since": w.since,
                    "candidate": w.candidate.model_dump(mode="json"),
                }
                for w in self.waiting.values()
            ],
            "rejected": self.rejected,
            "recorded": self.recorded,
        }
        atomic_write(self.path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))


def backlog_file(settings: Settings) -> Path:
    return settings.run_dir("backlog") / FILE


def read_bytes(path: Path) -> bytes | None:
    """The backlog file's bytes before a run changes it (None when there is none yet), for the journal."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def merge_back(path: Path, before: bytes | None) -> bool:
    """Undo a run's change to a backlog that changed again since (a reject of a saved plan, which
    changes no memory file): every learning that waited before the run waits again unless a later
    decision rejected it, and the later decisions stay. True when the file changed."""
    current = Backlog.read(path)
    previous = Backlog.parse(path, before) if before is not None else Backlog(path)
    if current.problem or previous.problem:
        return False  # never overwrite a file we could not read
    back = {
        k: w for k, w in previous.waiting.items() if k not in current.waiting and k not in current.rejected
    }
    if not back:
        return False
    current.waiting.update(back)
    current.save()
    return True


def candidate_of(data: Any) -> Candidate | None:
    """The learning a plan records (its `learning` field), None when it is not one."""
    try:
        return Candidate.model_validate(data) if isinstance(data, dict) else None
    except ValidationError:
        return None


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
