"""The one git wrapper of the project (gitpython underneath): what is tracked, what was renamed or
deleted and when, which words occur in the code, and the dates of commits and lines.

Every query is read-only. gitpython is imported when a repository is opened, never at module import,
so importing this module stays cheap. Failures of git (not a repo, no commits yet) give empty answers.
"""

from __future__ import annotations

import fnmatch
import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

_RECORD = "\x1e"  # starts each commit in `git log` output we parse
GREP_PATTERN_LIMIT = 16  # above this many words, one Python pass over the files beats git grep
MAX_SCAN_BYTES = 4 * 1024 * 1024
_IDENTIFIER = re.compile(rb"[A-Za-z0-9_$]+")


@dataclass(frozen=True)
class Commit:
    sha: str
    date: datetime  # committer date, UTC
    subject: str

    @property
    def short(self) -> str:
        return self.sha[:10]

    def describe(self) -> str:
        """`abc1234567 (2026-03-01) subject` — how commits appear in evidence."""
        return f"{self.short} ({self.date:%Y-%m-%d}) {self.subject}"


@dataclass(frozen=True)
class PathEvent:
    """A rename (`new` set) or a deletion (`new` empty) of `old` in one commit."""

    kind: Literal["R", "D"]
    old: str
    new: str
    commit: Commit


@dataclass(frozen=True)
class Removal:
    """The newest commit whose diff removed lines containing a word, and the line pairs it changed."""

    word: str
    commit: Commit
    removed: tuple[str, ...]
    added: tuple[str, ...]


