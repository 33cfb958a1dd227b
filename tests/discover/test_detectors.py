"""Signals found in whole transcripts: tied to what the assistant did, never from machine text."""

from __future__ import annotations

from pathlib import Path

from consolidate.discover.detectors import detect_signals
from consolidate.discover.signals import Signal
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.transcripts import TranscriptFile, read_transcript
from tests.helpers.signals import signals_in


def _signals(tmp_path: Path, *writers: SessionWriter) -> list[Signal]:
    for writer in writers:
        write_session(tmp_path, writer)
    return signals_in(tmp_path)


def test_correction_is_tied_to_the_preceding_tool_call(tmp_path: Path) -> None:
    writer = SessionWriter("s1")
    writer.user("install lodash")
    writer.tool_call("Bash", {"command": "npm install lodash"}, "added 1 package")
    writer.assistant("Installed.")
    anchor = writer.user("no, use pnpm instead of npm in this repo")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid, signal.session) == ("correction", anchor, "s1")
    assert signal.trigger == "running `npm` commands" and signal.context == "running `npm install`"
    assert signal.principle == "Use pnpm instead of npm in this repo"
    assert signal.quote == "no, use pnpm instead of npm in this repo" and signal.timestamp


def test_rejection_with_the_reason_given_in_the_dialog(tmp_path: Path) -> None:
    writer = SessionWriter("s2")
    _, ids = writer.assistant("Cleaning.", tools=[("Bash", {"command": "rm -rf build/"})])
    anchor = writer.reject(ids[0], "never delete build/ by hand, run `make clean` instead")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid) == ("rejection", anchor)
    assert signal.principle == "Never delete build/ by hand, run `make clean` instead"
    assert signal.trigger == "running `rm`"


def test_rejection_then_stop_then_the_reason_typed_next(tmp_path: Path) -> None:
    writer = SessionWriter("s3", style="new")
    _, ids = writer.assistant("Running e2e.", tools=[("Bash", {"command": "npm run e2e"})])
    writer.reject(ids[0])
    writer.interrupt()
    anchor = writer.user("never run the e2e suite locally; use `make test-unit` instead")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid, signal.trigger) == ("rejection", anchor, "running tests")


def test_error_then_changed_call_that_works(tmp_path: Path) -> None:
    writer = SessionWriter("s4")
    writer.tool_call(
        "Bash",
        {"command": "pytest -k smoke --no-cov"},
        "Exit code 4\nerror: unrecognized arguments: --no-cov",
        is_error=True,
    )
    _, anchor = writer.tool_call("Bash", {"command": "pytest -k smoke 2>&1 | tail -20"}, "3 passed")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid) == ("error-fix", anchor)
    assert signal.principle == "For `pytest`, omit `--no-cov`."
    assert signal.detail == "`pytest` with `--no-cov` failed: error: unrecognized arguments: --no-cov."
    assert signal.trigger == "running `pytest`"


def test_an_added_option_keeps_its_value_though_the_value_is_the_program_name(tmp_path: Path) -> None:
    writer = SessionWriter("s4b")
    writer.tool_call(
        "Bash",
        {"command": "mytool test --test integration -- --ignored"},
        "Exit code 1\nerror: No packages contain test targets: integration",
        is_error=True,
    )
    writer.tool_call("Bash", {"command": "mytool test -p mytool --test integration -- --ignored"}, "ok")
    (signal,) = _signals(tmp_path, writer)
    assert signal.principle == "For `mytool test`, pass `-p mytool`."


