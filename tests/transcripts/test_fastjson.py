"""The typed msgspec decoder reads transcripts exactly as the standard parser does (records, stats and
offsets), including the lines it refuses; and the chunked reader agrees with the line reader."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.transcripts import LineStats, TranscriptFile, fastjson, iter_json_lines, read_transcript
from consolidate.transcripts.lines import iter_json_blocks

msgspec = pytest.importorskip("msgspec")

_ODD_LINES = [
    b'{"type": "user", "uuid": "u1", "message": {"content": "hi"}}',
    b'{"type": "user", "message": "not an object"}',  # msgspec refuses the shape: the stdlib reads it
    b'{"type": "assistant", "message": {"content": [{"type": "text", "text": "a"}, "stray"]}}',
    b'{"type": "user", "message": {"content": [{"type": "tool_result", "content": [1, 2]}]}}',
    b'{"type": "user", "toolUseResult": {"stdout": "' + b"x" * 300 + b'"}, "message": {"content": "ok"}}',
    b"not json",
    b"[1, 2]",
    b"",
    b"   ",
    b"\xff\xfe",
    b'{"a": 1}{"b": 2}',
    b'{"type": "user", "message": {"content": "\\ud800 lone surrogate"}}',
    b'{"type": "user", "n": 123456789012345678901234567890, "message": {"content": "big"}}',
    b'{"type": "progress", "data": {"x": 1}}',
    b'{"type": "file-history-snapshot", "snapshot": {}}',
]


def _stdlib(data: bytes, cap: int) -> tuple[list[dict], LineStats]:
    stats = LineStats()
    return [record for _, record in iter_json_lines(io.BytesIO(data), stats, cap)], stats


def _blocks(data: bytes, cap: int) -> tuple[list[dict], LineStats]:
    decoders = fastjson.record_decoders()
    assert decoders is not None
    stats = LineStats()
    blocks = iter_json_blocks(io.BytesIO(data), stats, cap, decode=decoders.one, decode_lines=decoders.lines)
    return [record for block in blocks for record in block], stats


def _narrow(record: dict) -> dict:
    """What the typed decoder keeps of a record: the envelope and the message content."""
    keep = fastjson._Envelope.__annotations__
    return {k: v for k, v in record.items() if k in keep}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_ODD_LINES), max_size=12), st.sampled_from([64, 1 << 20]), st.booleans())
def test_typed_decoder_agrees_with_the_standard_parser(lines: list[bytes], cap: int, tail: bool) -> None:
    data = b"\n".join(lines) + (b"\n" if lines else b"") + (b'{"type": "user", "trunc' if tail else b"")
    expected, expected_stats = _stdlib(data, cap)
    got, got_stats = _blocks(data, cap)
    assert [_narrow(r) for r in got] == [_narrow(r) for r in expected]
    assert got_stats == expected_stats


def test_refused_lines_are_read_by_the_standard_parser() -> None:
    data = b"\n".join(_ODD_LINES) + b"\n"
    got, stats = _blocks(data, 1 << 20)
    assert [r.get("message") for r in got[:2]] == [{"content": "hi"}, "not an object"]
    assert stats.bad_json == 3  # "not json", the array, the undecodable bytes
    assert "toolUseResult" not in got[4]  # skipped inside the parser


def test_transcript_reads_the_same_with_and_without_msgspec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = SessionWriter("s1")
    writer.user("use pnpm, not npm")
    writer.tool_call("Bash", {"command": "npm ci"}, "error: nope", is_error=True)
    writer.assistant("Switching to pnpm.")
    path = write_session(tmp_path, writer)
    with open(path, "ab") as handle:
        handle.write(
            b'{"type": "user", "message": "odd"}\nnot json\n'
            + b'{"type": "user", "x": '
            + b"[" * 5000
            + b"\n"
        )
    file = TranscriptFile(path, "s1")
    fast = read_transcript(file)
    monkeypatch.setattr(fastjson, "_decoders", [None])
    slow = read_transcript(file)
    assert fast.records == slow.records
    assert fast.stats == slow.stats and fast.end_offset == slow.end_offset
    assert fast.stats.bad_json == 2 and len(fast.records) >= 4
    assert json.loads(path.read_bytes().splitlines()[0])["sessionId"] == "s1"
