"""A labeled dev set for the auditor: a seeded generator of a real git project and a memory dir in
which stale, renamed, duplicate, superseded, contradicting, relative-date, low-value, secret-bearing
and hygiene-defective entries are planted among many valid ones. `score` measures an audit against
the labels: per-category precision and recall, and the count of false REMOVEs (the number that must
stay at zero).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from memory_layout import load_memory_tree

from ..models import FINDING_CATEGORIES, AuditReport, Finding
from . import audit_devset_plants as plants
from . import audit_devset_text as text

CATEGORIES = FINDING_CATEGORIES
BASE_DATE = "2026-03-02T10:00:00+00:00"
CHANGE_DATE = "2026-04-06T10:00:00+00:00"
MEMORY_DATE = "2026-05-12T09:00:00+00:00"


@dataclass
class Label:
    """What one planted entry is, and what the auditor should say about it."""

    kind: str
    file: str
    entry: str  # the entry as written, with its list marker
    expected: str = ""  # the category it should get ("" for a valid entry)
    removable: bool = False  # whether a REMOVE of it is acceptable
    group: str = ""  # entries planted together (a duplicate pair, a superseded pair)
    want: str = ""  # a string the replacement must contain (renames, version fixes)
    line: int = 0


@dataclass
class DevCase:
    project: Path
    memory_dir: Path
    claude_md: Path
    labels: list[Label] = field(default_factory=list)


@dataclass
class _Plan:
    """The project and memory being generated."""

    rng: random.Random
    pkg: str
    modules: list[str]
    entries: list[tuple[str, Label]] = field(default_factory=list)  # (section, label)
    topics: dict[str, str] = field(default_factory=dict)
    claude: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # initial commit
    changes: dict[str, str | None] = field(default_factory=dict)  # second commit (None deletes)
    renames: dict[str, str] = field(default_factory=dict)
    scripts: dict[str, str] = field(default_factory=dict)  # extra npm scripts of the first commit
    script_renames: dict[str, str] = field(default_factory=dict)

    def add(self, section: str, label: Label) -> None:
        """Add an entry; one that would repeat an existing entry is dropped (except planted duplicates)."""
        if label.kind != "duplicate" and any(e.entry == label.entry for _, e in self.entries):
            return
        self.entries.append((section, label))


def build_devset(
    root: Path, *, seed: int = 0, valid: int = 120, planted: int = 4, filler_files: int = 0
) -> DevCase:
    """Write a project (a real git repo) and its memory dir under `root`; return them with labels."""
    rng = random.Random(seed)
    modules = rng.sample(text.NOUNS, 24)
    plan = _Plan(rng, rng.choice(text.PACKAGES), modules)
    _project_files(plan, filler_files)
    for _ in range(planted):
        for planter in plants.PLANTERS:
            planter(plan)
    for index in range(valid):
        before = len(plan.entries)
        for _ in range(20):
            plants.VALID[index % len(plants.VALID)](plan)
            if len(plan.entries) > before:
                break
    plan.files["package.json"] = text.package_json(plan.scripts)
    renamed = {plan.script_renames.get(k, k): v for k, v in plan.scripts.items()}
    plan.changes["package.json"] = text.package_json(renamed)
    rng.shuffle(plan.entries)
    plants.order_pairs(plan.entries)
    case = DevCase(root / "project", root / "memory", root / "project" / "CLAUDE.md")
    _write_repo(case.project, plan)
    case.labels = _write_memory(case.memory_dir, plan)
    return case


def _project_files(plan: _Plan, filler: int) -> None:
    for module in plan.modules:
        plan.files[f"src/{plan.pkg}/{module}.py"] = text.module_source(module)
    plan.files.update(text.manifests(plan.pkg))
    for index in range(filler):
        plan.files[f"src/{plan.pkg}/gen/part_{index // 500:02d}/mod_{index:05d}.py"] = (
            f"def generated_{index:05d}(value):\n    return value + {index}\n"
        )


def _git(cwd: Path, *args: str, date: str = BASE_DATE) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    identity = [
        "-c",
        "user.name=Dev Set",
        "-c",
        "user.email=devset@example.com",
        "-c",
        "commit.gpgsign=false",
    ]
    subprocess.run(["git", *identity, *args], cwd=cwd, env=env, check=True, capture_output=True)


def _write_files(base: Path, files: dict[str, str]) -> None:
    for relative, content in files.items():
        target = base / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def _write_repo(project: Path, plan: _Plan) -> None:
    project.mkdir(parents=True, exist_ok=True)
    _git(project, "init", "-q", "-b", "main")
    _write_files(project, plan.files)
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "Initial import")
    for old, new in plan.renames.items():
        _git(project, "mv", old, new, date=CHANGE_DATE)
    for relative, content in plan.changes.items():
        if content is None:
            _git(project, "rm", "-q", relative, date=CHANGE_DATE)
        else:
            _write_files(project, {relative: content})
    (project / "CLAUDE.md").write_text("# Project guide\n\n" + "".join(f"- {line}\n" for line in plan.claude))
    _git(project, "add", "-A", date=CHANGE_DATE)
    _git(project, "commit", "-q", "-m", "Restructure modules and scripts", date=CHANGE_DATE)


def _write_memory(memory: Path, plan: _Plan) -> list[Label]:
    """MEMORY.md (sections of at most 20 entries; larger ones as cluster files) and topic files."""
    memory.mkdir(parents=True, exist_ok=True)
    sections: dict[str, list[Label]] = {}
    for section, label in plan.entries:
        sections.setdefault(section, []).append(label)
    index = ["# Project Memory", ""]
    for section, labels in sections.items():
        if len(labels) > 20:
            slug = section.lower().replace(" ", "-")
            cluster = f"clusters/{slug}.md"
            body = [f"# {section}", "", *(lab.entry for lab in labels), ""]
            _write_files(memory, {cluster: "\n".join(body)})
            for label in labels:
                label.file = cluster
            index += [
                f"## {section}",
                f"- **When working on {section.lower()}:** open its index. → [index]({cluster})",
                "",
            ]
        else:
            for label in labels:
                label.file = "MEMORY.md"
            index += [f"## {section}", *(label.entry for label in labels), ""]
    _write_files(memory, {"MEMORY.md": "\n".join(index), **plan.topics})
    labels = [label for _, label in plan.entries]
    _locate(memory, labels)
    _commit_memory(memory)
    return labels


def _locate(memory: Path, labels: list[Label]) -> None:
    tree = load_memory_tree(memory)
    for label in labels:
        doc = tree.files[label.file].document
        assert doc is not None
        entry = doc.find_entry(label.entry)
        assert entry is not None, label.entry
        label.line = entry.line


def _commit_memory(memory: Path) -> None:
    """The memory dir is its own repo, so relative dates anchor on the commit date of each line."""
    _git(memory, "init", "-q", "-b", "main")
    _git(memory, "add", "-A", date=MEMORY_DATE)
    _git(memory, "commit", "-q", "-m", "Memory snapshot", date=MEMORY_DATE)


# -- scoring ----------------------------------------------------------------------------------


@dataclass
class Score:
    tp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    fp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    fn: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    false_removes: list[str] = field(default_factory=list)
    bad_replacements: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)

    def precision(self, category: str) -> float | None:
        found = self.tp[category] + self.fp[category]
        return self.tp[category] / found if found else None

    def recall(self, category: str) -> float | None:
        planted = self.tp[category] + self.fn[category]
        return self.tp[category] / planted if planted else None

    def add(self, other: Score) -> None:
        for category in CATEGORIES:
            self.tp[category] += other.tp[category]
            self.fp[category] += other.fp[category]
            self.fn[category] += other.fn[category]
        self.false_removes += other.false_removes
        self.bad_replacements += other.bad_replacements
        self.false_positives += other.false_positives

    def to_dict(self) -> dict[str, object]:
        rows = {
            c: {"precision": self.precision(c), "recall": self.recall(c), "planted": self.tp[c] + self.fn[c]}
            for c in CATEGORIES
        }
        return {
            "categories": rows,
            "false_removes": len(self.false_removes),
            "bad_replacements": len(self.bad_replacements),
        }


def score(report: AuditReport, labels: list[Label]) -> Score:
    """Compare findings with labels: a group is found when a finding of its category names any of its entries."""
    at = {(label.file, label.line): label for label in labels}
    result = Score()
    found: set[tuple[str, str]] = set()  # (group or entry id, category)
    for finding in report.findings:
        touched = _touched(finding, at, labels)
        if not touched:
            continue  # whole-file findings (over budget, crowded section) are not scored
        hits = [lab for lab in touched if lab.expected == finding.category]
        if hits:
            for label in hits:
                found.add((label.group or f"{label.file}:{label.line}", finding.category))
            _check_replacement(finding, hits, result)
        else:
            result.fp[finding.category] += 1
            result.false_positives.append(f"{finding.category} {finding.action}: {finding.entry[:90]}")
        subject = at.get((finding.file, finding.line))
        if finding.action == "REMOVE" and subject is not None and not subject.removable:
            result.false_removes.append(f"{subject.kind}: {subject.entry}")
    planted = {(lab.group or f"{lab.file}:{lab.line}", lab.expected) for lab in labels if lab.expected}
    for key in planted:
        if key in found:
            result.tp[key[1]] += 1
        else:
            result.fn[key[1]] += 1
    return result


def _touched(finding: Finding, at: dict[tuple[str, int], Label], labels: list[Label]) -> list[Label]:
    touched = [at[(finding.file, finding.line)]] if (finding.file, finding.line) in at else []
    for related in finding.related:
        touched += [lab for lab in labels if lab.file == related.file and lab.entry == related.entry]
    if finding.topic_file:
        touched += [lab for lab in labels if lab.kind == "topic-merge" and finding.topic_file in lab.entry]
        touched += [lab for lab in labels if lab.kind == "topic-merge" and finding.file in lab.entry]
    return touched


def _check_replacement(finding: Finding, hits: list[Label], result: Score) -> None:
    for label in hits:
        if label.want and label.want not in finding.replacement:
            result.bad_replacements.append(f"{label.kind}: wanted {label.want!r} in {finding.replacement!r}")


def describe(result: Score) -> str:
    return json.dumps(result.to_dict(), indent=2)