def test_retries_that_teach_nothing_are_not_error_fixes(tmp_path: Path) -> None:
    writer = SessionWriter("s5")
    writer.tool_call("Bash", {"command": "make test"}, "Exit code 2\nFAILED test_api", is_error=True)
    writer.tool_call("Bash", {"command": "make test 2>&1 | tail -5"}, "ok")  # same command after a code fix
    writer.tool_call(
        "Bash", {"command": "cat docs/a.md"}, "cat: docs/a.md: No such file or directory", is_error=True
    )
    writer.tool_call("Bash", {"command": "cat docs/b.md"}, "# B")  # exploration
    writer.tool_call(
        "Edit",
        {"file_path": "x.py"},
        "<tool_use_error>String to replace not found</tool_use_error>",
        is_error=True,
    )
    writer.tool_call("Edit", {"file_path": "x.py"}, "ok")  # not a shell call
    writer.tool_call(
        "Bash",
        {"command": "cargo build --release"},
        "Exit code 101\nerror[E0308]: mismatched types",
        is_error=True,
    )
    writer.tool_call("Bash", {"command": "cargo build"}, "ok")  # a code error, not a usage error
    assert _signals(tmp_path, writer) == []


def test_markers_in_assistant_text_and_in_subagents(tmp_path: Path) -> None:
    main = SessionWriter("s6")
    main.user("fix it")
    anchor, _ = main.assistant(
        "Done.\n<!-- learning: The sandbox rejects amounts under $1; use 100 cents. -->"
    )
    agent = SessionWriter("s6", agent_id="a1")
    agent.user("No, don't read vendor/; always skip it instead.")  # the main agent's words, not the user's
    sub_anchor, _ = agent.assistant("#lesson\nlesson: Retries live in src/net.py\n#/lesson")
    signals = _signals(tmp_path, main, agent)
    assert [(s.kind, s.uuid) for s in signals] == [("marker", anchor), ("marker", sub_anchor)]
    assert signals[0].principle == "The sandbox rejects amounts under $1; use 100 cents."


def test_machine_text_rewinds_and_compaction_summaries_are_not_corrections(tmp_path: Path) -> None:
    writer = SessionWriter("s7", style="new")
    writer.user("hello")
    writer.assistant("hi")
    writer.slash_command("status", "wrong branch? no, remember to always pull first")
    writer.user("<system-reminder>Remember: never use emojis.</system-reminder>")
    writer.user("No, don't use the cache; always rebuild instead.", meta=True)
    writer.tool_call(
        "Bash", {"command": "cat CONTRIBUTING.md"}, "No, don't use tabs. Always use spaces instead."
    )
    writer.compact("The user said: no, use yarn instead of npm. Remember to run lint.")
    fork = writer.leaf
    writer.user("no, always use gitflow branches instead of trunk-based development")
    writer.assistant("ok")
    writer.leaf = fork
    writer.user("let's continue with the handlers")
    writer.interrupt(for_tool=False)
    assert _signals(tmp_path, writer) == []


def test_incremental_detection_finds_each_signal_once(tmp_path: Path) -> None:
    writer = SessionWriter("s8")
    writer.tool_call("Bash", {"command": "npm ci"}, "ok")
    writer.user("no, use pnpm instead of npm")
    path = write_session(tmp_path, writer)
    records = read_transcript(TranscriptFile(path, "s8")).active()
    first = detect_signals(records, TranscriptFile(path, "s8"))
    writer.tool_call(
        "Bash", {"command": "make tests"}, "make: *** No rule to make target 'tests'.  Stop.", is_error=True
    )
    writer.tool_call("Bash", {"command": "make test"}, "ok")
    write_session(tmp_path, writer)
    records = read_transcript(TranscriptFile(path, "s8")).active()
    later = detect_signals(records, TranscriptFile(path, "s8"), start=len(records) - 4)
    assert [s.kind for s in first] == ["correction"]
    # the correction had no answer yet: read again with one, it supersedes the first reading
    assert [s.kind for s in later] == ["correction", "error-fix"]
    assert later[0].uuid == first[0].uuid


def test_a_quote_that_starts_after_the_turn_opened_starts_on_a_whole_word() -> None:
    from consolidate.discover.signals import quote_around

    turn = (
        "I have been thinking about this for a while and it has become a consistent habit that on all "
        "non-trivial commits we should work on a branch, as force pushing the release branch is bad form"
    )
    quote = quote_around(turn, "On all non-trivial commits we should work on a branch")
    assert quote.startswith("…") and "on all non-trivial commits" in quote
    first = quote[1:].split()[0]
    assert first in turn.split()  # a word of the turn, never its tail ("…nsistent")
