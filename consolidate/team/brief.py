"""`consolidate onboard`: a newcomer brief from what the team shared and from the project's CLAUDE.md
(with the files it imports) — how to build and test, conventions, gotchas, decisions with their why,
commands found by trial and error — grouped by topic, each item with its age and the file it comes
from. What the auditor finds stale is flagged, never silently passed on. It reads the repository
only, so it works in a fresh clone with an empty Claude config dir."""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from memory_layout import INDEX, TEAM_DIR, Block, MemoryTree, ProjectLayout, parse_document
from memory_layout.document import split_lines

from ..gitrepo import GitRepo
from .layer import body_of, imports_team, load_team, provenance_of, team_units

BUILD, CONVENTIONS, GOTCHAS, DECISIONS, COMMANDS, OTHER = (
    "Build and test",
    "Conventions",
    "Gotchas",
    "Decisions and their why",
    "Commands",
    "Other shared learnings",
)
TOPICS = (BUILD, CONVENTIONS, GOTCHAS, DECISIONS, COMMANDS, OTHER)
_HEADING_WORDS = [  # words of a heading (and the headings above it) → topic; the first that matches wins
    (GOTCHAS, r"gotcha|pitfall|caveat|warning|trap|careful|avoid|beware|known issue|stuck|troubleshoot"),
    (DECISIONS, r"decision|architecture|design|rationale|\badr\b|\bwhy\b"),
    (BUILD, r"\bbuild|\btest|setup|set up|install|getting started|develop|\bci\b|\blint|compil"),
    (CONVENTIONS, r"convention|style|naming|commit|prose|format|comment|\bdocs?\b|rules|guideline|protocol|policy|workflow|structure"),
    (COMMANDS, r"command|\bcli\b|scripts?\b|tools?\b|usage|\bjj\b|\bgit\b|\bmake\b|\bnpm\b|cargo"),
]  # fmt: skip
_BY_SIGNAL = {"error-fix": COMMANDS, "decision": DECISIONS, "correction": GOTCHAS, "rejection": GOTCHAS}
_BY_TYPE = {"feedback": CONVENTIONS, "project": DECISIONS, "reference": COMMANDS}
_BUILD_TEXT = re.compile(
    r"\b(?:make test|pytest|npm (?:test|run build)|cargo (?:test|build)|the (?:test )?suite|build)\b", re.I
)
_IMPORT = re.compile(r"(?<![\w`@./-])@(?P<path>(?:\./|\.\./)?[\w.][\w.+/-]*\w)")
_FENCED = re.compile(
    r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}\1[`~]*[ \t]*\n|\Z)", re.MULTILINE | re.DOTALL
)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_LIST_ITEM = re.compile(r"(?m)^\s*(?:[-*+]|\d{1,9}[.)])\s+")
MAX_ITEMS, MAX_COMMANDS = 4, 6
_SHELL = {"", "sh", "bash", "shell", "zsh", "console", "fish", "powershell", "ps1", "bat", "cmd"}
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\[\"'])")
_STALE = ("STALE", "CONTRADICT", "SUPERSEDED")
MAX_DETAIL = 1200


@dataclass
class BriefItem:
    topic: str
    text: str
    detail: list[str]
    source: str  # relative to the repository root
    line: int
    date: str  # ISO date of the learning (team) or of the last change (CLAUDE.md), '' unknown
    date_source: str  # learned | git | mtime | ''
    shared_by: str = ""
    signal: str = ""
    stale: str = ""  # the auditor's evidence when it finds the item stale

    def age_days(self, today: dt.date) -> int | None:
        return (today - dt.date.fromisoformat(self.date)).days if self.date else None


@dataclass
class Brief:
    project: str
    generated: str
    team_entries: int = 0
    sharers: list[str] = field(default_factory=list)
    claude_files: list[str] = field(default_factory=list)
    items: list[BriefItem] = field(default_factory=list)
    also: list[tuple[str, str]] = field(default_factory=list)  # (section, source) not on a topic

    def to_dict(self) -> dict[str, object]:
        today = dt.date.fromisoformat(self.generated)
        topics = [
            {
                "topic": t,
                "items": [{**asdict(i), "age_days": i.age_days(today)} for i in self.items if i.topic == t],
            }
            for t in TOPICS
        ]
        return {
            "project": self.project,
            "generated": self.generated,
            "team_entries": self.team_entries,
            "sharers": self.sharers,
            "claude_files": self.claude_files,
            "topics": [t for t in topics if t["items"]],
            "stale": sum(1 for i in self.items if i.stale),
            "also_in_claude_md": [{"section": s, "source": src} for s, src in self.also],
        }


def build_brief(layout: ProjectLayout, today: dt.date | None = None) -> Brief:
    root = layout.git_root or layout.project
    repo = GitRepo.find(root) if layout.git_root is not None else None
    team = load_team(layout)
    claude_files = _claude_files(layout.project_claude_md, root)
    stale = _stale_findings(team, layout, repo, claude_files)
    brief = Brief(project=root.name, generated=(today or datetime.now(UTC).date()).isoformat())
    if team is not None:
        brief.items += _team_items(team, repo, root, stale)
        brief.team_entries = len(team_units(team))
        brief.sharers = sorted({i.shared_by for i in brief.items if i.shared_by})
    for path in claude_files:
        items, also = _claude_items(path, repo, root, stale)
        brief.items += items
        brief.also += also
    brief.claude_files = [_relative(p, root) for p in claude_files]
    return brief


# -- the team folder ------------------------------------------------------------------------------------


def _team_items(
    tree: MemoryTree, repo: GitRepo | None, root: Path, stale: dict[tuple[str, int], str]
) -> list[BriefItem]:
    items = []
    for unit in team_units(tree):
        topic = unit.topics[0] if unit.topics else None
        document = tree.files[topic].document if topic else None
        mark = provenance_of(document)
        text = _without_pointer(unit.entry.content)
        detail = _topic_detail(body_of(document), text) if document is not None else []
        source = f"{TEAM_DIR}/{topic or INDEX}"
        when, how = str(mark.get("learned") or ""), "learned"
        if not when:
            when, how = _file_date(tree.root / (topic or INDEX), repo)
        flag = stale.get((os.path.realpath(tree.root / INDEX), unit.entry.line), "") or _file_flag(
            stale, tree.root / (topic or "")
        )
        signal = str(mark.get("signal") or "")
        matter = document.frontmatter if document is not None else None
        kind = (matter.type if matter is not None and not matter.error else None) or ""
        items.append(
            BriefItem(
                topic=team_topic(unit.section, signal, kind, f"{text} {' '.join(detail)}"),
                text=text,
                detail=detail,
                source=source,
                line=0 if topic else unit.entry.line,
                date=when[:10],
                date_source=how if when else "",
                shared_by=str(mark.get("shared_by") or ""),
                signal=signal,
                stale=flag,
            )
        )
    return items


def _without_pointer(content: str) -> str:
    """An entry's rule without its `→ [detail](…)` tail (the brief names the file instead)."""
    text = " ".join(content.split())
    return re.sub(r"\s*(?:→|->)\s*(?:\[[^\]]*\]\([^)]*\)\s*)+$", "", text).strip()


def _topic_detail(body: str, headline: str) -> list[str]:
    """A topic file's paragraphs, minus what the index line already says and the how-to-apply line
    (the trigger says it); whole paragraphs only, up to a length a brief can carry."""
    said = _words(headline)
    kept, size = [], 0
    for paragraph in re.split(r"\n\s*\n", _COMMENT.sub("", body).strip()):
        flat = " ".join(paragraph.split())
        if not flat or flat.startswith("**How to apply:**") or _words(flat) <= said:
            continue
        if size + len(flat) > MAX_DETAIL:
            kept.append("(more in the topic file)")
            break
        kept.append(flat)
        size += len(flat)
    return kept


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", _LINK.sub(r"\1", text).lower()) if len(w) > 2}


def heading_topic(title: str) -> str:
    for topic, words in _HEADING_WORDS:
        if re.search(words, title, re.IGNORECASE):
            return topic
    return OTHER


def team_topic(section: str, signal: str, memory_type: str, text: str) -> str:
    """A shared learning's topic: its section's words, else its kind of signal, else what it is about."""
    topic = heading_topic(section)
    if topic != OTHER:
        return topic
    if signal in _BY_SIGNAL:
        return _BY_SIGNAL[signal]
    if _BUILD_TEXT.search(text):
        return BUILD
    return _BY_TYPE.get(memory_type, OTHER)


# -- CLAUDE.md and what it imports ----------------------------------------------------------------------


def _claude_files(claude_md: Path, root: Path) -> list[Path]:
    """CLAUDE.md and every file it imports with `@` (relative to the importing file, inside the
    repository, outside code, five hops at most), the team index excepted: it is read as the team's."""
    team_index = Path(os.path.realpath(root / TEAM_DIR / INDEX))
    real_root = Path(os.path.realpath(root))
    found: list[Path] = []

    def visit(path: Path, depth: int) -> None:
        real = Path(os.path.realpath(path))
        if depth > 5 or real in found or real == team_index or not real.is_file():
            return
        if real != real_root and real_root not in real.parents:
            return
        found.append(real)
        text = _FENCED.sub("", _read(real))
        for match in _IMPORT.finditer(re.sub(r"`[^`\n]*`", "", text)):
            visit(real.parent / match["path"], depth + 1)

    visit(claude_md, 0)
    return found


def _read(path: Path) -> str:
    try:
        return path.read_bytes()[: 4 * 1024 * 1024].decode("utf-8", "replace")
    except OSError:
        return ""


@dataclass
class _Section:
    title: str
    line: int  # 1-based line of the heading (0: before the first heading)
    end: int
    blocks: list[Block]
    level: int = 0


def _claude_items(
    path: Path, repo: GitRepo | None, root: Path, stale: dict[tuple[str, int], str]
) -> tuple[list[BriefItem], list[tuple[str, str]]]:
    document = parse_document(_read(path))
    relative = _relative(path, root)
    dates = repo.line_dates(os.path.relpath(path, repo.root)) if repo is not None else {}
    fallback = _file_date(path, repo)
    items, also = [], []
    for section in _sections(document.blocks):
        text, detail = _lead(section.blocks)
        if not text or _IMPORT.sub("", text).strip(" .:-") == "" or imports_team(text):
            continue  # nothing but an import: the imported file speaks for itself
        changed = [dates[n] for n in range(section.line or 1, section.end + 1) if n in dates]
        when, how = (max(changed).date().isoformat(), "git") if changed else fallback
        flag = next(
            (
                e
                for (file, line), e in stale.items()
                if file == os.path.realpath(path) and section.line <= line <= section.end
            ),
            "",
        )
        topic = heading_topic(section.title)
        if topic == OTHER and not flag:
            if section.level == 1:
                continue  # the document's title: what it says is the file's own introduction
            also.append((section.title or "(top)", f"{relative}:{section.line or 1}"))
            continue
        item = BriefItem(topic, f"**{section.title}** — {text}" if section.title else text, detail,
                         relative, section.line or 1, when, how, stale=flag)  # fmt: skip
        items.append(item)
    return items, also


def _sections(blocks: list[Block]) -> list[_Section]:
    """Each heading with the blocks under it (until the next heading), its title prefixed by the
    titles of the headings it sits under."""
    sections = [_Section("", 0, 0, [])]
    trail: list[tuple[int, str]] = []
    line = 1
    for block in blocks:
        if block.kind == "heading":
            trail = [(level, title) for level, title in trail if level < block.level]
            trail.append((block.level, block.title.strip()))
            sections.append(
                _Section(
                    " › ".join(t for level, t in trail if level > 1) or block.title.strip(),
                    line,
                    line,
                    [],
                    block.level,
                )
            )
        elif block.kind != "frontmatter":
            sections[-1].blocks.append(block)
        line += block.line_count
        sections[-1].end = line - 1
    return [s for s in sections if s.blocks]


def _lead(blocks: list[Block]) -> tuple[str, list[str]]:
    """The first sentence of a section (its lead rule) and, when it introduces something (it ends with
    a colon), the items of that list or the commands of that code block."""
    parts = _parts(_COMMENT.sub("", "".join(b.text for b in blocks)))
    prose = [i for i, (kind, _) in enumerate(parts) if kind == "text"]
    if not prose:
        return "", []
    first = prose[0]
    lines = split_lines(parts[first][1])
    if _LIST_ITEM.match(lines[0]):  # a list of rules: the first leads, a few more follow
        items = [" ".join(i.split()) for i in _LIST_ITEM.split(parts[first][1]) if i.strip()]
        return _sentence(items[0]), items[1:MAX_ITEMS]
    lead = _sentence(parts[first][1])
    if not lead.rstrip("*_").endswith(":") or first + 1 >= len(parts):
        return lead, []
    kind, following = parts[first + 1]
    if kind == "code":
        commands = [
            line.strip()
            for line in following.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
        return lead, [f"`{command}`" for command in commands[:MAX_COMMANDS]]
    items = [" ".join(item.split()) for item in _LIST_ITEM.split(following) if item.strip()]
    return lead, items[:MAX_ITEMS]


def _parts(text: str) -> list[tuple[str, str]]:
    """The section as paragraphs ("text", a list starting a paragraph of its own) and the bodies of its
    shell code fences ("code"; other code is not a command), in order."""
    parts: list[tuple[str, str]] = []
    position = 0
    for fence in _FENCED.finditer(text):
        parts += _paragraphs(text[position : fence.start()])
        head, _, body = fence.group(0).partition("\n")
        if head.strip(" `~").lower() in _SHELL:
            parts.append(("code", re.sub(r"(?m)^ {0,3}(`{3,}|~{3,})[ \t]*$", "", body)))
        position = fence.end()
    return parts + _paragraphs(text[position:])


def _paragraphs(text: str) -> list[tuple[str, str]]:
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        lines = split_lines(paragraph.strip("\n"))
        starts_a_list = bool(lines) and bool(_LIST_ITEM.match(lines[0]))
        cut = next((i for i, line in enumerate(lines) if i and _LIST_ITEM.match(line)), len(lines))
        cut = len(lines) if starts_a_list else cut  # prose that introduces a list ends where it begins
        for piece in ("".join(lines[:cut]), "".join(lines[cut:])):
            if piece.strip():
                found.append(("text", piece.strip("\n")))
    return found


def _sentence(paragraph: str) -> str:
    flat = " ".join(_LINK.sub(r"\1", paragraph).split())
    return _SENTENCE_END.split(flat, maxsplit=1)[0]


# -- dates and the auditor ------------------------------------------------------------------------------


def _file_date(path: Path, repo: GitRepo | None) -> tuple[str, str]:
    if repo is not None:
        committed = repo.file_date(os.path.relpath(path, repo.root))
        if committed is not None:
            return committed.date().isoformat(), "git"
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC).date().isoformat(), "mtime"
    except OSError:
        return "", ""


def _stale_findings(
    team: MemoryTree | None, layout: ProjectLayout, repo: GitRepo | None, claude_files: list[Path]
) -> dict[tuple[str, int], str]:
    """(absolute file, line) → evidence, for what the auditor finds stale in the team folder and in the
    CLAUDE.md files; a whole-file finding has line 0."""
    from ..audit.auditor import audit_tree

    tree = team if team is not None else MemoryTree(layout.team_dir or layout.project)
    report = audit_tree(
        tree,
        project_root=layout.git_root or layout.project,
        repo=repo,
        project_claude_md=layout.project_claude_md if claude_files else None,
    )
    found: dict[tuple[str, int], str] = {}
    for finding in report.findings:
        if finding.category not in _STALE:
            continue
        file = os.path.realpath(finding.file if os.path.isabs(finding.file) else tree.root / finding.file)
        found.setdefault(
            (file, finding.line if finding.entry else 0), f"{finding.category}: {finding.evidence}"
        )
    return found


def _file_flag(stale: dict[tuple[str, int], str], path: Path) -> str:
    return next((e for (file, _), e in stale.items() if file == os.path.realpath(path)), "")


def _relative(path: Path, root: Path) -> str:
    try:
        return Path(os.path.realpath(path)).relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        return str(path)