class GitRepo:
    """A read-only view of one working tree."""

    def __init__(self, repo: Any) -> None:
        self._repo = repo
        self.root = Path(repo.working_tree_dir)

    @classmethod
    def find(cls, path: str | os.PathLike[str]) -> GitRepo | None:
        """The repository containing `path`, or None when there is none (or git is missing)."""
        try:
            import git

            return cls(git.Repo(os.fspath(path), search_parent_directories=True))
        except Exception:  # not a repo, bare, unreadable, git not installed
            return None

    def _git(self, *args: str) -> str:
        """Run a git command; a non-zero exit gives an empty string."""
        import git

        try:
            return str(self._repo.git.execute(["git", *args], strip_newline_in_stdout=False))
        except git.GitCommandError:
            return ""

    # -- the tree -----------------------------------------------------------------------------

    @cached_property
    def tracked_files(self) -> tuple[str, ...]:
        """Every tracked path (POSIX, relative to the root)."""
        return tuple(p for p in self._git("ls-files", "-z").split("\0") if p)

    @cached_property
    def untracked_files(self) -> tuple[str, ...]:
        """Every path in the working tree that is neither tracked nor ignored (POSIX, relative)."""
        return tuple(
            p for p in self._git("ls-files", "-z", "--others", "--exclude-standard").split("\0") if p
        )

    def ignored(self, paths: Sequence[str]) -> set[str]:
        """Which of `paths` (relative to the root, existing or not) the ignore rules leave out."""
        out = self._git("check-ignore", "--no-index", "--", *paths)  # exits 1, so "", when none is
        return {line for line in out.splitlines() if line}

    def grep_words(self, words: Iterable[str], *, exclude: Sequence[str] = ()) -> set[str]:
        """Which of `words` occur as whole words in tracked text files (`exclude`: glob patterns).

        A few words go to one `git grep`; many are looked up in one pass over the tracked files,
        which is much faster than `git grep` with thousands of patterns.
        """
        wanted = {w for w in words if w and "\n" not in w}
        if len(wanted) > GREP_PATTERN_LIMIT:
            return self._scan_words(wanted, exclude)
        return self._git_grep_words(wanted, exclude)

    def _git_grep_words(self, wanted: set[str], exclude: Sequence[str]) -> set[str]:
        if not wanted:
            return set()
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as handle:
            handle.write("\n".join(sorted(wanted)) + "\n")
        try:
            pathspecs = ["--", ".", *(f":(exclude,glob){p}" for p in exclude)]
            out = self._git("grep", "-I", "-h", "-o", "-w", "-F", "-f", handle.name, *pathspecs)
        finally:
            os.unlink(handle.name)
        return set(out.splitlines()) & wanted

    def _scan_words(self, wanted: set[str], exclude: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for path in self.tracked_files:
            if any(
                fnmatch.fnmatchcase(path, p) or fnmatch.fnmatchcase(path, p.removeprefix("**/"))
                for p in exclude
            ):
                continue
            try:
                with open(self.root / path, "rb") as handle:
                    data = handle.read(MAX_SCAN_BYTES + 1)
            except OSError:
                continue
            if len(data) > MAX_SCAN_BYTES or b"\0" in data[:8192]:
                continue  # huge or binary: git grep -I would skip binary too
            found.update(wanted.intersection(w.decode("utf-8", "replace") for w in _IDENTIFIER.findall(data)))
            if found == wanted:
                break
        return found

    # -- history ------------------------------------------------------------------------------

    @cached_property
    def path_events(self) -> tuple[PathEvent, ...]:
        """Renames and deletions over the whole history, newest first."""
        out = self._git(
            "log", "-M", "--diff-filter=DR", "--name-status", f"--format={_RECORD}%H%x00%ct%x00%s"
        )
        events: list[PathEvent] = []
        for commit, body in _records(out):
            for line in body:
                parts = line.split("\t")
                if parts[0].startswith("R") and len(parts) == 3:
                    events.append(PathEvent("R", parts[1], parts[2], commit))
                elif parts[0] == "D" and len(parts) == 2:
                    events.append(PathEvent("D", parts[1], "", commit))
        return tuple(events)

    def ever_tracked(self, path: str) -> bool:
        """Whether `path` (a file, or a directory prefix) appears in any commit."""
        return bool(self._git("log", "-1", "--format=%H", "--", path).strip())

    def removals(self, words: Iterable[str], paths: Sequence[str] = ()) -> dict[str, Removal]:
        """For each word no longer in the tree: the newest commit that removed a line containing it.

        One pass over the history (`git log -G`) per 150 words, optionally limited to `paths`; words
        never seen in a diff are absent from the result. The removed and added lines of that commit
        let callers spot a rename.
        """
        wanted = sorted({w for w in words if re.fullmatch(r"[\w.:$@/-]+", w)})
        found: dict[str, Removal] = {}
        for chunk in _chunks(wanted, 150):
            pattern = "|".join(_ere_escape(w) for w in chunk)
            out = self._git(
                "log",
                "-p",
                "-U0",
                "--no-color",
                "--no-ext-diff",
                f"--format={_RECORD}%H%x00%ct%x00%s",
                "-G",
                pattern,
                "--",
                *(paths or ["."]),
            )
            _collect_removals(out, chunk, found)
        return found

    def log_path(self, path: str, limit: int = 20) -> list[Commit]:
        """Commits touching `path`, newest first, following renames."""
        out = self._git("log", f"-{limit}", "--follow", f"--format={_RECORD}%H%x00%ct%x00%s", "--", path)
        return [commit for commit, _ in _records(out)]

    def file_date(self, path: str) -> datetime | None:
        """The date of the last commit touching `path`, or None when it was never committed."""
        commits = self.log_path(path, limit=1)
        return commits[0].date if commits else None

    def line_dates(self, path: str) -> dict[int, datetime]:
        """1-based line → the committer date of the commit that last changed it (committed lines only)."""
        out = self._git("blame", "--line-porcelain", "--", path)
        dates: dict[int, datetime] = {}
        sha, line, when = "", 0, None
        for row in out.splitlines():
            header = re.match(r"^([0-9a-f]{40}) \d+ (\d+)", row)
            if header:
                sha, line = header.group(1), int(header.group(2))
            elif row.startswith("committer-time "):
                when = datetime.fromtimestamp(int(row.split()[1]), UTC)
            elif row.startswith("\t") and when is not None and sha.strip("0"):
                dates[line] = when
        return dates

    def user_name(self) -> str:
        """`git config user.name` as this checkout sees it ('' when it is not set)."""
        return self._git("config", "user.name").strip()

    def head(self) -> str | None:
        """The commit HEAD names (None in a repository without commits)."""
        return self._git("rev-parse", "--verify", "-q", "HEAD").strip() or None

    def recent(self, limit: int = 20) -> list[str]:
        """`git log --oneline -N`, as lines."""
        return self._git("log", "--oneline", f"-{limit}").splitlines()


def _records(out: str) -> Iterable[tuple[Commit, list[str]]]:
    """Split `git log` output made with our `_RECORD` format into commits and their body lines."""
    for record in out.split(_RECORD)[1:]:
        head, _, body = record.partition("\n")
        sha, stamp, subject = (head.split("\0") + ["", ""])[:3]
        if not stamp.isdigit():
            continue
        commit = Commit(sha, datetime.fromtimestamp(int(stamp), UTC), subject)
        yield commit, [line for line in body.splitlines() if line.strip()]


def _ere_escape(word: str) -> str:
    """Escape a literal for a POSIX extended regex (what `git log -G` takes)."""
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", word)


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _collect_removals(out: str, words: list[str], found: dict[str, Removal]) -> None:
    """Newest-first commits: the first whose removed lines hold a word is where it went."""
    for commit, body in _records(out):
        removed = [line[1:] for line in body if line.startswith("-") and not line.startswith("---")]
        added = [line[1:] for line in body if line.startswith("+") and not line.startswith("+++")]
        for word in words:
            if word in found:
                continue
            pattern = re.compile(rf"(?<![\w$]){re.escape(word)}(?![\w$])")
            hits = tuple(line for line in removed if pattern.search(line))
            if hits:
                found[word] = Removal(word, commit, hits, tuple(added))
