"""The offline signal discoverer: mine the sessions in the window, return a `DiscoveryReport`.

`discover` is what the dream calls; `discover_recent` is its fallback when an LLM discoverer fails: a
deterministic scan of the few most recent sessions. Both return the validated `DiscoveryReport`;
`find_candidates` (what `consolidate scan` prints) is the same report as plain data, no pydantic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory_layout.files import MAX_DOCUMENT_BYTES, read_regular

from ..imports import imported_texts
from ..marker import read_marker
from ..settings import Settings
from ..transcripts.session import TranscriptFile
from .echopool import Echo, EchoPool, SignalList
from .report import Learning, ScanReport
from .reportcache import cached_report
from .scanner import SignalCache
from .signals import Signal
from .window import most_recent_sessions, select_transcripts, timestamp_after
from .wishes import WISH_KIND, WishStore

if TYPE_CHECKING:
    from ..models import DiscoveryReport
    from .matcher import Matcher

Progress = Callable[[int, int, str], None]
MemoryTexts = Mapping[str, str] | Iterable[str]


def discover(
    settings: Settings,
    existing_memory_texts: MemoryTexts = (),
    since: datetime | None = None,
    sessions: Iterable[str] | None = None,
    extra_items: Sequence[Mapping[str, Any]] = (),
    *,
    transcripts_dir: Path | None = None,
    progress: Progress | None = None,
    save_state: bool = True,
) -> DiscoveryReport:
    """Candidates from the sessions after `since` (default: the last consolidation; all when never).
    `save_state=False` (a dry run) keeps the scan cache as it was."""
    return find_candidates(
        settings, existing_memory_texts, since, sessions, extra_items,
        transcripts_dir=transcripts_dir, progress=progress, save_state=save_state,
    ).to_model()  # fmt: skip


def find_candidates(
    settings: Settings,
    existing_memory_texts: MemoryTexts = (),
    since: datetime | None = None,
    sessions: Iterable[str] | None = None,
    extra_items: Sequence[Mapping[str, Any]] = (),
    *,
    transcripts_dir: Path | None = None,
    progress: Progress | None = None,
    save_state: bool = True,
    every: bool = False,
) -> ScanReport:
    """`discover` as plain data; `every`: every session of the folder, whatever the last consolidation."""
    directory = transcripts_dir or settings.layout.transcripts_dir
    if every:
        files = select_transcripts(directory)
    else:
        if since is None and sessions is None:
            since = read_marker(settings.memory_dir)
        files = select_transcripts(directory, since, sessions)
    return _run(settings, files, existing_memory_texts, since, extra_items, progress, save_state)


def discover_recent(
    settings: Settings,
    limit: int = 5,
    existing_memory_texts: MemoryTexts = (),
    extra_items: Sequence[Mapping[str, Any]] = (),
    *,
    transcripts_dir: Path | None = None,
    progress: Progress | None = None,
    save_state: bool = True,
) -> DiscoveryReport:
    """Candidates from the `limit` most recent sessions only, whatever the last consolidation."""
    directory = transcripts_dir or settings.layout.transcripts_dir
    files = most_recent_sessions(directory, limit)
    report = _run(settings, files, existing_memory_texts, None, extra_items, progress, save_state)
    report.notes.append(f"fallback scan of the {limit} most recent sessions")
    return report.to_model()


def _run(
    settings: Settings,
    files: list[TranscriptFile],
    memory: MemoryTexts,
    since: datetime | None,
    extra_items: Sequence[Mapping[str, Any]],
    progress: Progress | None,
    save_state: bool = True,
) -> ScanReport:
    cache = SignalCache(settings.run_dir("scan"), keep=save_state)
    pool = EchoPool()  # the signals, streamed: only the echoes a report can use are kept
    stats: Counter[str] = Counter()
    for done, file in enumerate(files, 1):
        scan = cache.scan(file)
        pool.add_file(s for s in scan.signals if timestamp_after(s.timestamp, since))
        stats.update({k: v for k, v in scan.stats.to_dict().items() if v})
        stats[f"files_{scan.change.value}"] += 1
        if progress is not None:
            progress(done, len(files), str(file.path))
    signals = pool.signals
    wishes = WishStore(cache.directory)  # interventions of earlier scans, to recognise one said again
    signals.extend(wishes.past(signals.full()))
    if save_state:
        cache.save()
        wishes.remember(s for s in signals.full() if s.kind != WISH_KIND)
        wishes.save()
    if extra_items:
        from .candidates import queue_signal

        signals.extend(queue_signal(dict(item)) for item in extra_items)
    texts = dict(memory) if isinstance(memory, Mapping) else list(memory)
    report = cached_report(cache.directory, signals, texts, build_report, save=save_state)
    signals.close()
    report.sessions_scanned = len({f.session_id for f in files})
    report.stats.update(stats)
    return report


def build_report(signals: Sequence[Signal | Echo], memory: MemoryTexts = ()) -> ScanReport:
    """Signals -> quality filter -> candidates -> dedupe -> compared with memory (recorded ones dropped).
    An echo may come as a signal or as the pool's `Echo`."""
    from .candidates import to_candidate  # loaded only when a report is built, not answered from the cache
    from .completion import complete as completed
    from .dedupe import merge_candidates
    from .echoes import ECHO_KIND, attach_echoes
    from .episodes import EPISODE_KIND, attach_episode_turns, member_of
    from .quality import rejection_reason
    from .replies import worded_from_reply
    from .wishes import WISH_SOURCES, repeated_wishes

    # the echoes are read as they are attached, never all at once (the pool keeps them on disk)
    echoes = (s for s in signals if s.kind == ECHO_KIND and not s.redacted)
    full = (
        signals.full() if isinstance(signals, SignalList) else [s for s in signals if isinstance(s, Signal)]
    )
    members = [m for s in full if s.kind == EPISODE_KIND and (m := member_of(s)) is not None]
    past_wishes = [s for s in full if s.kind == WISH_KIND]
    rules = [s for s in full if s.kind not in (ECHO_KIND, EPISODE_KIND, WISH_KIND)]
    one_offs: list[Signal] = []  # said as if for this time only: a standing rule if said again elsewhere
    stats: Counter[str] = Counter(signals=len(rules))
    dropped_queue: list[str] = []
    kept: list[Learning] = []
    sources: dict[int, Signal] = {}  # each candidate's signal: what an incomplete wording is completed from
    for signal in rules:
        signal = worded_from_reply(signal)  # a pronoun or a rule for this time, worded by the reply
        reason = rejection_reason(signal)
        if reason:
            stats[f"dropped_{reason.replace(' ', '_').replace('-', '_')}"] += 1
            if reason == "one-off" and signal.kind in WISH_SOURCES:
                one_offs.append(signal)
            if signal.queue_id:
                dropped_queue.append(signal.queue_id)
            continue
        kept.append(to_candidate(signal))
        sources[id(kept[-1])] = signal
    wished = repeated_wishes(one_offs, past_wishes)
    if wished:
        stats["repeated_wishes"] = len(wished)
        kept.extend(wished)
    remembered = list(memory.values() if isinstance(memory, Mapping) else memory)
    complete: list[Learning] = []
    as_said: dict[str, str] = {}  # a completed wording: the words it was said in
    for candidate in kept:  # worded, does it stand alone? Completed from its evidence, or nothing proposed
        if candidate.kind in ("marker", "queue"):
            complete.append(candidate)
            continue
        finished, problem = completed(candidate, sources.get(id(candidate)), remembered)
        if problem:
            stats[f"{'completed' if finished else 'dropped'}_{problem.replace(' ', '_')}"] += 1
        if finished is not None:
            complete.append(finished)
            if finished.principle != candidate.principle:
                as_said[finished.principle] = candidate.principle
            continue
        if candidate.queue_id:
            dropped_queue.append(candidate.queue_id)
    kept = complete
    nothing_remembered = not any(text.strip() for text in remembered)  # a first scan: no matcher at all
    matcher: Matcher | None = None  # read only when a candidate needs it
    candidates = []
    wishes = {c.principle for c in wished}
    merged = merge_candidates(kept)
    attach_echoes(merged, echoes)
    notes: list[str] = []  # every learning left out because the memory states it, with the entry
    for candidate in merged:
        if nothing_remembered:  # what the matcher says of every learning when nothing is remembered
            candidate.category, candidate.related = "FILL_GAP", ""
            candidates.append(candidate)
            continue
        if matcher is None:
            from .matcher import Matcher

            matcher = Matcher.of_texts(remembered)
        match = matcher.judge(candidate.principle)
        if (
            candidate.principle in as_said
            and matcher.judge(as_said[candidate.principle]).category == "RECORDED"
        ):
            stats["dropped_recorded"] += 1  # the memory states the rule as it was said: what the completion
            notes.append(_recorded_note(candidate, matcher.judge(as_said[candidate.principle]).related))
            continue  # added (a name for its object, a reason's words) is no new rule, nor an edit of one
        if candidate.principle in wishes and match.category in ("RECORDED", "UPDATE"):
            stats["dropped_wish_remembered"] += 1  # memory speaks of it: said again, it was not followed
            continue
        if match.category == "RECORDED" and match.how == "words":
            stats["dropped_recorded"] += 1
            notes.append(_recorded_note(candidate, match.quote or match.related))
            if candidate.queue_id:
                dropped_queue.append(candidate.queue_id)
            continue
        if match.category == "RECORDED":  # said in other words: the dream sets it aside, shown with it
            match = replace(match, category="UPDATE")
        elif match.category == "UNSURE":  # negates a line about something else: the dream sets it aside
            stats["unsure_contradiction"] += 1
            match = replace(match, category="CONTRADICT")
        elif match.category == "FORBIDDEN":  # orders what the memory forbids: the dream sets it aside
            match = replace(match, category="CONTRADICT")
        candidate.category = match.category
        candidate.related = match.related
        candidates.append(candidate)
    attach_episode_turns(candidates, members, rules)
    candidates.sort(key=lambda c: (-(c.impact * c.confidence), -c.frequency, c.principle))
    report = ScanReport(candidates=candidates, notes=notes, dropped_queue_ids=dropped_queue)
    report.stats.update(stats)
    return report


def _recorded_note(candidate: Learning, entry: str) -> str:
    """What the review says of a learning the memory already states: the rule, how often the sessions
    said it (a rule said again and again is one the sessions did not follow), and the entry."""
    from ..secrets import redact
    from .text import clip

    seen = f" (seen {candidate.frequency}×)" if candidate.frequency > 1 else ""
    return redact(f"already recorded{seen}: {clip(candidate.principle, 90)} — as “{clip(entry, 120)}”")


def load_memory_texts(settings: Settings) -> dict[str, str]:
    """The texts discovery compares against: every Markdown file of the memory dir and both CLAUDE.md."""
    texts: dict[str, str] = {}
    layout = settings.layout
    paths = sorted(settings.memory_dir.rglob("*.md")) if settings.memory_dir.is_dir() else []
    for path in [*paths, layout.user_claude_md, layout.project_claude_md]:
        try:
            texts[str(path)] = read_regular(path, MAX_DOCUMENT_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
    for claude_md in (layout.user_claude_md, layout.project_claude_md):
        texts.update((str(source), text) for source, text in imported_texts(claude_md))
    return texts
