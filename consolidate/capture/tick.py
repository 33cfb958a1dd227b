"""`consolidate tick`: read what this project's transcripts gained, queue its markers, say what waits.

Exactly once: markers are queued (one committed transaction) before the read offsets are saved, so a
tick killed at any point re-reads at most what it had not yet recorded, and the queue ignores what it
already holds or has processed. One tick per project scans at a time (a lock); a hook that finds the
lock taken skips the scan and only reports. Hooks bound the bytes one tick reads; the rest waits for
the next tick.
"""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

from ..plain import Frozen, Plain, replace
from ..transcripts.lines import LineStats
from ..transcripts.markers import find_markers
from ..transcripts.records import METADATA_PREFIXES, PROGRESS_MARKERS, normalize
from ..transcripts.session import TranscriptFile, find_transcripts
from ..transcripts.state import ScanState, iter_new_records, state_key
from . import handoff, watchdog
from .channels import Sorted, sort_markers
from .places import repo_root, transcripts_dir
from .queue import QUEUE_FILE, Queue, pending_signals

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import datetime
    from typing import IO, Any

    from .channels import Typo
    from .config import Config

TICK_DIR = "tick"
FACTS_KEEP_SECONDS = 2 * 86400
FAULT_ENV = "CONSOLIDATE_TICK_FAULT"  # tests: "after-enqueue" exits between the commit and the offsets
# Lines a tick has no use for, passed over unparsed (their offsets still advance): progress and
# attachment records — a live session writes tens of KB of them a turn (tool listings, prompt
# snapshots) — and metadata records other than the titles the handoff keeps.
_TITLES = tuple(f'"{kind}"'.encode() for kind in handoff.TITLE_KEYS)
UNUSED_PREFIXES = (
    *(p for p in METADATA_PREFIXES if not p.endswith(_TITLES)),
    *(f'{{"type":{space}"{kind}"'.encode() for kind in ("api-request-shape", "api-request-blob") for space in ("", " ")),
)  # fmt: skip
UNUSED_MARKERS = (*PROGRESS_MARKERS, b'"attachment":{', b'"attachment": {')


class TickResult(Plain):
    __slots__ = FIELDS = (
        "added",
        "lessons",
        "typos",
        "problems",
        "nudge",
        "signals",
        "live_facts",
        "scanned",
        "stats",
    )

    def __init__(self) -> None:
        self.added: list[str] = []
        self.lessons: list[str] = []
        self.typos: list[Typo] = []
        self.problems: list[str] = []
        self.nudge: str | None = None
        self.signals: list[str] = []
        self.live_facts: dict[str, Any] | None = None  # the live session's handoff facts after this tick
        self.scanned = False
        self.stats = LineStats()

    def lines(self) -> list[str]:
        """What the agent is told: the drain signals, typos, problems and the nudge; [] when quiet."""
        return [
            *self.signals,
            *(t.describe() for t in self.typos),
            *self.problems,
            *([self.nudge] if self.nudge else []),
        ]


class TickScope(Frozen):
    __slots__ = FIELDS = (
        "home", "state_dir", "cwd", "config", "live_transcript", "byte_budget", "wait", "transcripts_override",
        "deliver_nudge",
    )  # fmt: skip
    home: Path
    state_dir: Path
    cwd: str
    config: Config
    live_transcript: Path | None
    byte_budget: int | None
    wait: bool
    transcripts_override: Path | None
    deliver_nudge: bool

    def __init__(
        self,
        home: Path,
        state_dir: Path,
        cwd: str,
        config: Config,
        live_transcript: Path | None = None,
        byte_budget: int | None = None,
        wait: bool = True,
        transcripts_override: Path | None = None,  # a hook knows the live transcript's folder
        deliver_nudge: bool = True,  # False for a caller that cannot speak to the model (Stop): it stays due
    ) -> None:
        self._set(
            home=home,
            state_dir=state_dir,
            cwd=cwd,
            config=config,
            live_transcript=live_transcript,
            byte_budget=byte_budget,
            wait=wait,
            transcripts_override=transcripts_override,
            deliver_nudge=deliver_nudge,
        )

    @property
    def project(self) -> Path:
        return repo_root(self.cwd)

    @property
    def transcripts(self) -> Path:
        return self.transcripts_override or transcripts_dir(self.home, self.cwd)

    @property
    def scan_file(self) -> Path:
        return self.state_dir / TICK_DIR / (self.transcripts.name + ".json")


def run_tick(scope: TickScope, now: datetime) -> TickResult:
    result = TickResult()
    bucket = str(scope.project)
    with Queue(scope.state_dir / QUEUE_FILE) as queue:
        with _scan_lock(scope.scan_file, scope.wait) as held:
            if held:
                _scan(scope, queue, bucket, result, now)
        result.signals = pending_signals(queue, bucket, scope.config)
    return result


