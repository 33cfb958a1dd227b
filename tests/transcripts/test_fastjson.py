"""The typed msgspec decoder reads transcripts exactly as the standard parser does (records, stats and
offsets), including the lines it refuses; and the chunked reader agrees with the line reader."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.transcripts import LineStats, TranscriptFile, fastjson, iter_json_lines, read_transcript
from consolidate.transcripts.lines import iter_json_blocks
from consolidate.transcripts.records import Record, normalize

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


def _blocks(data: bytes, cap: int) -> tuple[list[Any], LineStats]:
    decoders = fastjson.record_decoders()
    assert decoders is not None
    stats = LineStats()
    blocks = iter_json_blocks(io.BytesIO(data), stats, cap, decode=decoders.one, decode_lines=decoders.lines)
    return [record for block in blocks for record in block], stats


def _records(values: list) -> list[Record | None]:
    """The `Record` of each value read: a dict from the standard parser, an envelope from msgspec."""
    decoders = fastjson.record_decoders()
    assert decoders is not None
    return [normalize(v, 0) if isinstance(v, dict) else decoders.record(v, 0) for v in values]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_ODD_LINES), max_size=12), st.sampled_from([64, 1 << 20]), st.booleans())
def test_typed_decoder_agrees_with_the_standard_parser(lines: list[bytes], cap: int, tail: bool) -> None:
    data = b"\n".join(lines) + (b"\n" if lines else b"") + (b'{"type": "user", "trunc' if tail else b"")
    expected, expected_stats = _stdlib(data, cap)
    got, got_stats = _blocks(data, cap)
    assert _records(got) == [normalize(r, 0) for r in expected]
    assert got_stats == expected_stats


_RECORD_LINES = [
    *_ODD_LINES,
    b'{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"t","isSidechain":1,'
    b'"message":{"id":"m1","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"Bash",'
    b'"input":{"command":"make"}},{"type":"thinking","thinking":"x"}]}}',
    b'{"type":"user","uuid":"u2","parentUuid":null,"logicalParentUuid":"u0","isMeta":false,'
    b'"isVisibleInTranscriptOnly":true,"origin":{"kind":"human"},"message":{"content":[{"type":"tool_result",'
    b'"tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"boom"},{"type":"image"}]}]}}',
    b'{"type":"user","uuid":7,"sessionId":["s"],"subtype":"x","isCompactSummary":"yes","message":{"id":5,'
    b'"content":[{"type":"tool_result","content":"' + b"r" * 2100 + b'"},{"type":"text","text":null}]}}',
    b'{"type":"user","message":{"content":[]}}',
    b'{"type":"user","message":null}',
    b'{"parentUuid":"p","type":"progress","data":{"type":"hook_progress"}}',
    b'{"type":"summary","summary":"title"}',
    b'{"type":"attachment","uuid":"x","message":{"content":"not read for an attachment"}}',
    b'{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,'
    b'"content":[{"type":"text","text":"bad"},"stray",{"type":"text","text":"worse"}]}]}}',
    b'{"type":"user","message":{"content":[{"type":"tool_result","is_error":1,"content":{"text":"odd"}}]}}',
    b'{"type":"user","message":{"content":[{"type":"tool_result","is_error":false,"content":"fine"},'
    b'{"type":"tool_result","content":[{"type":"text","text":"also fine"}]}]}}',
    b'{"type":"assistant","message":{"content":[{"type":"tool_use","id":"w","name":"Write","input":{"content":"'
    + b"c" * 2100
    + b'","file_path":"/a/b.py","todos":[{"x":1}]}},{"type":"tool_use","name":"Bash","input":'
    b'{"description":"d","command":"' + b"m" * 2100 + b'","timeout":5,"path":["odd"]}}]}}',
    b'{"type":"assistant","message":{"content":[{"type":"tool_use","input":"not an object"},'
    b'{"type":"tool_use","input":null},{"type":"tool_use"},{"type":"tool_use","input":{"command":1.5e3,'
    b'"notebook_path":{"deep":[1,{"a":null}]},"file_path":"\\u00e9\\n"}}]}}',
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_RECORD_LINES), max_size=12), st.booleans())
def test_transcripts_read_the_same_records_with_and_without_msgspec(lines: list[bytes], lean: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        file = TranscriptFile(path, "s")
        fast = read_transcript(file, lean=lean)
        saved, fastjson._decoders[:] = list(fastjson._decoders), [None]
        try:
            slow = read_transcript(file, lean=lean)
        finally:
            fastjson._decoders[:] = saved
    assert fast.records == slow.records
    assert fast.stats == slow.stats and fast.end_offset == slow.end_offset


@pytest.mark.parametrize("with_msgspec", [True, False])
def test_a_lean_read_keeps_the_text_of_an_error_result_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_msgspec: bool
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b'{"type":"user","uuid":"u1","message":{"content":[{"type":"tool_result","tool_use_id":"a",'
        b'"is_error":true,"content":[{"type":"text","text":"boom"},"stray"]},{"type":"tool_result",'
        b'"tool_use_id":"b","content":"x = 1"}]}}\n'
    )
    if not with_msgspec:
        monkeypatch.setattr(fastjson, "_decoders", [None])
    full, lean = (
        read_transcript(TranscriptFile(path, "s")),
        read_transcript(TranscriptFile(path, "s"), lean=True),
    )
    assert [(r.tool_use_id, r.is_error, r.text) for r in full.records[0].tool_results] == [
        ("a", True, "boom"),
        ("b", False, "x = 1"),
    ]
    assert [(r.tool_use_id, r.is_error, r.text) for r in lean.records[0].tool_results] == [
        ("a", True, "boom"),
        ("b", False, ""),
    ]


@pytest.mark.parametrize("with_msgspec", [True, False])
def test_a_lean_read_keeps_only_the_tool_input_the_discoverer_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_msgspec: bool
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        b'{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t","name":"Write",'
        b'"input":{"content":"' + b"x" * 3000 + b'","file_path":"/p/a.py"}},{"type":"tool_use","id":"u",'
        b'"name":"Bash","input":{"description":"list","command":"' + b"l" * 2500 + b'","timeout":9}}]}}\n'
    )
    if not with_msgspec:
        monkeypatch.setattr(fastjson, "_decoders", [None])
    full, lean = (
        read_transcript(TranscriptFile(path, "s")).records[0],
        read_transcript(TranscriptFile(path, "s"), lean=True).records[0],
    )
    assert [u.input for u in full.tool_uses] == [
        {"content": "x" * 2000, "file_path": "/p/a.py"},
        {"description": "list", "command": "l" * 2000, "timeout": 9},
    ]
    assert [u.input for u in lean.tool_uses] == [
        {"file_path": "/p/a.py"},
        {"description": "list", "command": "l" * 2000},
    ]
    assert list(lean.tool_uses[1].input) == ["description", "command"]  # in the record's order


def test_refused_lines_are_read_by_the_standard_parser() -> None:
    data = b"\n".join(_ODD_LINES) + b"\n"
    got, stats = _blocks(data, 1 << 20)
    assert got[0].message.content == "hi"  # an envelope of the fields read
    assert got[1] == {"type": "user", "message": "not an object"}  # a dict from the standard parser
    assert stats.bad_json == 3  # "not json", the array, the undecodable bytes
    assert not hasattr(got[4], "toolUseResult")  # skipped inside the parser
    assert got[4].message.content == "ok"


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


_SKIPPED_LINES = [
    b'{"type":"progress","data":{}}',
    b'{"type": "progress", "data": {}}',
    b'{"parentUuid":"p","type":"progress"}',
    b'{"a":"progress","type":"user"}',  # the markers' ending without a marker: kept
    b'{"type":"summary","summary":"t"}',
    b'{"type": "file-history-snapshot"}',
    b'{"type":"user","message":{"content":"progress"}}',
    b" " * 1100 + b'{"type":"progress"}',  # the marker beyond the envelope: read (and kept)
    b"",
    b"  ",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_SKIPPED_LINES + _ODD_LINES), max_size=14))
def test_chunks_skip_the_lines_the_line_reader_skips(lines: list[bytes]) -> None:
    from consolidate.transcripts.records import METADATA_PREFIXES, PROGRESS_MARKERS

    data = b"\n".join(lines) + b"\n"
    skips = (METADATA_PREFIXES, PROGRESS_MARKERS)
    line_stats, block_stats = LineStats(), LineStats()
    by_line = [r for _, r in iter_json_lines(io.BytesIO(data), line_stats, 1 << 20, *skips)]
    by_block = [
        r for block in iter_json_blocks(io.BytesIO(data), block_stats, 1 << 20, *skips) for r in block
    ]
    assert by_block == by_line and block_stats == line_stats


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(_SKIPPED_LINES + _RECORD_LINES), max_size=16),
    st.sampled_from([7, 64, 300, 4096]),
    st.booleans(),
)
def test_chunks_of_any_size_read_what_the_line_reader_reads(
    lines: list[bytes], chunk: int, tail: bool
) -> None:
    """Whatever the chunk size (lines begun in one chunk and ended in another, chunks of one line or of
    many), the lean chunked read keeps and decodes what the line reader does."""
    from consolidate.transcripts import lines as line_module
    from consolidate.transcripts.records import METADATA_PREFIXES, PROGRESS_MARKERS

    data = b"\n".join(lines) + b"\n" + (b'{"type":"user","trunc' if tail else b"")
    skips = (METADATA_PREFIXES, PROGRESS_MARKERS)
    decoders = fastjson.record_decoders(lean=True)
    assert decoders is not None
    line_stats, block_stats = LineStats(), LineStats()
    by_line = [r for _, r in iter_json_lines(io.BytesIO(data), line_stats, 1 << 20, *skips)]
    saved = line_module._CHUNK
    line_module._CHUNK = chunk
    try:
        blocks = iter_json_blocks(
            io.BytesIO(data), block_stats, 1 << 20, *skips, decoders.one, decoders.lines
        )
        by_block = [r for block in blocks for r in block]
    finally:
        line_module._CHUNK = saved
    as_records = [
        normalize(r, 0, lean=True) if isinstance(r, dict) else decoders.record(r, 0) for r in by_block
    ]
    assert as_records == [normalize(r, 0, lean=True) for r in by_line]
    assert block_stats == line_stats and block_stats.offset == line_stats.offset


@pytest.mark.parametrize("with_msgspec", [True, False])
def test_a_lean_read_keeps_a_plan_and_its_approval_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_msgspec: bool
) -> None:
    proposed = "# Ship the widget\n" + "- step\n" * 600  # longer than a tool input or result is kept
    approved = "User has approved your plan.\n\n## Approved Plan (edited by user):\n" + proposed + "- last"
    lines = [
        {"type": "assistant", "uuid": "a1", "message": {"content": [
            {"type": "tool_use", "id": "p", "name": "ExitPlanMode", "input": {"plan": proposed}},
            {"type": "tool_use", "id": "q", "name": "Other", "input": {"plan": proposed}},
        ]}},
        {"type": "user", "uuid": "u1", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "p", "content": [{"type": "text", "text": approved}]},
            {"type": "tool_result", "tool_use_id": "q", "content": "Other output: User has approved your plan"},
        ]}},
    ]  # fmt: skip
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    if not with_msgspec:
        monkeypatch.setattr(fastjson, "_decoders", [None])
    for lean in (True, False):
        uses, results = read_transcript(TranscriptFile(path, "s"), lean=lean).records
        assert uses.tool_uses[0].input == {"plan": proposed}
        assert uses.tool_uses[1].input == ({} if lean else {"plan": proposed[:2000]})
        assert results.tool_results[0].text == approved
        assert results.tool_results[1].text == ("" if lean else "Other output: User has approved your plan")
