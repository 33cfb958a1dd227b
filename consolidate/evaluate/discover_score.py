"""Score a `DiscoveryReport` against the labels of a dev set."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..models import Candidate, DiscoveryReport
from .discover_devset import KINDS, DevSet, Planted


@dataclass
class Evaluation:
    true_positives: Counter[str] = field(default_factory=Counter)  # by candidate kind
    false_positives: Counter[str] = field(default_factory=Counter)
    found: Counter[str] = field(default_factory=Counter)  # planted signals found, by planted kind
    planted: Counter[str] = field(default_factory=Counter)
    found_by_language: Counter[str] = field(default_factory=Counter)
    planted_by_language: Counter[str] = field(default_factory=Counter)
    noise_hits: Counter[str] = field(default_factory=Counter)
    layer_hits: int = 0
    layer_total: int = 0
    repeat_merged: bool = False
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)

    def precision(self, kind: str) -> float | None:
        total = self.true_positives[kind] + self.false_positives[kind]
        return self.true_positives[kind] / total if total else None

    def recall(self, kind: str) -> float | None:
        return self.found[kind] / self.planted[kind] if self.planted[kind] else None

    def overall(self) -> tuple[float, float]:
        tp, fp = sum(self.true_positives.values()), sum(self.false_positives.values())
        found, planted = sum(self.found.values()), sum(self.planted.values())
        return (tp / (tp + fp) if tp + fp else 0.0), (found / planted if planted else 0.0)

    def to_dict(self) -> dict[str, Any]:
        precision, recall = self.overall()
        return {
            "precision": round(precision, 3),
            "recall": round(recall, 3),
            "by_kind": {
                k: {
                    "precision": _round(self.precision(k)),
                    "recall": _round(self.recall(k)),
                    "planted": self.planted[k],
                    "found": self.found[k],
                    "false_positives": self.false_positives[k],
                }
                for k in KINDS
            },  # fmt: skip
            "recall_by_language": {
                lang: round(self.found_by_language[lang] / n, 3)
                for lang, n in sorted(self.planted_by_language.items())
            },  # fmt: skip
            "noise_false_positives": dict(self.noise_hits),
            "layer_accuracy": f"{self.layer_hits}/{self.layer_total}",
            "repeat_merged": self.repeat_merged,
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _mentions(candidate: Candidate, key: str) -> bool:
    text = f"{candidate.principle}\n{candidate.detail}".lower()
    return key.lower() in text


def evaluate(report: DiscoveryReport, devset: DevSet) -> Evaluation:
    result = Evaluation()
    anchors = {p.anchor: p for p in devset.planted}
    noise_uuids = {n.uuid: n for n in devset.noise if n.uuid}
    for candidate in report.candidates:
        hits = [anchors[e.uuid] for e in candidate.evidence if e.uuid in anchors]
        if any(_mentions(candidate, p.key) for p in hits):
            result.true_positives[candidate.kind] += 1
            continue
        result.false_positives[candidate.kind] += 1
        result.false.append(f"{candidate.kind}: {candidate.principle}")
        for evidence in candidate.evidence:
            if evidence.uuid in noise_uuids:
                result.noise_hits[noise_uuids[evidence.uuid].kind] += 1
        for noise in devset.noise:
            if noise.forbidden and noise.forbidden.lower() in candidate.principle.lower():
                result.noise_hits[noise.kind] += 1
    _score_recall(report, devset, result)
    return result


def _score_recall(report: DiscoveryReport, devset: DevSet, result: Evaluation) -> None:
    by_anchor: dict[str, list[Candidate]] = defaultdict(list)
    for candidate in report.candidates:
        for evidence in candidate.evidence:
            by_anchor[evidence.uuid].append(candidate)
    for planted in devset.planted:
        result.planted[planted.kind] += 1
        result.planted_by_language[planted.language] += 1
        matches = [c for c in by_anchor.get(planted.anchor, []) if _mentions(c, planted.key)]
        if matches:
            result.found[planted.kind] += 1
            result.found_by_language[planted.language] += 1
        else:
            result.misses.append(f"{planted.kind}/{planted.language}: {planted.key}")
        if planted.layer:
            result.layer_total += 1
            result.layer_hits += any(c.layer == planted.layer for c in matches)
    result.repeat_merged = _repeat_merged(report, [p for p in devset.planted if p.group == "repeat"])


def _repeat_merged(report: DiscoveryReport, group: list[Planted]) -> bool:
    anchors = {p.anchor for p in group}
    for candidate in report.candidates:
        sessions = {e.session for e in candidate.evidence if e.uuid in anchors}
        if len(sessions) >= 2 and candidate.frequency >= 2:
            return True
    return False
