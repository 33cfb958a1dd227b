"""Check claims against the project: the file system and tracked files for paths, one `git grep` for
symbols, the manifests for versions and scripts, and git history for what was renamed or deleted.

All claims of all units are checked in batches, so a large memory costs a handful of git calls.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property
from pathlib import Path
from typing import Literal

from ..gitrepo import Commit, GitRepo, PathEvent, Removal
from .claims import Claim
from .manifests import Manifests, read_manifests
from .similar import word_set
from .versions import compatible, restate

Status = Literal["valid", "stale", "renamed", "contradicted", "unknown"]
DOC_EXCLUDES = ("**/CLAUDE.md", "**/AGENTS.md", "**/CLAUDE.local.md")
# A symbol lives in code: notes, changelogs and docs that still name a removed class keep it in no code.
PROSE_FILES = ("**/*.md", "**/*.mdx", "**/*.rst", "**/*.txt", "**/*.adoc")
_NPM_BUILTINS = word_set(
    "install i ci add remove rm uninstall update up upgrade exec dlx x create init publish link unlink why "
    "outdated audit config login logout pack version info view list ls prune rebuild dedupe cache store "
    "import patch licenses"
)


@dataclass(frozen=True)
class Check:
    claim: Claim
    status: Status
    evidence: str = ""
    new_text: str = ""  # for renamed / contradicted: what the claim's text should read
    commit: Commit | None = None


class Project:
    """The facts of one project, gathered lazily and shared by every check."""

    def __init__(self, root: Path | None, repo: GitRepo | None, excludes: Iterable[str] = ()) -> None:
        self.root = root
        self.repo = repo
        self.excludes = tuple(DOC_EXCLUDES) + tuple(excludes)

    @cached_property
    def tracked(self) -> frozenset[str]:
        return frozenset(self.repo.tracked_files) if self.repo else frozenset()

    @cached_property
    def suffixes(self) -> frozenset[str]:
        """Every trailing run of path components of every tracked file and directory."""
        found: set[str] = set()
        for path in self.tracked:
            parts = path.split("/")
            for start in range(len(parts)):
                found.add("/".join(parts[start:]))
                for end in range(start + 1, len(parts)):
                    found.add("/".join(parts[start:end]))
        return frozenset(found)

    @cached_property
    def manifests(self) -> Manifests:
        return read_manifests(self.root, self.tracked) if self.root else Manifests()

    @cached_property
    def events(self) -> tuple[PathEvent, ...]:
        return self.repo.path_events if self.repo else ()

    def exists(self, path: str) -> bool:
        if self.root is not None and not path.startswith("/") and ".." not in path.split("/"):
            try:
                if (self.root / path).exists():
                    return True
            except OSError:
                return False
        return path.rstrip("/") in self.suffixes

    @property
    def code_excludes(self) -> tuple[str, ...]:
        return self.excludes + PROSE_FILES

    def history_pathspecs(self, excludes: Iterable[str] | None = None) -> list[str]:
        return [".", *(f":(exclude,glob){p}" for p in (self.excludes if excludes is None else excludes))]


def check_claims(project: Project, claims: Iterable[Claim]) -> dict[Claim, Check]:
    """A check for every claim; claims that are not current, or unknowable, come back `unknown`."""
    claims = [c for c in dict.fromkeys(claims) if c.current]
    checks: dict[Claim, Check] = {}
    for claim in claims:
        if claim.kind == "version":
            checks[claim] = _check_version(project, claim)
        elif claim.kind in ("path", "glob"):
            checks[claim] = _check_path(project, claim)
    checks.update(_check_symbols(project, [c for c in claims if c.kind == "symbol"]))
    checks.update(_check_commands(project, [c for c in claims if c.kind == "command"]))
    return checks


# -- versions ---------------------------------------------------------------------------------


def _check_version(project: Project, claim: Claim) -> Check:
    allowed = project.manifests.versions.get(claim.value)
    if allowed is None:
        return Check(claim, "unknown")
    verdict = compatible(claim.version, allowed)
    source = project.manifests.where.get(claim.value, "the manifest")
    if verdict is None:
        return Check(claim, "unknown")
    if verdict:
        return Check(claim, "valid", f"{source}: {claim.value} {allowed.source}")
    fixed = restate(claim.version, allowed)
    new_text = claim.text.replace(claim.version, fixed) if fixed else ""
    return Check(claim, "contradicted", f"{source} requires {claim.value} {allowed.source}", new_text)


# -- paths ------------------------------------------------------------------------------------


def _check_path(project: Project, claim: Claim) -> Check:
    path = claim.value
    if path.startswith(("/", "~", "$")) or ".." in path.split("/") or not project.repo:
        return Check(claim, "valid" if project.exists(path) else "unknown")
    if claim.kind == "glob":
        return Check(claim, "valid" if _glob_matches(project, path) else "unknown")
    if project.exists(path):
        return Check(claim, "valid")
    return _path_fate(project, claim)


def _glob_matches(project: Project, pattern: str) -> bool:
    regex = glob_regex(pattern.rstrip("/"))
    return any(regex.fullmatch(s) for s in project.suffixes)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A shell glob as a regex over POSIX paths (`**` crosses directories, `*` does not)."""
    out, index = [], 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
        elif pattern.startswith("**", index):
            out.append(".*")
            index += 2
        else:
            char = pattern[index]
            out.append({"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char)))
            index += 1
    return re.compile("".join(out))


def _path_fate(project: Project, claim: Claim, depth: int = 0) -> Check:
    """What git history says happened to a path that is gone: renamed (to where) or deleted (when)."""
    path = claim.value.rstrip("/")
    event = _newest_event(project.events, path)
    if event is None:
        return _dir_fate(project, claim)
    if event.kind == "D":
        return Check(
            claim, "stale", f"{event.old} was deleted in {event.commit.describe()}", commit=event.commit
        )
    new = _same_shape(path, event.old, event.new)
    if project.exists(new) or depth >= 8:
        new_text = claim.text.replace(path, new)
        evidence = f"{event.old} was renamed to {event.new} in {event.commit.describe()}"
        return Check(claim, "renamed", evidence, new_text, event.commit)
    onward = _path_fate(project, Claim(claim.kind, new, new, 0, len(new)), depth + 1)
    if onward.status == "renamed":
        new_text = claim.text.replace(path, onward.new_text)
        return Check(claim, "renamed", f"{event.old} → {onward.evidence}", new_text, onward.commit)
    return Check(claim, onward.status, onward.evidence, commit=onward.commit)


def _newest_event(events: Iterable[PathEvent], path: str) -> PathEvent | None:
    return next((e for e in events if e.old == path or e.old.endswith("/" + path)), None)


def _same_shape(written: str, old: str, new: str) -> str:
    """The new path written the way the memory wrote the old one (full path or a trailing part)."""
    if written == old:
        return new
    depth = written.count("/") + 1
    return "/".join(new.split("/")[-depth:])


def _dir_fate(project: Project, claim: Claim) -> Check:
    path = claim.value.rstrip("/")
    inside = [e for e in project.events if e.old.startswith(path + "/") or f"/{path}/" in e.old]
    if not inside:
        return Check(claim, "unknown")
    renamed = Counter(_new_dir(path, e) for e in inside if e.kind == "R")
    target = next((d for d, _ in renamed.most_common() if d and project.exists(d)), None)
    commit = inside[0].commit
    if target is not None:
        evidence = f"{path}/ was moved to {target}/ in {commit.describe()}"
        return Check(claim, "renamed", evidence, claim.text.replace(path, target), commit)
    return Check(
        claim, "stale", f"everything under {path}/ was deleted, last in {commit.describe()}", commit=commit
    )


def _new_dir(path: str, event: PathEvent) -> str:
    at = event.old.find(path + "/") if event.old.startswith(path + "/") else event.old.find(f"/{path}/") + 1
    rest = event.old[at + len(path) + 1 :]
    if not event.new.endswith("/" + rest):
        return ""
    full = event.new[: -len(rest) - 1]
    return _same_shape(path, event.old[: at + len(path)], full)


# -- symbols ----------------------------------------------------------------------------------


def _symbol_parts(value: str) -> list[str]:
    return [p for p in re.split(r"[.]", value) if re.fullmatch(r"[A-Za-z_$][\w$]*", p) and len(p) > 1]


def _check_symbols(project: Project, claims: list[Claim]) -> dict[Claim, Check]:
    if not claims or not project.repo:
        return {c: Check(c, "unknown") for c in claims}
    words = {part for c in claims for part in _symbol_parts(c.value)}
    excludes = project.code_excludes
    present = project.repo.grep_words(words, exclude=excludes)
    missing = words - present
    removed = project.repo.removals(missing, project.history_pathspecs(excludes)) if missing else {}
    renamed = {w: _renamed_to(r) for w, r in removed.items()}
    still = project.repo.grep_words({n for n in renamed.values() if n}, exclude=excludes)
    checks: dict[Claim, Check] = {}
    for claim in claims:
        gone = [p for p in _symbol_parts(claim.value) if p in missing]
        checks[claim] = _symbol_check(claim, gone, removed, renamed, still)
    return checks


def _symbol_check(
    claim: Claim, gone: list[str], removed: dict[str, Removal], renamed: dict[str, str], still: set[str]
) -> Check:
    if not gone:
        return Check(claim, "valid")
    if not all(p in removed for p in gone):
        return Check(claim, "unknown")
    removal = removed[gone[0]]
    if all(renamed.get(p) in still for p in gone):
        new_text = claim.text
        for part in gone:
            new_text = re.sub(rf"(?<![\w$]){re.escape(part)}(?![\w$])", renamed[part], new_text)
        evidence = ", ".join(f"{p} was renamed to {renamed[p]}" for p in gone)
        return Check(claim, "renamed", f"{evidence} in {removal.commit.describe()}", new_text, removal.commit)
    evidence = f"{', '.join(gone)} no longer occurs in the code; removed in {removal.commit.describe()}"
    return Check(claim, "stale", evidence, commit=removal.commit)


def _renamed_to(removal: Removal) -> str:
    """The word that took `removal.word`'s place on an otherwise identical line, if any.

    When several added lines fit (many functions share a signature), the name most like the old
    one wins; a name less than half alike is no rename.
    """
    word, best, best_ratio = removal.word, "", 0.5
    token = re.escape(word)
    for line in removal.removed:
        escaped = re.escape(line.strip())
        if token not in escaped:
            continue
        pattern = re.compile(escaped.replace(token, r"(?P<new>[\w$:.-]+)", 1).replace(token, r"(?P=new)"))
        for added in removal.added:
            match = pattern.fullmatch(added.strip())
            if match and match["new"] != word:
                ratio = SequenceMatcher(None, word, match["new"]).ratio()
                if ratio > best_ratio:
                    best, best_ratio = match["new"], ratio
    return best


# -- commands ---------------------------------------------------------------------------------


def script_of(command: str) -> tuple[str, str] | None:
    """(kind, name) of the project script a command runs: ("npm", "test:unit"), ("make", "lint")."""
    tokens = [t for t in command.split() if not t.startswith("-") and "=" not in t]
    if len(tokens) < 2:
        return None
    program, first = tokens[0], tokens[1]
    if program in ("npm", "pnpm", "yarn", "bun"):
        if first in ("run", "run-script") and len(tokens) > 2:
            return "npm", tokens[2]
        if first in ("test", "start", "stop", "restart") or (program != "npm" and first not in _NPM_BUILTINS):
            return "npm", first
        return None
    if program in ("make", "just") and " -C " not in f" {command} " and " -f " not in f" {command} ":
        return program, first
    return None


def _check_commands(project: Project, claims: list[Claim]) -> dict[Claim, Check]:
    checks: dict[Claim, Check] = {}
    missing: dict[Claim, tuple[str, str]] = {}
    scripts = project.manifests.scripts
    for claim in claims:
        target = script_of(claim.value)
        if target is None or target[0] not in scripts or target[0] in project.manifests.opaque:
            checks[claim] = Check(claim, "unknown")
        elif target[1] in scripts[target[0]]:
            checks[claim] = Check(claim, "valid")
        else:
            missing[claim] = target
    if missing and project.repo:
        files = sorted({f for kind, _ in missing.values() for f in project.manifests.script_files[kind]})
        removed = project.repo.removals({name for _, name in missing.values()}, files)
        for claim, (kind, name) in missing.items():
            checks[claim] = _script_check(project, claim, kind, name, removed.get(name))
    return checks


def _script_check(project: Project, claim: Claim, kind: str, name: str, removal: Removal | None) -> Check:
    files = ", ".join(project.manifests.script_files[kind])
    if removal is None:
        explicit = (
            kind != "npm"
            or claim.value.startswith("npm ")
            or re.search(r"\brun(?:-script)?\b", claim.value) is not None
        )
        return Check(
            claim, "contradicted" if explicit else "unknown", f"no {kind} script '{name}' in {files}"
        )
    new = _renamed_to(removal)
    if new and new in project.manifests.scripts[kind]:
        new_text = re.sub(rf"(?<![\w:.-]){re.escape(name)}(?![\w:.-])", new, claim.text)
        evidence = f"{kind} script '{name}' was renamed to '{new}' in {removal.commit.describe()}"
        return Check(claim, "renamed", evidence, new_text, removal.commit)
    evidence = f"{kind} script '{name}' is not in {files}; removed in {removal.commit.describe()}"
    return Check(claim, "stale", evidence, commit=removal.commit)