def _scan(scope: TickScope, queue: Queue, bucket: str, result: TickResult, now: datetime) -> None:
    state = ScanState.load(scope.scan_file)
    found = Sorted()
    transcripts = _ordered(find_transcripts(scope.transcripts), scope.live_transcript)
    spent = 0
    for transcript in transcripts:
        allowance = None if scope.byte_budget is None else scope.byte_budget - spent
        if allowance is not None and allowance <= 0:
            break
        spent += _read(transcript, state, scope.config, found, result.stats, allowance)
    result.added = queue.enqueue(bucket, found.items)
    _capture_lessons(scope, found.lessons, result, now)
    if os.environ.get(FAULT_ENV) == "after-enqueue":
        os._exit(9)
    _report_live(state, _live(transcripts, scope.live_transcript), scope, result)
    state.forget_missing()
    _drop_old_facts(state, now)
    state.save(scope.scan_file)
    result.typos, result.scanned = found.typos, True


def _report_live(state: ScanState, live_path: Path, scope: TickScope, result: TickResult) -> None:
    """The watchdog's nudge (once per dry stretch, by a caller that can deliver it) and the handoff
    facts of the session the tick speaks for."""
    live = state.files.get(state_key(live_path))
    if live is None:
        return
    config = scope.config
    if "watch" in live.data and scope.deliver_nudge:
        result.nudge = watchdog.nudge(live.data["watch"], config.watchdog_turns, config.watchdog_chars)
    result.live_facts = live.data.get("handoff")


def _drop_old_facts(state: ScanState, now: datetime) -> None:
    """A session quiet for two days has left its handoff: forget its facts, keep the state small."""
    cutoff = (now.timestamp() - FACTS_KEEP_SECONDS) * 1e9
    for entry in state.files.values():
        if entry.identity.mtime_ns < cutoff:
            entry.data.pop("handoff", None)


def _read(
    transcript: TranscriptFile,
    state: ScanState,
    config: Config,
    found: Sorted,
    stats: LineStats,
    allowance: int | None,
) -> int:
    """Read what the transcript gained (stopping once `allowance` bytes are read); the bytes read."""
    key = state_key(transcript.path)
    start = state.files[key].offset if key in state.files else 0
    for raw in iter_new_records(
        transcript.path, state, stats, skip_prefixes=UNUSED_PREFIXES, skip_markers=UNUSED_MARKERS
    ):
        entry = state.files[key]
        _absorb(raw, entry.data, transcript, config, found)
        if allowance is not None and entry.offset - start >= allowance:
            _mark_partial(state, key)
            break
    final = state.files.get(key)
    return max(0, final.offset - start) if final else 0


def _absorb(
    raw: dict[str, Any], data: dict[str, Any], transcript: TranscriptFile, config: Config, found: Sorted
) -> None:
    """One record: its markers sorted; for a main session, the watchdog and the handoff facts."""
    main = not transcript.is_subagent
    if main:
        handoff.absorb_title(data.setdefault("handoff", handoff.fresh()), raw)
    record = normalize(raw)
    if record is None:
        return
    markers = find_markers(record.text) if record.type == "assistant" and not record.meta else []
    if markers:
        source = {
            "session": transcript.session_id,
            "agent": transcript.agent_id,
            "timestamp": record.timestamp,
        }
        sort_markers(markers, config.channels, source, found)
    if main:
        watchdog.observe(data.setdefault("watch", watchdog.fresh()), record, bool(markers))
        handoff.absorb(data["handoff"], record)


def _mark_partial(state: ScanState, key: str) -> None:
    """Record the file as only as long as what was read, so the next tick sees the rest as appended."""
    entry = state.files[key]
    entry.identity = replace(entry.identity, size=entry.offset)


def _capture_lessons(
    scope: TickScope, lessons: list[dict[str, Any]], result: TickResult, now: datetime
) -> None:
    if not lessons:
        return
    from ..errors import UsageError
    from ..learnings.store import open_store  # only when the agent wrote a lesson

    store = open_store(scope.state_dir, scope.project)
    for lesson in lessons:
        try:
            episode, is_new = store.capture(lesson, now)
        except UsageError as exc:
            result.problems.append(f"a #lesson block was not recorded: {exc}")
            continue
        if is_new:
            result.lessons.append(episode.id)
            if episode.awaits_confirmation:
                result.problems.append(
                    f"lesson {episode.id} asks to block calls; it only advises until the user confirms it "
                    f"with `consolidate learnings confirm {episode.id}`"
                )


def _ordered(files: list[TranscriptFile], live: Path | None) -> list[TranscriptFile]:
    """The live session first, then the most recently written: a byte budget goes where it matters."""

    def recency(file: TranscriptFile) -> float:
        try:
            return -file.path.stat().st_mtime
        except OSError:
            return 0.0

    live_key = os.path.abspath(live) if live else None
    return sorted(files, key=lambda f: (os.path.abspath(f.path) != live_key, recency(f)))


def _live(ordered: list[TranscriptFile], live: Path | None) -> Path:
    """The session the watchdog speaks for: the hook's, else the most recently written main session."""
    if live is not None:
        return live
    return next((f.path for f in ordered if not f.is_subagent), Path("/nonexistent"))


@contextmanager
def _scan_lock(scan_file: Path, wait: bool) -> Iterator[bool]:
    """Hold the project's scan lock; yields False (without waiting) when `wait` is off and it is taken."""
    scan_file.parent.mkdir(parents=True, exist_ok=True)
    handle: IO[str] = open(scan_file.with_suffix(".lock"), "a")  # noqa: SIM115 - held for the body
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        handle.close()
