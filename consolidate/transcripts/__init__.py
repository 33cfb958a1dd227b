"""Read Claude Code transcripts (JSONL): streaming, incremental, tolerant of bad lines.

Standard library only, so the capture hook can use it: `iter_new_records(path, state)` yields the
records appended since the last read, `find_markers(text)` parses learning markers, and
`read_transcript` / `active_records` give a whole session with its rewound branches left out.
"""

from .branches import active_records, active_uuids
from .lines import MAX_LINE_BYTES, LineStats, iter_json_lines, iter_lines
from .markers import Marker, find_markers
from .records import Record, ToolResult, ToolUse, human_text, normalize, tool_command
from .session import Transcript, TranscriptFile, find_transcripts, last_activity, read_transcript, tool_index
from .state import Change, FileIdentity, FileState, ScanState, classify_change, iter_new_records, state_key

__all__ = [
    "MAX_LINE_BYTES",
    "Change",
    "FileIdentity",
    "FileState",
    "LineStats",
    "Marker",
    "Record",
    "ScanState",
    "ToolResult",
    "ToolUse",
    "Transcript",
    "TranscriptFile",
    "active_records",
    "active_uuids",
    "classify_change",
    "find_markers",
    "find_transcripts",
    "human_text",
    "iter_json_lines",
    "iter_lines",
    "iter_new_records",
    "last_activity",
    "normalize",
    "read_transcript",
    "state_key",
    "tool_command",
    "tool_index",
]
