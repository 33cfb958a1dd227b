"""Run the offline dream over a real project's history, window by window, and score it.

Each window runs from one version of the project's CLAUDE.md to the next one that added a rule: the
sessions active in it (memory writes stripped, cut at the window's end) are mined with the version
at the window's start as the project's CLAUDE.md, as a user consolidating at every such commit would.
Recall: the labeled rules whose teaching moment a candidate points at and states. Precision: the
plan's ADDs, judged by hand (the verdict file); ADDs nobody judged yet are listed, never guessed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_layout import project_key

from ..discover.candidates import pointer_line
from ..dream.additions import normalize
from ..dream.gather import gather
from ..dream.orient import orient
from ..dream.synthesize import synthesize
from ..engines.offline import OfflineEngine
from ..models import Candidate
from ..settings import Settings, load_settings
from ..transcripts.records import human_text
from ..transcripts.session import find_transcripts, read_transcript
from .history_corpus import copy_sessions, reverse_edits
from .history_labels import Labels, Moment, Rule, Version, read_history, verdict_key

EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
MAX_ADD = 7


@dataclass
class Window:
    start: datetime | None
    until: datetime | None
    memory: dict[str, str]  # project files: CLAUDE.md (and what it imports) as of `start`
    split: str  # "dev" | "heldout"
    name: str


@dataclass
class Add:
    window: str
    split: str
    candidate: Candidate
    key: str
    verdict: str = ""  # keep | drop | "" (not judged yet)
    reason: str = ""
    hint: str = ""  # what the labels say about the moment it points at
    repeat: bool = False  # said in the same words by an earlier window's ADD (applied then, not new now)


@dataclass
class HistoryResult:
    labels: Labels
    versions: list[Version] = field(default_factory=list)
    candidates: list[tuple[Window, Candidate]] = field(default_factory=list)
    adds: list[Add] = field(default_factory=list)
    found: dict[str, list[str]] = field(default_factory=dict)  # rule id -> candidate principles
    moments_found: set[Moment] = field(default_factory=set)  # cited by a candidate that states the rule
    times: dict[Moment, datetime] = field(default_factory=dict)  # when each user turn was said
    non_lesson_hits: list[tuple[str, str]] = field(default_factory=list)

    def recall(self, split: str) -> tuple[int, int]:
        rules = [r for r in self.labels.taught() if rule_split(self.labels, self.versions, r) == split]
        return sum(r.id in self.found for r in rules), len(rules)

    def moment_recall(self, split: str) -> tuple[int, int]:
        """Labeled moments said before the version that wrote the rule down (later ones repeat what memory
        already holds: rightly not proposed again), and how many of them a candidate stating the rule cites."""
        moments = set()
        for rule in self.labels.taught():
            if rule_split(self.labels, self.versions, rule) != split:
                continue
            own = _version(self.versions, rule.version)
            moments |= {
                m for m in rule.moments if own is None or m not in self.times or self.times[m] <= own.time
            }
        return len(moments & self.moments_found), len(moments)

    def precision(self, split: str) -> tuple[int, int, int]:
        """(kept, judged, unjudged) ADDs of the split."""
        adds = [a for a in self.adds if a.split == split and not a.repeat]
        judged = [a for a in adds if a.verdict]
        return sum(a.verdict == "keep" for a in judged), len(judged), len(adds) - len(judged)


def windows(labels: Labels, corpus: Path) -> list[Window]:
    """The consolidation windows of a labeled corpus, oldest first."""
    root = corpus / labels.corpus
    if not labels.history:
        files = {name: (root / path).read_text(encoding="utf-8") for name, path in labels.files.items()}
        moments = [(m.session, m.uuid) for m in labels.reverse_edits]
        main = labels.memory_file
        files[main] = reverse_edits(files[main], root / labels.transcripts, moments)
        return [Window(None, None, files, "heldout", "all sessions")]
    versions = read_history(root / labels.history)
    cut = _version(versions, labels.heldout_after)
    bearing = {r.version for r in labels.rules if r.status != "code-description"}
    stops = [v for v in versions if v.sha.startswith(tuple(bearing))] if bearing else []
    result, previous = [], None
    for stop in [*stops, None]:
        memory = _memory_at(root / labels.history, versions, previous, labels.memory_file)
        end = stop.time if stop else None
        split = "dev" if cut and end is not None and end <= cut.time else "heldout"
        name = f"→ {stop.sha[:8]}" if stop else f"{previous.sha[:8] if previous else 'start'} → end"
        result.append(Window(previous.time if previous else None, end, memory, split, name))
        previous = stop
    return result


def _version(versions: list[Version], sha: str) -> Version | None:
    return next((v for v in versions if sha and v.sha.startswith(sha)), None)


def _memory_at(folder: Path, versions: list[Version], at: Version | None, name: str) -> dict[str, str]:
    if at is None:
        return {}
    return {name: (folder / at.file).read_text(encoding="utf-8")}


def rule_split(labels: Labels, versions: list[Version], rule: Rule) -> str:
    """A rule is held out when the version that first holds it is newer than the cut."""
    cut, own = _version(versions, labels.heldout_after), _version(versions, rule.version)
    if cut is None or own is None:
        return "heldout"
    return "dev" if own.time <= cut.time else "heldout"


def run_window(
    window: Window, labels: Labels, corpus: Path, root: Path, applied: list[str], kept: Path | None = None
) -> tuple[list[Candidate], list[str]]:
    """The candidates of one window and the summaries of its plan's ADDs; `applied` holds the entries
    earlier windows added (as if each plan had been applied, so a lesson is not proposed twice), and
    `kept` holds the memory dir and the scan state of the earlier windows (the user's own, scan after
    scan)."""
    home, project = root / "home", root / "project"
    memory, state = (kept or root) / "memory", (kept or root) / "state"
    project.mkdir(parents=True)
    if applied:
        memory.mkdir(parents=True, exist_ok=True)
        entries = "".join(f"- {line}\n" for line in applied)
        (memory / "MEMORY.md").write_text(f"# Project Memory\n\n## Learnings\n\n{entries}", encoding="utf-8")
    for name, text in window.memory.items():
        (project / name).write_text(text, encoding="utf-8")
    transcripts = home / "projects" / project_key(project)
    copy_sessions(corpus / labels.corpus / labels.transcripts, transcripts, window.start, window.until)
    settings = Settings(load_settings(project, memory_dir=memory, home=home).layout, state)
    snapshot = orient(settings, create=False)
    gathered = asyncio.run(gather(OfflineEngine(), snapshot, since=window.start or EPOCH))
    plan = synthesize(snapshot, gathered, engine="offline", max_add=MAX_ADD).plan
    candidates = list(gathered.discovery.candidates) if gathered.discovery else []
    learned = [(p.model_extra or {}).get("learning") or {} for p in plan.proposals]
    adds = [
        " ".join(str(learning.get("principle", "")).split())
        for p, learning in zip(plan.proposals, learned, strict=True)
        if learning and p.skipped is None  # an ADD, or an EDIT that writes the learning into an entry
    ]
    # a learning the plan words otherwise (a file spelt as the project spells it, a rule said around
    # the user) is known by the record its evidence points at first
    reworded = {
        _first_record(learning): wording
        for learning, wording in zip(
            (x for p, x in zip(plan.proposals, learned, strict=True) if x and p.skipped is None),
            adds,
            strict=True,
        )
        if _first_record(learning)
    }
    said = {" ".join(c.principle.split()) for c in candidates}
    said |= {" ".join(normalize(c).principle.split()) for c in candidates}
    for candidate in candidates:
        first = candidate.evidence[0] if candidate.evidence else None
        wording = reworded.pop((first.session, first.uuid), None) if first else None
        if wording and wording not in said:
            candidate.principle = wording
    return candidates, adds  # the principles of the learnings the plan writes


def _first_record(learning: dict[str, Any]) -> tuple[str, str] | None:
    evidence = learning.get("evidence") or []
    first = evidence[0] if evidence and isinstance(evidence[0], dict) else {}
    return (str(first.get("session", "")), str(first.get("uuid", ""))) if first.get("uuid") else None


def restatements(labels: Labels, corpus: Path, workdir: Path) -> tuple[list[str], list[str]]:
    """Every session of the tuned-on part dreamed at once against the CLAUDE.md of the cut (which
    holds every rule those sessions taught): (the learnings the plan would still write, the ones it
    sets aside as already recorded). Each written one restates a rule or is new to that version."""
    root = corpus / labels.corpus
    versions = read_history(root / labels.history)
    cut = _version(versions, labels.heldout_after)
    if cut is None:
        return [], []
    memory = _memory_at(root / labels.history, versions, cut, labels.memory_file)
    window = Window(None, cut.time, memory, "dev", "tuned-on sessions against the cut")
    candidates, written = run_window(window, labels, corpus, workdir, [])
    said = {" ".join(c.principle.split()) for c in candidates}
    return written, sorted(said - set(written))


def talk_anchors(folder: Path, times: dict[Moment, datetime] | None = None) -> dict[tuple[str, str], str]:
    """(session, record uuid) -> the uuid of the user's turn (typed text or rejection) it answers; `times`
    gets when each user turn was said."""
    anchors: dict[tuple[str, str], str] = {}
    for file in find_transcripts(folder):
        if file.is_subagent:
            continue
        last = ""
        for record in read_transcript(file, lean=True).active():
            if record.type == "user" and (human_text(record) or any(r.rejected for r in record.tool_results)):
                last = record.uuid
                stamp = _stamp(record.timestamp)
                if times is not None and stamp is not None:
                    times[Moment(file.session_id, record.uuid)] = stamp
            anchors[(file.session_id, record.uuid)] = last or record.uuid
    return anchors


def _stamp(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def run_history(
    labels: Labels, corpus: Path, workdir: Path, progress: Callable[[str], None] | None = None
) -> HistoryResult:
    result = HistoryResult(labels)
    if labels.history:
        result.versions = read_history(corpus / labels.corpus / labels.history)
    anchors = talk_anchors(corpus / labels.corpus / labels.transcripts, result.times)
    said: set[str] = set()
    applied: list[str] = []
    for number, window in enumerate(windows(labels, corpus)):
        if progress:
            progress(f"window {window.name}")
        candidates, add_summaries = run_window(
            window, labels, corpus, workdir / f"w{number:02d}", applied, workdir
        )
        for candidate in candidates:
            result.candidates.append((window, candidate))
            wordings = {" ".join(c.principle.split()) for c in (candidate, normalize(candidate))}
            if wordings & set(add_summaries):
                add = _add(window, candidate, labels, anchors)
                wording = " ".join(candidate.principle.lower().split())
                add.repeat = wording in said
                said.add(wording)
                result.adds.append(add)
                applied.append(pointer_line(candidate))
    _score(result, anchors)
    return result


def moments_of(candidate: Candidate, anchors: dict[tuple[str, str], str]) -> set[Moment]:
    found = set()
    for evidence in candidate.evidence:
        found.add(Moment(evidence.session, evidence.uuid))
        found.add(Moment(evidence.session, anchors.get((evidence.session, evidence.uuid), evidence.uuid)))
    return found


def _add(window: Window, candidate: Candidate, labels: Labels, anchors: dict[tuple[str, str], str]) -> Add:
    first = candidate.evidence[0] if candidate.evidence else None
    key = verdict_key(first.session, first.uuid, candidate.principle) if first else ""
    add = Add(window.name, window.split, candidate, key, hint=_hint(candidate, labels, anchors))
    judged = labels.verdicts.get(key)
    if judged is not None:
        add.verdict, add.reason = judged.verdict, judged.reason
    return add


def _hint(candidate: Candidate, labels: Labels, anchors: dict[tuple[str, str], str]) -> str:
    moments = moments_of(candidate, anchors)
    for rule in [*labels.rules, *labels.lessons]:
        if moments & set(rule.moments):
            stated = "states it" if rule.stated_by(candidate.principle) else "does not state it"
            return f"{rule.status} {rule.id} ({stated})"
    for moment, why in labels.non_lessons:
        if moment in moments:
            return f"non-lesson: {why}"
    return "unlabeled moment"


def _score(result: HistoryResult, anchors: dict[tuple[str, str], str]) -> None:
    non = {m: why for m, why in result.labels.non_lessons}
    for _, candidate in result.candidates:
        moments = moments_of(candidate, anchors)
        taught: set[Moment] = set()
        for rule in result.labels.rules:
            if moments & set(rule.moments) and rule.stated_by(candidate.principle):
                result.found.setdefault(rule.id, []).append(candidate.principle)
                result.moments_found |= moments & set(rule.moments)
                taught |= set(rule.moments)
        # A moment labeled both ways (a one-off flag in the exchange that taught a rule) is a hit only
        # for a candidate that does not state the rule it taught.
        for moment in (moments & non.keys()) - taught:
            result.non_lesson_hits.append((str(moment), candidate.principle))


def summary(result: HistoryResult) -> dict[str, Any]:
    data: dict[str, Any] = {"corpus": result.labels.corpus, "splits": {}}
    for split in ("dev", "heldout"):
        found, total = result.recall(split)
        moments, labeled = result.moment_recall(split)
        kept, judged, unjudged = result.precision(split)
        if not total and not judged and not unjudged:
            continue
        data["splits"][split] = {
            "rules_found": found,
            "rules_taught": total,
            "recall": round(found / total, 3) if total else None,
            "moments_found": moments,
            "moments_labeled": labeled,
            "adds": judged + unjudged,
            "adds_kept": kept,
            "adds_unjudged": unjudged,
            "add_precision": round(kept / judged, 3) if judged else None,
        }
    data["found"] = sorted(result.found)
    data["missed"] = sorted(r.id for r in result.labels.taught() if r.id not in result.found)
    data["non_lesson_hits"] = len(result.non_lesson_hits)
    return data
