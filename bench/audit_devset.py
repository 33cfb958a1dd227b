"""Auditor quality on the labeled dev set: per-category precision and recall, false REMOVEs.

Each seed builds a real git project and a memory dir with planted stale, renamed, duplicate,
superseded, contradicting, relative-date, low-value, secret-bearing and defective entries among valid
ones (`consolidate.evaluate.audit_devset`), audits it and scores the findings against the labels.

    python bench/audit_devset.py              # 10 seeds
    python bench/audit_devset.py --seeds 3
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from consolidate.audit import audit_tree
from consolidate.evaluate.audit_devset import CATEGORIES, Score, build_devset, score
from consolidate.gitrepo import GitRepo
from memory_layout import load_memory_tree


def run(seeds: int, valid: int, planted: int) -> tuple[Score, int, int, float]:
    total, entries, labels, elapsed = Score(), 0, 0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            case = build_devset(Path(tmp) / str(seed), seed=seed, valid=valid, planted=planted)
            started = time.perf_counter()
            report = audit_tree(
                load_memory_tree(case.memory_dir),
                project_root=case.project,
                repo=GitRepo.find(case.project),
                project_claude_md=case.claude_md,
            )
            elapsed += time.perf_counter() - started
            total.add(score(report, case.labels))
            entries += report.entries_audited
            labels += sum(1 for label in case.labels if label.expected)
    return total, entries, labels, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--valid", type=int, default=120)
    parser.add_argument("--planted", type=int, default=4, help="instances of each planted problem per seed")
    args = parser.parse_args()
    result, entries, planted, elapsed = run(args.seeds, args.valid, args.planted)
    print(
        f"seeds: {args.seeds}; entries audited: {entries}; planted problems: {planted}; audit time: {elapsed:.2f} s"
    )
    print()
    print("| category | planted | found | false pos | precision | recall |")
    print("|---|---|---|---|---|---|")
    for category in CATEGORIES:
        precision, recall = result.precision(category), result.recall(category)
        print(
            f"| {category} | {result.tp[category] + result.fn[category]} | {result.tp[category]} | "
            f"{result.fp[category]} | {_pct(precision)} | {_pct(recall)} |"
        )
    tp, fp, fn = (sum(d.values()) for d in (result.tp, result.fp, result.fn))
    print(f"| all | {tp + fn} | {tp} | {fp} | {_pct(tp / (tp + fp))} | {_pct(tp / (tp + fn))} |")
    print()
    print(f"false REMOVEs: {len(result.false_removes)}")
    print(f"replacements missing the expected text: {len(result.bad_replacements)}")
    for line in result.false_removes + result.bad_replacements + result.false_positives[:20]:
        print(f"  {line}")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


if __name__ == "__main__":
    main()
