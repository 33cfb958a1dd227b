"""Find and read the transcripts of a project: main sessions and their subagents.

Layout: `<dir>/<session>.jsonl`, and `<dir>/<session>/subagents/[workflows/<run>/]agent-<id>.jsonl`
with an `agent-<id>.meta.json` sidecar.
"""

from __future__ import annotations

import gc
import json
import os
import re
from contextlib import contextmanager
from pathlib import Path

from ..plain import Frozen, Plain
from .branches import active_records
from .lines import MAX_LINE_BYTES, LineStats, iter_json_blocks
from .records import METADATA_PREFIXES, PROGRESS_MARKERS, Record, ToolResult, ToolUse, normalize
from .state import FileIdentity

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

_TIMESTAMP = re.compile(rb'"timestamp"\s*:\s*"([0-9T:.+\-Z]{10,40})"')
_TAIL_BYTES = 64 * 1024


class TranscriptFile(Frozen):
    """One transcript on disk: a main session, or a subagent of `session_id` when `agent_id` is set."""

    __slots__ = FIELDS = ("path", "session_id", "agent_id")
    path: Path
    session_id: str
    agent_id: str

    def __init__(self, path: Path, session_id: str, agent_id: str = "") -> None:
        self._set(path=path, session_id=session_id, agent_id=agent_id)

    @property
    def is_subagent(self) -> bool:
        return bool(self.agent_id)

    def meta(self) -> dict[str, Any]:
        """The subagent's `.meta.json` sidecar ({} when absent or unreadable)."""
        if not self.agent_id:
            return {}
        try:
            data = json.loads(self.path.with_suffix(".meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}


class Transcript(Plain):
    """The normalised records of one transcript file, in file order."""

    __slots__ = FIELDS = ("file", "records", "stats", "end_offset", "identity")

    def __init__(
        self,
        file: TranscriptFile,
        records: list[Record] | None = None,
        stats: LineStats | None = None,
        end_offset: int = 0,
        identity: FileIdentity | None = None,  # of the file as it was opened for this read
    ) -> None:
        self.file = file
        self.records = [] if records is None else records
        self.stats = LineStats() if stats is None else stats
        self.end_offset = end_offset
        self.identity = identity

    def active(self) -> list[Record]:
        return active_records(self.records)


def find_transcripts(directory: Path) -> list[TranscriptFile]:
    """Main sessions and their subagent transcripts under a project's transcript dir, sorted by path."""
    found: list[TranscriptFile] = []
    try:
        entries = sorted(
            os.scandir(directory),
            key=lambda e: (e.name.removesuffix(".jsonl"), not e.name.endswith(".jsonl")),
        )
    except OSError:
        return []
    for entry in entries:
        if entry.name.endswith(".jsonl") and _is_file(entry):
            found.append(TranscriptFile(Path(entry.path), entry.name[: -len(".jsonl")]))
        elif _is_dir(entry):
            found.extend(_subagents(Path(entry.path)))
    return found


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _subagents(session_dir: Path) -> Iterable[TranscriptFile]:
    folder = session_dir / "subagents"
    if not folder.is_dir():
        return []
    try:
        paths = sorted(folder.rglob("agent-*.jsonl"))
    except OSError:
        return []
    return [TranscriptFile(p, session_dir.name, p.stem.removeprefix("agent-")) for p in paths if p.is_file()]


def read_transcript(
    file: TranscriptFile, start: int = 0, max_line_bytes: int = MAX_LINE_BYTES, *, lean: bool = False
) -> Transcript:
    """Read complete lines from byte `start`; bad lines are counted in `stats`, never raised. Only the
    fields a `Record` holds are decoded (see `fastjson`).

    `lean=True` reads only what following the dialog needs: progress records (hook and subagent
    progress) are left unparsed, and a tool result that is no error keeps no text (its content is
    not even decoded).
    """
    transcript = Transcript(file, end_offset=start)
    try:
        with paused_gc(), open(file.path, "rb") as handle:
            transcript.identity = FileIdentity.from_handle(handle)
            handle.seek(start)
            markers = PROGRESS_MARKERS if lean else ()
            from .fastjson import record_decoders  # msgspec: not on the hook path

            fast = record_decoders(lean)
            one, many = (fast.one, fast.lines) if fast is not None else (None, None)
            envelope = fast.record if fast is not None else normalize  # what msgspec decoded
            blocks = iter_json_blocks(
                handle, transcript.stats, max_line_bytes, METADATA_PREFIXES, markers, one, many
            )
            line_no = 0
            for block in blocks:
                for raw in block:
                    line_no += 1
                    if raw.__class__ is dict:
                        record = normalize(raw, line_no, lean=lean)
                    else:
                        record = envelope(raw, line_no)
                    if record is not None:
                        transcript.records.append(record)
            transcript.end_offset = max(start, transcript.stats.offset)
    except OSError:
        pass
    return transcript


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while parsing: JSON records hold no cycles, and collections
    triggered by their many allocations otherwise cost about a third of the read."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def tool_index(records: Iterable[Record]) -> tuple[dict[str, ToolUse], dict[str, ToolResult]]:
    """Tool uses and tool results by tool_use id, so each call can be paired with its outcome."""
    uses: dict[str, ToolUse] = {}
    results: dict[str, ToolResult] = {}
    for record in records:
        for use in record.tool_uses:
            uses[use.id] = use
        for result in record.tool_results:
            results[result.tool_use_id] = result
    return uses, results


def last_activity(path: Path) -> float:
    """When a transcript was last written to: its newest record timestamp, else its mtime."""
    from datetime import datetime

    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - _TAIL_BYTES))
            tail = handle.read()
            mtime = os.fstat(handle.fileno()).st_mtime
    except OSError:
        return 0.0
    times = []
    for stamp in _TIMESTAMP.findall(tail):
        try:
            times.append(datetime.fromisoformat(stamp.decode().replace("Z", "+00:00")).timestamp())
        except ValueError:
            continue
    return max(times) if times else mtime
