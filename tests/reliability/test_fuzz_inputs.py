"""Fuzzing, bounded for CI: the plan loader and the Markdown parser never crash; errors are clear."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from consolidate.errors import UsageError
from consolidate.plan import PlanError, parse_plan
from memory_layout import check_tree, load_memory_tree, parse_document
from tests.helpers.fuzz import examples

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)
PLANISH = st.fixed_dictionaries(
    {
        "version": st.sampled_from([1, 2, "1"]),
        "project": st.text(max_size=10),
        "memory_dir": st.text(max_size=10),
    },
    optional={
        "proposals": st.lists(
            st.dictionaries(
                st.sampled_from(["id", "action", "summary", "target", "changes", "layer", "confidence"]),
                JSON,
                max_size=7,
            ),
            max_size=3,
        ),
        "snapshot": JSON,
    },
)


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(JSON, PLANISH).map(json.dumps) | st.text(max_size=200))
@example('{"project": "", "memory_dir": "", "snapshot": {"\\n": null}}')  # once gave a two-line message
def test_plan_loader_raises_only_plan_errors(text: str) -> None:
    try:
        parse_plan(text, "fuzz.json")
    except PlanError as exc:
        message = str(exc)
        assert message.startswith("fuzz.json: ") and "\n" not in message.strip()
    except UsageError:
        raise AssertionError("a plan problem must be a PlanError") from None


@settings(max_examples=examples(200), deadline=None)
@given(st.binary(max_size=300))
def test_memory_dir_of_random_bytes_never_crashes(tmp_path_factory, data: bytes) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("mem")
    (root / "MEMORY.md").write_bytes(data)
    (root / "topic.md").write_bytes(data[::-1])
    tree = load_memory_tree(root)
    check_tree(tree)
    for file in tree.files.values():
        if file.document is not None:
            assert file.document.render().encode("utf-8") == file.data


def test_cli_on_a_hostile_memory_dir_has_no_traceback(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_bytes(b"# M\n```\n- unclosed\n" + b"\xff\xfe" * 10)
    (memory / "bin.md").write_bytes(bytes(range(256)))
    (memory / "huge.md").write_bytes(b"- x\n" * 1_200_000)
    (memory / "fm.md").write_text("---\nname: [broken\n---\n")
    result = subprocess.run(
        [sys.executable, "-m", "consolidate", "status", "--memory-dir", str(memory), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    kinds = {d["kind"] for d in json.loads(result.stdout)["defects"]}
    assert {"unreadable", "broken-frontmatter"} <= kinds


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=500))
def test_parser_round_trips_any_text(text: str) -> None:
    assert parse_document(text).render() == text


RECORD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=30),
    st.lists(
        st.dictionaries(
            st.sampled_from(["type", "text", "id", "name", "input", "tool_use_id", "content", "is_error"]),
            st.text(max_size=20) | st.booleans(),
            max_size=5,
        ),
        max_size=3,
    ),
)
RECORDS = st.dictionaries(
    st.sampled_from(
        [
            "type",
            "uuid",
            "parentUuid",
            "sessionId",
            "timestamp",
            "message",
            "isMeta",
            "isSidechain",
            "logicalParentUuid",
            "subtype",
            "toolUseResult",
            "isCompactSummary",
        ]
    ),
    RECORD_VALUES
    | st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"]), "content": RECORD_VALUES}),
    max_size=8,
)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(RECORDS.map(json.dumps) | st.text(max_size=60) | st.binary(max_size=40).map(repr), max_size=25),
    st.binary(max_size=200),
)
@example(['{"type": []}', '{"type": {"a": 1}, "uuid": 5}'], b"")  # once crashed the reader
def test_transcript_reader_never_crashes(tmp_path_factory, lines: list[str], tail: bytes) -> None:  # type: ignore[no-untyped-def]
    from consolidate.discover import build_report
    from consolidate.discover.detectors import detect_signals
    from consolidate.transcripts import TranscriptFile, read_transcript

    path = tmp_path_factory.mktemp("t") / "s.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "replace") + b"\n" + tail)
    file = TranscriptFile(path, "s")
    transcript = read_transcript(file)
    assert transcript.end_offset <= path.stat().st_size
    build_report(detect_signals(transcript.active(), file))


@settings(
    max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["SessionStart", "UserPromptSubmit", "PreToolUse", "Stop", "Bogus"]),
    st.one_of(JSON.map(json.dumps), st.text(max_size=120), RECORDS.map(json.dumps)),
)
def test_hook_stdin_never_crashes_or_blocks(monkeypatch, capsys, event: str, stdin: str) -> None:  # type: ignore[no-untyped-def]
    import io

    from consolidate.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    assert main(["hook", event]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if out.lstrip().startswith("{"):
        assert isinstance(json.loads(out), dict)  # a hook answers with one JSON object or plain text
