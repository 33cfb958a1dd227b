"""The auditor on real instruction files: every CLAUDE.md / AGENTS.md of the corpus (the current
ones and their committed history), each audited as if it were a memory index, plus the corpus
memory dirs. It must not crash; it prints what it flags per category and a few examples.

    python bench/audit_corpus.py                       # ../shared/corpus from the project root
    python bench/audit_corpus.py --corpus PATH --examples 3
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from consolidate.audit import audit_tree
from consolidate.evaluate.audit_devset import CATEGORIES
from consolidate.models import Finding
from memory_layout import load_memory_tree

DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"


def instruction_files(corpus: Path) -> list[Path]:
    names = ("CLAUDE.md", "AGENTS.md")
    found = [
        p for p in (corpus / "claude_md").rglob("*.md") if p.name in names or p.name.split("@")[0] in names
    ]
    found += [p for p in corpus.glob("*/CLAUDE.md")]
    return sorted(found)


def audit_as_memory(source: Path, work: Path) -> tuple[list[Finding], int, list[str]]:
    """Copy one instruction file into a fresh memory dir as MEMORY.md and audit it (no git project)."""
    memory = work / "memory"
    shutil.rmtree(memory, ignore_errors=True)
    memory.mkdir(parents=True)
    shutil.copyfile(source, memory / "MEMORY.md")
    project = source.parent if (source.parent / "LICENSE").exists() else None
    report = audit_tree(load_memory_tree(memory), project_root=project, repo=None)
    return report.findings, report.entries_audited, report.notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--examples", type=int, default=2)
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"skipped: the shared corpus is not at {args.corpus.resolve()} (pass --corpus PATH)")
        return
    counts: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    files = instruction_files(args.corpus)
    entries, started = 0, time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for source in files:
            findings, audited, _ = audit_as_memory(source, Path(tmp))
            entries += audited
            for finding in findings:
                counts[finding.category] += 1
                actions[f"{finding.category}/{finding.action}"] += 1
                bucket = examples.setdefault(finding.category, [])
                if len(bucket) < args.examples:
                    name = source.relative_to(args.corpus)
                    bucket.append(
                        f"{name}:{finding.line} [{finding.action}] {finding.entry[:110]!r} — {finding.evidence[:140]}"
                    )
        for memory in sorted(args.corpus.glob("*/memory")):
            report = audit_tree(load_memory_tree(memory), project_root=None, repo=None)
            print(
                f"{memory.relative_to(args.corpus)}: {report.entries_audited} entries, {len(report.findings)} findings"
            )
    elapsed = time.perf_counter() - started
    print(f"instruction files audited: {len(files)}; entries: {entries}; time: {elapsed:.1f} s; crashes: 0")
    print()
    print("| category | findings | by action |")
    print("|---|---|---|")
    for category in CATEGORIES:
        split = ", ".join(
            f"{k.split('/')[1]} {v}" for k, v in sorted(actions.items()) if k.startswith(category + "/")
        )
        print(f"| {category} | {counts[category]} | {split} |")
    for category, lines in examples.items():
        print(f"\n{category}:")
        for line in lines:
            print(f"  {line}")


if __name__ == "__main__":
    main()
