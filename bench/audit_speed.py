"""Auditor speed: 2,000 entries against a repository of 10,000 tracked files, with the time of a
plain `git grep` for the same symbols measured in the same run as the baseline.

The entries name real files and functions of the repository (and a tenth name ones that never
existed, which sends the auditor through the history), plus the dev set's planted problems.

    python bench/audit_speed.py
    python bench/audit_speed.py --files 2000 --entries 500   # quick
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from pathlib import Path

from consolidate.audit import audit_tree
from consolidate.audit.claims import extract_claims
from consolidate.evaluate.audit_devset import build_devset
from consolidate.gitrepo import GitRepo
from memory_layout import load_memory_tree


def add_entries(memory: Path, pkg: str, files: int, count: int, rng: random.Random) -> None:
    """A cluster file of `count` entries about the generated modules; MEMORY.md points at it."""
    lines = ["# Generated modules", ""]
    for index in range(count):
        number = rng.randrange(files)
        path = f"src/{pkg}/gen/part_{number // 500:02d}/mod_{number:05d}.py"
        name = f"generated_{number:05d}" if index % 10 else f"generated_{number:05d}_gone"
        lines.append(
            f"- **When changing module {number}:** `{path}` defines `{name}()`, used by report {index}."
        )
    (memory / "clusters").mkdir(exist_ok=True)
    (memory / "clusters" / "generated.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    index = memory / "MEMORY.md"
    pointer = "\n## Generated\n- **When working on generated modules:** open the index. → [index](clusters/generated.md)\n"
    index.write_text(index.read_text(encoding="utf-8") + pointer, encoding="utf-8")


def git_grep_baseline(project: Path, symbols: set[str]) -> float:
    patterns = project.parent / "patterns.txt"
    patterns.write_text("\n".join(sorted(symbols)) + "\n", encoding="utf-8")
    started = time.perf_counter()
    subprocess.run(
        ["git", "grep", "-I", "-h", "-o", "-w", "-F", "-f", str(patterns)],
        cwd=project,
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--entries", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        case = build_devset(Path(tmp), seed=1, valid=60, planted=1, filler_files=args.files)
        pkg = next(p.name for p in (case.project / "src").iterdir())
        add_entries(case.memory_dir, pkg, args.files, args.entries - 60, random.Random(1))
        build = time.perf_counter() - started
        repo = GitRepo.find(case.project)
        assert repo is not None
        tree = load_memory_tree(case.memory_dir)
        started = time.perf_counter()
        report = audit_tree(tree, project_root=case.project, repo=repo, project_claude_md=case.claude_md)
        audit_time = time.perf_counter() - started
        symbols = {
            part
            for f in tree.documents().values()
            for e in f.entries()
            for c in extract_claims(e.content)
            if c.kind == "symbol"
            for part in c.value.split(".")
        }
        baseline = git_grep_baseline(case.project, symbols)
        tracked = len(GitRepo.find(case.project).tracked_files)  # type: ignore[union-attr]
    print(
        f"repository: {tracked} tracked files; memory: {report.entries_audited} entries (built in {build:.1f} s)"
    )
    print(f"audit: {audit_time:.2f} s, {len(report.findings)} findings")
    print(f"baseline, one plain git grep of the same {len(symbols)} symbols: {baseline:.3f} s")
    print(f"ratio audit / git grep: {audit_time / baseline:.1f}x; target: audit under 10 s")


if __name__ == "__main__":
    main()
