"""`consolidate share --check`: what must never be committed in the team folder — a secret, a pointer to
a file that is not there, an index over what Claude Code loads, a home path, transcript text or a file
that is not Markdown. For pre-commit hooks and CI: it reads the repository only."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TextIO

from memory_layout import INDEX, TEAM_DIR, MemoryTree, ProjectLayout, load_memory_tree, measure_index
from memory_layout.health import check_tree
from memory_layout.pointers import find_links

from ..secrets import find_secrets
from .layer import imports_team, team_units
from .privacy import holds_transcript, home_path

WARNINGS = ("bare-pointer", "orphan-topic", "long-entry", "crowded-section", "broken-frontmatter")


@dataclass(frozen=True)
class Problem:
    kind: str  # secret | dangling-pointer | over-budget | home-path | transcript | not-markdown | unreadable
    file: str  # relative to the repository root
    line: int
    detail: str


@dataclass
class CheckResult:
    folder: str
    entries: int = 0
    topic_files: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


def check_team(layout: ProjectLayout) -> CheckResult:
    folder = layout.team_dir
    result = CheckResult(TEAM_DIR)
    if folder is None or not folder.is_dir():
        return result
    tree = load_memory_tree(folder)
    result.entries, result.topic_files = len(team_units(tree)), len(tree.topic_files())
    result.problems += _every_file(folder)
    result.problems += _links(tree)
    if tree.index is not None:
        budget = measure_index(tree.index.data)
        if budget.over_budget:
            detail = f"{budget.lines} lines, {budget.bytes} bytes (Claude Code loads {budget.budget_lines} lines, {budget.budget_bytes} bytes)"
            result.problems.append(Problem("over-budget", _name(INDEX), 0, detail))
    for defect in check_tree(tree):
        if defect.kind in WARNINGS:
            result.warnings.append(Problem(defect.kind, _name(defect.file), defect.line, defect.detail))
        elif defect.kind == "unreadable":
            result.problems.append(Problem("unreadable", _name(defect.file), defect.line, defect.detail))
    claude_md = layout.project_claude_md
    text = claude_md.read_text(encoding="utf-8", errors="replace") if claude_md.is_file() else ""
    if tree.index is not None and not imports_team(text):
        detail = f"CLAUDE.md has no `@{TEAM_DIR}/{INDEX}` line: Claude Code does not load the team memory"
        result.warnings.append(Problem("not-imported", "CLAUDE.md", 0, detail))
    result.problems.sort(key=lambda p: (p.file, p.line, p.kind))
    return result


def _name(relative: str) -> str:
    return f"{TEAM_DIR}/{relative}"


def _every_file(folder: Path) -> list[Problem]:
    """Secrets in every file (whatever it is), then home paths and transcript text in Markdown."""
    problems = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for filename in sorted(filenames):
            path = Path(dirpath, filename)
            name = _name(path.relative_to(folder).as_posix())
            try:
                text = path.read_bytes().decode("utf-8", "replace")
            except OSError as exc:
                problems.append(Problem("unreadable", name, 0, f"cannot read: {exc.strerror or exc}"))
                continue
            for secret in find_secrets(text):
                line = text.count("\n", 0, secret.start) + 1
                detail = f"a {secret.kind}: remove it, and rotate it if it is real"
                problems.append(Problem("secret", name, line, detail))
            if not filename.lower().endswith(".md"):
                problems.append(Problem("not-markdown", name, 0, "only Markdown memory belongs here"))
                continue
            found = home_path(_without_secrets(text), Path.home())
            if found is not None:
                detail = f"{found[1]}…: a path in a home directory means nothing in another clone"
                problems.append(Problem("home-path", name, found[0], detail))
            if holds_transcript(text):
                problems.append(
                    Problem("transcript", name, 0, "session transcript text does not belong here")
                )
    return problems


def _without_secrets(text: str) -> str:
    """The text with its secrets blanked, so one finding is not reported twice."""
    for secret in reversed(find_secrets(text)):
        text = text[: secret.start] + " " * (secret.end - secret.start) + text[secret.end :]
    return text


def _links(tree: MemoryTree) -> list[Problem]:
    """Every link of every team file that leads nowhere (index, cluster and topic files alike)."""
    problems = []
    for name, file in sorted(tree.files.items()):
        if file.document is None:
            continue
        text = file.document.render()
        for link in find_links(text):
            if tree.resolve_link(name, link.file) is None:
                line = (
                    text.count("\n", 0, text.find(f"]({link.target}")) + 1
                    if f"]({link.target}" in text
                    else 0
                )
                problems.append(Problem("dangling-pointer", _name(name), line, f"{link.file} does not exist"))
    return problems


def print_check(result: CheckResult, out: TextIO, *, json_output: bool = False) -> None:
    if json_output:
        out.write(json.dumps(asdict(result), indent=2, ensure_ascii=False) + "\n")
        return
    for problem in result.problems:
        out.write(f"{problem.file}:{problem.line}: {problem.kind}: {problem.detail}\n")
    for warning in result.warnings:
        out.write(f"{warning.file}:{warning.line}: warning: {warning.kind}: {warning.detail}\n")
    if result.problems:
        out.write(f"team memory: {len(result.problems)} problem(s); fix them before committing\n")
    elif result.entries or result.topic_files:
        out.write(f"team memory OK: {result.entries} entries, {result.topic_files} topic files\n")
    else:
        out.write(f"no team memory in {result.folder}: nothing to check\n")
