"""The plan: reviewable proposals with the concrete file changes that carry them out.

A plan is the contract between the dream (or an agent, or a person) and `consolidate apply`. It is
validated twice: its shape by pydantic, and every path it names against the write scope — the memory
dir, the two CLAUDE.md files and the team memory folder. A plan that fails either check is refused as a whole.
"""

from __future__ import annotations

import json
import os
import unicodedata
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from .errors import UsageError
from .settings import Settings

Action = Literal["ADD", "EDIT", "MERGE", "REMOVE", "CLUSTER"]
Layer = Literal["L0", "L1", "L2", "L2c", "L3", "meta", "team"]
ACTION_ORDER: dict[str, int] = {"REMOVE": 0, "MERGE": 1, "CLUSTER": 2, "ADD": 3, "EDIT": 3}
L0_WARNING = (
    "This changes ~/.claude/CLAUDE.md, loaded by every session of every project; "
    "it is applied only when confirmed explicitly."
)

CONTRADICT_WARNING = (
    "The sessions say the opposite of this remembered statement: this replaces it; it is applied only when "
    "confirmed explicitly, never by --yes."
)


class PlanError(UsageError):
    """A plan that cannot be applied as written; the message names the proposal."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Change(BaseModel):
    model_config = ConfigDict(extra="forbid")
    file: str = Field(min_length=1)


def _one_line(value: str) -> str:
    """An entry or a section name: one line, no control character — plan text cannot add structure."""
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in value):
        raise ValueError("must be one line without control characters")
    return value


def _text_block(value: str) -> str:
    """Text of several lines: no control character but the line break and the tab (a NUL would make
    the file binary)."""
    if any(unicodedata.category(c) == "Cc" and c not in "\n\r\t" for c in value):
        raise ValueError("holds a control character")
    return value


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("holds a NUL byte")
    return value


OneLine = Annotated[str, AfterValidator(_one_line)]
TextBlock = Annotated[str, AfterValidator(_text_block)]
Matched = Annotated[str, AfterValidator(_no_nul)]  # text looked for in a file: as it is there


class AddEntry(_Change):
    op: Literal["add_entry"]
    section: OneLine = ""
    text: OneLine = Field(min_length=1)


class ReplaceEntry(_Change):
    op: Literal["replace_entry"]
    old: Matched = Field(min_length=1)
    new: OneLine = Field(min_length=1)


class DropEntry(_Change):
    op: Literal["drop_entry"]
    text: Matched = Field(min_length=1)


class ReplaceText(_Change):
    op: Literal["replace_text"]
    old: Matched = Field(min_length=1)
    new: TextBlock


class RedactSecrets(_Change):
    """Redact every secret in the file at apply time, so the plan itself never carries one."""

    op: Literal["redact_secrets"]


class WriteFile(_Change):
    op: Literal["write_file"]
    content: TextBlock
    create_only: bool = False


class TrashFile(_Change):
    op: Literal["trash_file"]


class ClusterSection(_Change):
    op: Literal["cluster_section"]
    section: OneLine = Field(min_length=1)
    cluster_file: str = Field(min_length=1)
    pointer: OneLine = Field(min_length=1)
    preamble: TextBlock = ""


class MoveSection(_Change):
    """Move a section of an index (its heading's content, subsections included) into a new topic file,
    leaving the heading and one trigger pointer; `keep` names entries that stay in the index."""

    op: Literal["move_section"]
    heading: (
        OneLine  # the heading line as written ("## Agent Basics"); "" for the text before the first heading
    )
    occurrence: int = Field(default=1, ge=1)  # which of several headings with this text
    topic_file: str = Field(min_length=1)
    pointer: OneLine = Field(min_length=1)
    frontmatter: TextBlock = ""
    keep: list[Matched] = Field(default_factory=list)


Change = Annotated[
    AddEntry
    | ReplaceEntry
    | DropEntry
    | ReplaceText
    | RedactSecrets
    | WriteFile
    | TrashFile
    | ClusterSection
    | MoveSection,
    Field(discriminator="op"),
]


class Target(_Model):
    file: str = Field(min_length=1)
    section: str = ""


class Evidence(_Model):
    session: str = ""
    quote: str = ""


class Proposal(_Model):
    id: str = Field(min_length=1)
    action: Action
    summary: str = Field(min_length=1)
    layer: Layer = "L2"
    target: Target
    rationale: str = ""
    category: str = ""
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    sources: list[str] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    diff: str = ""
    warning: str | None = None
    reason: str = ""  # the kind of finding within its category ("in-claude-md", "near-copy", …)
    group: str | None = None  # the id of the group it is reviewed in, if any
    changes: list[Change] = Field(min_length=1)

    @property
    def order(self) -> int:
        return ACTION_ORDER[self.action]

    @property
    def skipped(self) -> dict[str, Any] | None:
        """Set aside by synthesis (already recorded): applied only when named explicitly."""
        value = (self.model_extra or {}).get("skipped")
        return value if isinstance(value, dict) and value else None

    @property
    def files(self) -> list[str]:
        names = [self.target.file]
        for change in self.changes:
            names.append(change.file)
            if isinstance(change, ClusterSection):
                names.append(change.cluster_file)
            if isinstance(change, MoveSection):
                names.append(change.topic_file)
        return list(dict.fromkeys(names))


class ProposalGroup(_Model):
    """Proposals of one kind and reason, reviewed as one decision; each item stays selectable by its id."""

    id: str = Field(min_length=1)
    action: Action
    category: str = ""
    reason: str = ""
    summary: str = Field(min_length=1)
    rationale: str = ""
    items: list[str] = Field(min_length=1)
    targets: dict[str, int] = Field(default_factory=dict)  # file → how many items change it


class Plan(_Model):
    version: Literal[1] = 1
    engine: str = "offline"
    created_at: str = Field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    project: str
    memory_dir: str
    claude_home: str | None = None  # the Claude config dir the plan was made with (L0 CLAUDE.md lives there)
    gathered_at: str | None = None  # when the agents began reading sessions: the next run mines from here
    snapshot: dict[str, str] = Field(default_factory=dict)
    proposals: list[Proposal] = Field(default_factory=list)
    mark_consolidation: bool = False
    notes: list[str] = Field(default_factory=list)
    usage: dict[str, dict[str, Any]] = Field(default_factory=dict)  # tokens and cost per agent
    gather: dict[str, Any] = Field(default_factory=dict)  # how phase 2 went: skips, fallbacks, failures
    backlog: list[dict[str, Any]] = Field(default_factory=list)  # learnings left to wait (the ADD cap)
    from_backlog: list[str] = Field(default_factory=list)  # ids of the waiting learnings it took up
    groups: list[ProposalGroup] = Field(default_factory=list)
    waiting: int = 0  # proposals left for the next run, so one review stays a reviewable size

    @field_validator("proposals")
    @classmethod
    def _unique_ids(cls, proposals: list[Proposal]) -> list[Proposal]:
        seen: set[str] = set()
        for proposal in proposals:
            if proposal.id.casefold() in seen:
                raise ValueError(f"duplicate proposal id {proposal.id}")
            seen.add(proposal.id.casefold())
        return proposals

    @model_validator(mode="after")
    def _groups_name_proposals(self) -> Plan:
        known = {p.id for p in self.proposals}
        for group in self.groups:
            missing = [item for item in group.items if item not in known]
            if missing:
                raise ValueError(f"group {group.id} lists unknown proposal(s) {', '.join(missing)}")
            if group.id in known:
                raise ValueError(f"group id {group.id} is also a proposal id")
        return self

    def to_json(self) -> str:
        """The plan as JSON, every string redacted: a plan file never holds a secret."""
        from .secrets import redact_data

        data = redact_data(self.model_dump(mode="json", exclude_none=True))
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    def expand(self, ids: list[str]) -> list[str]:
        """Proposal ids, with each group id replaced by the ids of its items."""
        groups = {g.id.casefold(): g.items for g in self.groups}
        return list(dict.fromkeys(i for pid in ids for i in groups.get(pid.casefold(), [pid])))

    def select(self, only: list[str] | None) -> list[Proposal]:
        """The proposals to apply, in apply order: REMOVE, MERGE, CLUSTER, then ADD/EDIT. `only` may
        name groups (G1) as well as proposals (P3); without it, a proposal set aside as already
        recorded is not among them."""
        chosen = [p for p in self.proposals if p.skipped is None]
        if only is not None:
            only = self.expand(only)
            known = {p.id.casefold() for p in self.proposals}  # p2 is P2, as in the review prompt
            unknown = [pid for pid in only if pid.casefold() not in known]
            if unknown:
                raise UsageError(f"--only names unknown proposal(s): {', '.join(unknown)}")
            wanted = {pid.casefold() for pid in only}
            chosen = [p for p in self.proposals if p.id.casefold() in wanted]
        position = {id(p): n for n, p in enumerate(self.proposals)}  # not .index(): that compares models
        return sorted(chosen, key=lambda p: (p.order, position[id(p)]))


def parse_plan(text: str, source: str = "plan") -> Plan:
    """Validate plan JSON; the error names the failing proposal and field."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlanError(f"{source}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise PlanError(f"{source}: JSON nested too deeply to be a plan") from None
    if not isinstance(raw, dict):
        raise PlanError(f"{source}: a plan is a JSON object")
    try:
        return Plan.model_validate(raw)
    except ValidationError as exc:
        raise PlanError(f"{source}: {_describe(exc, raw)}") from None


MAX_PLAN_BYTES = 64 * 1024 * 1024


def load_plan(path: Path) -> Plan:
    """Read and validate a plan file; a FIFO, a device or a huge file is refused without being read
    to its end."""
    from memory_layout.files import read_regular

    try:
        data = read_regular(path, MAX_PLAN_BYTES)
        if len(data) > MAX_PLAN_BYTES:
            raise UsageError(
                f"cannot read plan {path}: over {MAX_PLAN_BYTES // 2**20} MiB; a plan is never that big"
            )
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read plan {path}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_plan(text, str(path))


def _describe(exc: ValidationError, raw: dict[str, Any]) -> str:
    error = exc.errors()[0]
    location = list(error["loc"])
    where = ".".join(_printable(part) for part in location)
    if len(location) >= 2 and location[0] == "proposals" and isinstance(location[1], int):
        proposals = raw.get("proposals") or []
        item = proposals[location[1]] if location[1] < len(proposals) else {}
        name = item.get("id") if isinstance(item, dict) else None
        rest = ".".join(_printable(part) for part in location[2:]) or "proposal"
        where = f"proposal {name or '#' + str(location[1] + 1)}: {rest}"
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "missing":
        message = "missing field"
    elif error["type"] == "union_tag_invalid":
        message = (
            f"unknown change op {error.get('input', {}).get('op')!r}"
            if isinstance(error.get("input"), dict)
            else message
        )
    elif error["type"] == "literal_error" and location[-1] == "action":
        message = f"unknown action {error.get('input')!r} (expected ADD, EDIT, MERGE, REMOVE or CLUSTER)"
    return " ".join(f"{where}: {message}".split())


def _printable(part: object) -> str:
    """A path element of an error location, on one line whatever the plan's keys hold."""
    text = str(part)
    return text if text.isprintable() else repr(text)


class WriteScope:
    """The only files a plan may touch: Markdown under the memory dir, the two CLAUDE.md files, and
    Markdown in the repository's team memory folder (nothing else of the repository)."""

    def __init__(
        self,
        memory_dir: Path,
        user_claude_md: Path,
        project_claude_md: Path,
        team: TeamScope | None = None,
    ) -> None:
        self.memory_dir = memory_dir
        self._memory_real = Path(os.path.realpath(memory_dir))
        self._user_real = Path(os.path.realpath(user_claude_md))
        self._claude_md: dict[Path, Path] = {}
        self._refused: dict[Path, str] = {}  # a CLAUDE.md whose symlink leads where we never write
        for path, where in ((user_claude_md, "the Claude config dir"), (project_claude_md, "the repository")):
            problem = _link_problem(path, where, also=self._user_real)
            if problem:
                self._refused[Path(os.path.abspath(path))] = problem
            else:
                self._claude_md[Path(os.path.realpath(path))] = path
        self.team = team

    def resolve(self, name: str, proposal: str) -> Path:
        """The one canonical absolute path for a plan's file name, or a PlanError naming the proposal."""
        try:
            return self._resolve(name)
        except PlanError as exc:
            raise PlanError(f"proposal {proposal}: {exc}") from None
        except (OSError, RuntimeError, ValueError) as exc:  # ~nosuchuser, names too long for the system
            raise PlanError(f"proposal {proposal}: cannot use the path {name[:80]!r}: {exc}") from None

    def _resolve(self, name: str) -> Path:
        if "\x00" in name or "\\" in name or not name.strip():
            raise PlanError(f"invalid path {name[:80]!r}")
        path = Path(name).expanduser()
        if path.is_absolute():
            if Path(os.path.abspath(path)) in self._refused:
                raise PlanError(self._refused[Path(os.path.abspath(path))])
            real = Path(os.path.realpath(path))
            if real in self._claude_md:
                return self._claude_md[real]
            if self.team is not None and self.team.holds(real):
                return self.team.resolve(name, real)
            if not _inside(real, self._memory_real):
                raise PlanError(f"{name} is outside the memory dir and not a CLAUDE.md file")
            pure = PurePosixPath(real.relative_to(self._memory_real).as_posix())
        else:
            pure = PurePosixPath(name)
        if pure.is_absolute() or ".." in pure.parts:
            raise PlanError(f"{name} leaves the memory dir ('..' is not allowed)")
        if pure.suffix.lower() != ".md":
            raise PlanError(f"{name} is not a Markdown file; plans only write *.md")
        if any(len(part.encode()) > 255 for part in pure.parts):
            raise PlanError(f"cannot use the path {name[:40]!r}…: a name is longer than 255 bytes")
        if len(os.fsencode(self.memory_dir / pure)) >= _path_max(self.memory_dir):
            raise PlanError(f"cannot use the path {name[:40]!r}…: it is longer than the system allows")
        if _names_a_secret(pure.as_posix()):
            raise PlanError("a file name holds what looks like a secret; plans never write one")
        real = Path(os.path.realpath(self.memory_dir / pure))
        if not _inside(real, self._memory_real) or real == self._memory_real:
            raise PlanError(f"{name} resolves outside the memory dir (symlink)")
        return self.memory_dir / real.relative_to(self._memory_real)  # one spelling for one file

    def snapshot_path(self, name: str) -> Path:
        """Where a snapshot entry is read for its hash. Only read, never written, so any file name
        the memory dir holds will do; it must still be inside the memory dir or a CLAUDE.md."""
        path = Path(name)
        if path.is_absolute():
            if (
                Path(os.path.realpath(path)) in self._claude_md
                or Path(os.path.abspath(path)) in self._refused
            ):
                return path  # read for its hash only: a refused link is still what the plan saw
            if self.team is not None and self.team.holds(Path(os.path.realpath(path))):
                return path
            raise PlanError(f"snapshot: {name} is outside the memory dir and not a CLAUDE.md file")
        pure = PurePosixPath(name)
        if pure.is_absolute() or ".." in pure.parts:
            raise PlanError(f"snapshot: {name} leaves the memory dir")
        return self.memory_dir / pure

    def is_user_claude_md(self, path: Path) -> bool:
        return Path(os.path.realpath(path)) == self._user_real


def _path_max(directory: Path) -> int:
    try:
        return os.pathconf(directory if directory.exists() else "/", "PC_PATH_MAX")
    except (OSError, ValueError):
        return 4096


def _link_problem(path: Path, where: str, also: Path) -> str | None:
    """Why a CLAUDE.md may not be written through its symlink: it is followed only to a Markdown file
    inside the folder the CLAUDE.md belongs to (the repository, or the Claude config dir), or to the
    user CLAUDE.md itself (`also`, which then needs the L0 confirmation)."""
    folder = Path(os.path.realpath(path.parent))
    real = Path(os.path.realpath(path))
    if real == folder / path.name or real == also:
        return None  # not a link, or a link to the other CLAUDE.md
    if real.suffix.lower() == ".md" and _inside(real, folder) and real != folder:
        return None
    return f"{path} is a symlink to {real}, which is not a Markdown file inside {where}; refusing to write through it"


def link_target(path: Path) -> Path | None:
    """Where a symlinked file really is (None when it is not a link): what a reviewer must see."""
    real = Path(os.path.realpath(path))
    return real if real != Path(os.path.realpath(path.parent)) / path.name else None


def _names_a_secret(name: str) -> bool:
    from .secrets import has_secret

    stem = name.removesuffix(".md")
    return has_secret(stem) or has_secret(stem.replace("/", " ").replace("-", " ").replace("_", " "))


class TeamScope:
    """The team memory folder's part of the write scope: Markdown files inside it, real paths only
    (a symlink leading out is refused), and only while the folder itself is inside the repository."""

    def __init__(self, team_dir: Path, repo_root: Path) -> None:
        self.team_dir = team_dir
        real = Path(os.path.realpath(team_dir))
        self._real = real if _inside(real, Path(os.path.realpath(repo_root))) else None

    def holds(self, real: Path) -> bool:
        return self._real is not None and _inside(real, self._real) and real != self._real

    def resolve(self, name: str, real: Path) -> Path:
        assert self._real is not None
        pure = PurePosixPath(real.relative_to(self._real).as_posix())
        if pure.suffix.lower() != ".md":
            raise PlanError(f"{name} is not a Markdown file; plans only write *.md")
        if any(len(part.encode()) > 255 for part in pure.parts):
            raise PlanError(f"cannot use the path {name[:40]!r}…: a name is longer than 255 bytes")
        if _names_a_secret(pure.as_posix()):
            raise PlanError("a file name holds what looks like a secret; plans never write one")
        return self.team_dir / pure  # one spelling for one file


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def check_plan_matches(plan: Plan, settings: Settings) -> None:
    """Refuse a plan made for another memory dir, project or Claude config dir than this invocation's."""
    layout = settings.layout
    pairs = [
        ("memory dir", plan.memory_dir, layout.memory_dir),
        ("project", _root_of(plan.project), layout.git_root or layout.project),
    ]
    if plan.claude_home:
        pairs.append(("Claude config dir", plan.claude_home, layout.claude_home))
    for what, planned, here in pairs:
        if _real(planned) != _real(here):
            raise PlanError(
                f"the plan is for the {what} {planned}, but here it is {here}; run apply from the project "
                "with the same --memory-dir / --claude-home as the dream (or pass --project)"
            )


def _root_of(project: str) -> str:
    from memory_layout.paths import find_git_root

    return str(find_git_root(project) or project)


def _real(path: str | Path) -> str:
    return os.path.realpath(os.path.expanduser(str(path)))


def check_scope(
    plan: Plan, proposals: list[Proposal], scope: WriteScope, *, with_snapshot: bool = True
) -> dict[str, Path]:
    """Resolve every file the proposals (and the snapshot) name; refuse the plan at the first escape."""
    resolved: dict[str, Path] = {}
    for proposal in proposals:
        for name in proposal.files:
            if name not in resolved:
                resolved[name] = scope.resolve(name, proposal.id)
    for name in plan.snapshot if with_snapshot else ():
        if name not in resolved:
            resolved[name] = scope.snapshot_path(name)
    return resolved
