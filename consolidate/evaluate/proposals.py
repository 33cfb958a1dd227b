"""Score a plan's proposals against a scenario's labels: which planted problems they fix, which valid
memories they would remove, which planted signals became ADDs, and whether any secret got in."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..models import FINDING_CATEGORIES
from ..plan import Plan, Proposal
from ..secrets import find_secrets, has_secret
from .audit_devset import Label
from .discover_devset import DevSet

RETIREMENT_CATEGORIES = FINDING_CATEGORIES


@dataclass
class ProposalScore:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)
    planted: Counter[str] = field(default_factory=Counter)
    false_removes: list[str] = field(default_factory=list)
    secrets_leaked: int = 0
    adds_true: int = 0
    adds_false: int = 0
    adds_possible: int = 0

    def add(self, other: ProposalScore) -> None:
        for mine, theirs in (
            (self.tp, other.tp),
            (self.fp, other.fp),
            (self.found, other.found),
            (self.planted, other.planted),
        ):
            mine.update(theirs)
        self.false_removes += other.false_removes
        self.secrets_leaked += other.secrets_leaked
        self.adds_true += other.adds_true
        self.adds_false += other.adds_false
        self.adds_possible += other.adds_possible


def touched(proposal: Proposal, labels: list[Label]) -> tuple[list[Label], list[Label]]:
    """(labels the proposal changes, labels it removes)."""
    changed: list[Label] = []
    removed: list[Label] = []
    for change in proposal.changes:
        data: dict[str, Any] = change.model_dump()
        op, file = data["op"], data["file"]
        for label in labels:
            same_file = label.file == file
            if op == "drop_entry" and same_file and _same(label.entry, data["text"]):
                removed.append(label)
            elif op == "replace_entry" and same_file and _same(label.entry, data["old"]):
                changed.append(label)
            elif (
                op == "replace_text"
                and same_file
                and label.entry.strip()
                and label.entry.strip() in data["old"]
            ):
                (removed if not data["new"].strip() else changed).append(label)
            elif op == "trash_file" and (label.file == file or f"]({file})" in label.entry):
                removed.append(label)
            elif op == "redact_secrets" and same_file and label.expected == "SECRET":
                changed.append(label)
    return changed, removed


def _may_remove(proposal: Proposal, label: Label) -> bool:
    """Removable by its label, or the absorbed side of a MERGE of the very problem it was planted as."""
    return label.removable or (proposal.action == "MERGE" and label.expected == proposal.category == "MERGE")


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).lstrip("-*+ ") == " ".join(b.split()).lstrip("-*+ ")


def score_plan(plan: Plan, labels: list[Label], sessions: DevSet, max_add: int) -> ProposalScore:
    result = ProposalScore()
    groups = {(lab.group or f"{lab.file}:{lab.line}", lab.expected) for lab in labels if lab.expected}
    result.planted.update(category for _, category in groups)
    found: set[tuple[str, str]] = set()
    for proposal in plan.proposals:
        if has_secret(proposal.model_dump_json()):
            result.secrets_leaked += 1
        if proposal.action == "ADD":
            continue
        changed, removed = touched(proposal, labels)
        hits = [lab for lab in changed + removed if lab.expected == proposal.category]
        if proposal.category in RETIREMENT_CATEGORIES and (changed or removed):
            (result.tp if hits else result.fp)[proposal.category] += 1
        found.update((lab.group or f"{lab.file}:{lab.line}", lab.expected) for lab in hits)
        result.false_removes += [
            f"{proposal.id} {proposal.category}: {lab.entry[:80]}"
            for lab in removed
            if not _may_remove(proposal, lab)
        ]
    result.found.update(category for _, category in groups & found)
    _score_adds(plan, sessions, max_add, result)
    result.secrets_leaked += _planted_secrets_in(plan, labels)
    return result


def _score_adds(plan: Plan, sessions: DevSet, max_add: int, result: ProposalScore) -> None:
    anchors = {p.anchor: (p.group or p.anchor) for p in sessions.planted}
    lessons: set[str] = set()
    for proposal in plan.proposals:
        if proposal.action != "ADD":
            continue
        uuids = [str((e.model_extra or {}).get("uuid", "")) for e in proposal.evidence]
        hit = {anchors[uuid] for uuid in uuids if uuid in anchors}
        if hit:
            result.adds_true += 1
            lessons |= hit
        else:
            result.adds_false += 1
    result.adds_possible += min(max_add, len(set(anchors.values())))


def _planted_secrets_in(plan: Plan, labels: list[Label]) -> int:
    text = plan.model_dump_json()
    secrets = {lab.entry[m.start : m.end] for lab in labels for m in find_secrets(lab.entry)}
    return sum(1 for secret in secrets if secret and secret in text)
