"""Signals from the shape of the dialogue: what the assistant answered and did after the user spoke."""

from __future__ import annotations

from pathlib import Path

from consolidate.discover.discover import build_report
from consolidate.discover.signals import Signal
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.helpers.signals import signals_in


def _signals(tmp_path: Path, writer: SessionWriter) -> list[Signal]:
    write_session(tmp_path, writer)
    return signals_in(tmp_path)


def _kept(signals: list[Signal]) -> list[str]:
    return [c.principle for c in build_report(signals).candidates]


def test_a_plain_rule_conceded_by_the_reply_is_a_signal(tmp_path: Path) -> None:
    writer = SessionWriter("a1")
    writer.tool_call("Bash", {"command": "git push --force"}, "ok")
    anchor = writer.user("we should get in the habit that all non-trivial work happens on a branch")
    writer.assistant("You're right — force-pushing main is risky.")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid) == ("preference", anchor)
    assert signal.principle == "All non-trivial work happens on a branch"


def test_the_same_sentence_with_a_mere_okay_is_not(tmp_path: Path) -> None:
    writer = SessionWriter("a2")
    writer.user("we should get in the habit that all non-trivial work happens on a branch")
    writer.assistant("Okay.")
    assert _signals(tmp_path, writer) == []


def test_a_feature_request_conceded_is_still_no_rule(tmp_path: Path) -> None:
    writer = SessionWriter("a3")
    writer.user("we should always print the version in the summary")
    writer.assistant("You're right, that helps.")
    assert _kept(_signals(tmp_path, writer)) == []


def test_a_promise_restates_a_request_that_lost_its_object(tmp_path: Path) -> None:
    writer = SessionWriter("a4")
    writer.tool_call("Bash", {"command": "git commit -m wip"}, "ok")
    writer.user("you can't add the session files yourself, please remind me every commit")
    writer.assistant("Understood. I'll remind you to amend the session files after each commit.")
    (signal,) = _signals(tmp_path, writer)
    assert signal.kind == "remember"
    assert signal.principle == "Remind the user to amend the session files after each commit."
    assert signal.trigger == "writing a commit"


def test_a_memory_request_takes_the_rule_said_just_before(tmp_path: Path) -> None:
    writer = SessionWriter("a5")
    writer.user("the docs need to be clear that we configure packages, not crates")
    writer.assistant("Here is what I would change in the README.")
    anchor = writer.user("yep, remember that, let's finish the renaming first")
    writer.assistant("Renaming now.")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid) == ("remember", anchor)
    assert signal.principle == "The docs need to be clear that we configure packages, not crates"


def test_a_memory_request_waits_for_the_reply_that_confirms_it(tmp_path: Path) -> None:
    writer = SessionWriter("a6")
    writer.user("maybe shorten release subjects to the version and drop the word bump?")
    writer.assistant("Good idea.")
    writer.user("update CLAUDE.md with that convention")
    writer.tool_call("Edit", {"file_path": "/p/CLAUDE.md", "old_string": "a", "new_string": "b"}, "ok")
    writer.assistant("Updated. The convention is now: append the version to the subject of a release commit.")
    (signal,) = _signals(tmp_path, writer)
    assert signal.principle == "Append the version to the subject of a release commit."


def test_redoing_the_call_the_user_objected_to_names_the_swap(tmp_path: Path) -> None:
    writer = SessionWriter("a7")
    _, ids = writer.assistant("Testing.", tools=[("Bash", {"command": "cargo test -p app"})])
    writer.reject(ids[0], "use tspec")
    writer.tool_call("Bash", {"command": "tspec test -p app"}, "ok")
    (signal,) = _signals(tmp_path, writer)
    assert signal.principle == "Use `tspec test` instead of `cargo test`"
    assert signal.trigger == "running `cargo test`"


