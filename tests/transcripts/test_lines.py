"""Bad lines are skipped and counted, never fatal; huge lines are streamed through."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.transcripts import LineStats, TranscriptFile, iter_json_lines, iter_lines, read_transcript
from consolidate.transcripts.lines import split_lines


def _records(data: bytes, cap: int = 1 << 20) -> tuple[list[dict], LineStats, int]:
    stats = LineStats()
    handle = io.BytesIO(data)
    items = list(iter_json_lines(handle, stats, cap))
    end = items[-1][0] if items else 0
    return [record for _, record in items], stats, end


def test_complete_lines_are_parsed_with_their_end_offsets() -> None:
    data = b'{"a": 1}\n{"b": 2}\n'
    stats = LineStats()
    lines = list(iter_lines(io.BytesIO(data), stats))
    assert [offset for offset, _ in lines] == [9, 18]
    assert stats.lines == 2 and stats.bytes_read == 18


def test_invalid_json_and_non_objects_are_counted_and_skipped() -> None:
    records, stats, _ = _records(b'{"ok": 1}\nnot json\n[1, 2]\n\n{"ok": 2}\n\xff\xfe\n')
    assert records == [{"ok": 1}, {"ok": 2}]
    assert stats.bad_json == 3  # "not json", the array, the undecodable bytes; the blank line is not bad
    assert stats.records == 2


def test_truncated_last_line_is_not_consumed() -> None:
    records, stats, end = _records(b'{"ok": 1}\n{"ok": 2, "trunc')
    assert records == [{"ok": 1}]
    assert stats.incomplete_tail == 1
    assert end == 10  # a later read starts at the partial line again


def test_oversized_line_is_streamed_through_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as handle:
        handle.write(b'{"before": 1}\n')
        handle.write(b'{"blob": "' + b"x" * (3 * 1024 * 1024) + b'"}\n')
        handle.write(b'{"after": 2}\n')
    stats = LineStats()
    with open(path, "rb") as handle:
        items = list(iter_json_lines(handle, stats, max_line_bytes=64 * 1024))
    assert [record for _, record in items] == [{"before": 1}, {"after": 2}]
    assert stats.oversized == 1
    assert items[-1][0] == path.stat().st_size


def test_oversized_unterminated_tail_is_left_for_later() -> None:
    data = b'{"ok": 1}\n' + b"y" * 5000
    records, stats, end = _records(data, cap=1000)
    assert records == [{"ok": 1}] and end == 10
    assert stats.incomplete_tail == 1 and stats.oversized == 0


def test_read_transcript_survives_garbage(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    good = {"type": "user", "uuid": "u1", "parentUuid": None, "message": {"role": "user", "content": "hi"}}
    path.write_bytes(b"\x00\x01garbage\n" + json.dumps(good).encode() + b"\n{broken\n")
    transcript = read_transcript(TranscriptFile(path, "s"))
    assert [r.uuid for r in transcript.records] == ["u1"]
    assert transcript.stats.bad_json == 2
    assert transcript.end_offset == path.stat().st_size


def test_unreadable_file_gives_an_empty_transcript(tmp_path: Path) -> None:
    transcript = read_transcript(TranscriptFile(tmp_path / "missing.jsonl", "missing"))
    assert transcript.records == [] and transcript.end_offset == 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([b"\n", b"{}", b"a", b"\r", b" ", b"\n\n", b"\xff"]), max_size=20).map(b"".join)
)
def test_split_lines_is_bytes_split(chunk: bytes) -> None:
    assert split_lines(chunk) == chunk.split(b"\n")