def test_an_accusation_becomes_the_rule_it_hides(tmp_path: Path) -> None:
    writer = SessionWriter("a8")
    _, ids = writer.assistant("Installing.", tools=[("Bash", {"command": "tspec install"})])
    writer.reject(ids[0])
    writer.interrupt()
    writer.user("You always make the mistake of not passing `--path .` when installing.")
    writer.assistant("Good point.")
    (signal,) = _signals(tmp_path, writer)
    assert signal.principle == "Always pass `--path .` when installing"
    assert signal.trigger == "running `tspec install`"


def test_a_marker_the_user_contradicts_next_is_dropped(tmp_path: Path) -> None:
    writer = SessionWriter("a9")
    writer.assistant("Noted.\n<!-- learning: The preview renderer generates its own heading anchors. -->")
    writer.user("No, that isn't correct: we write the anchors, the renderer only matches them.")
    writer.assistant("You're right.")
    principles = [s.principle for s in _signals(tmp_path, writer)]
    assert not any("renderer generates" in p for p in principles)


def test_a_marker_nobody_contradicts_stands(tmp_path: Path) -> None:
    writer = SessionWriter("a10")
    writer.assistant("Fixed.\n<!-- learning: The payments sandbox rejects amounts under one dollar. -->")
    writer.user("no, use pnpm instead of npm for the frontend")
    writer.assistant("Right.")
    kinds = sorted(s.kind for s in _signals(tmp_path, writer))
    assert kinds == ["correction", "marker"]


def test_a_compile_error_fixed_by_a_changed_option(tmp_path: Path) -> None:
    writer = SessionWriter("a11")
    writer.tool_call("Bash", {"command": "cargo build"}, "error[E0554]: `#![feature]` may not be used on the stable release channel", is_error=True)  # fmt: skip
    _, anchor = writer.tool_call("Bash", {"command": "cargo +nightly build"}, "Finished")
    (signal,) = _signals(tmp_path, writer)
    assert (signal.kind, signal.uuid) == ("error-fix", anchor)
    assert signal.principle.startswith("For `cargo build`, pass `+nightly`")


def test_the_same_retry_after_editing_code_teaches_nothing(tmp_path: Path) -> None:
    writer = SessionWriter("a12")
    writer.tool_call("Bash", {"command": "cargo build"}, "error[E0308]: mismatched types", is_error=True)
    writer.tool_call("Edit", {"file_path": "/p/src/lib.rs", "old_string": "1", "new_string": "2"}, "ok")
    writer.tool_call("Bash", {"command": "cargo build --release"}, "Finished")
    assert _signals(tmp_path, writer) == []


def test_an_ordered_instruction_about_what_was_just_done(tmp_path: Path) -> None:
    writer = SessionWriter("a13")
    writer.tool_call("Bash", {"command": "git commit -m fix"}, "ok")
    writer.user("önce `make lint` çalıştır, sonra commit et; her commit öncesi bu sırayla")
    writer.assistant("Anladım.")
    (signal,) = _signals(tmp_path, writer)
    assert signal.kind == "correction" and "make lint" in signal.principle


def test_a_rejected_edit_whose_reason_states_a_rule(tmp_path: Path) -> None:
    writer = SessionWriter("a14")
    _, ids = writer.assistant("Editing.", tools=[("Edit", {"file_path": "/p/src/billing.py"})])
    writer.reject(ids[0], "keep money as integer cents like the rest of billing; floats round badly")
    writer.assistant("Understood.")
    assert _kept(_signals(tmp_path, writer)) == [
        "Keep money as integer cents like the rest of billing; floats round badly"
    ]


def test_the_trigger_comes_from_the_rule_not_the_last_tool(tmp_path: Path) -> None:
    writer = SessionWriter("a15")
    writer.tool_call("Bash", {"command": "cargo fmt"}, "ok")
    writer.user("no, never bump the version without asking me first")
    writer.assistant("Understood.")
    (signal,) = _signals(tmp_path, writer)
    assert signal.trigger == "bumping the version"
