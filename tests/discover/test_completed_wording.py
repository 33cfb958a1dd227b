"""A rule the wording gate finds incomplete is completed from its evidence when the evidence says what
is missing (the tool call the user stopped, the other form of an example the user wrote, the words
the memory states a reason in); a look-alike whose evidence does not say it is still dropped. Two
wordings of one rule merged into one keep what each says."""

from __future__ import annotations

from pathlib import Path

from consolidate.discover.dedupe import merge_candidates
from consolidate.discover.detectors import detect_signals
from consolidate.discover.discover import build_report
from consolidate.discover.report import Evidence, Learning
from consolidate.discover.signals import Signal, make_signal
from consolidate.dream.additions import merge_alike
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.models import Candidate, EvidenceRef
from consolidate.transcripts import find_transcripts, read_transcript

MEMORY = {"CLAUDE.md": "# Notes\n\n- Use uv.\n"}


def _stopped(tmp_path: Path, command: str, reason: str, memory: dict[str, str] = MEMORY) -> list[Learning]:
    """The candidates proposed when the user rejects the Bash call `command` with `reason`."""
    writer = SessionWriter("c1")
    writer.user("Please ship the new release of the widget library")
    _, ids = writer.assistant("Publishing now.", tools=[("Bash", {"command": command})])
    writer.reject(ids[0], reason)
    writer.assistant("Understood, I will wait.")
    write_session(tmp_path, writer)
    signals: list[Signal] = []
    for file in find_transcripts(tmp_path):
        signals += detect_signals(read_transcript(file).active(), file)
    return build_report(signals, memory).candidates


def test_a_pronoun_is_completed_by_the_tool_call_the_user_stopped(tmp_path: Path) -> None:
    (found,) = _stopped(
        tmp_path, "npm publish --access public", "don't publish it until after it passes its tests"
    )
    assert found.principle == "Don't run `npm publish` until after the tests pass"
    assert found.category == "FILL_GAP"


def test_a_completed_rule_the_memory_states_as_it_was_said_is_no_new_rule(tmp_path: Path) -> None:
    memory = {"CLAUDE.md": "# Notes\n\n- After making changes and all tests pass, publish the new release.\n"}
    found = _stopped(
        tmp_path, "npm publish --access public", "don't publish it until after it passes its tests", memory
    )
    assert found == []  # the line states the rule as the user said it: no ADD, no edit of that line


def test_a_pronoun_the_stopped_call_does_not_name_is_still_dropped(tmp_path: Path) -> None:
    assert _stopped(tmp_path, "npm pack", "don't publish it until after it passes its tests") == []


def _signal(kind: str, principle: str, quote: str, **extra: object) -> Signal:
    return make_signal(
        kind,
        principle,
        quote=quote,
        session="s1",
        uuid="u1",
        timestamp="2026-01-01T00:00:00Z",
        file="s1.jsonl",
        **extra,
    )


def _principles(*signals: Signal, memory: dict[str, str] | None = None) -> list[str]:
    return [c.principle for c in build_report(list(signals), memory or MEMORY).candidates]


def test_what_an_example_does_becomes_the_order_when_the_user_wrote_the_other_form() -> None:
    said = _signal(
        "remember",
        "`{1},{2}` makes each one a separate footnote.",
        "I want a single footnote for both, write `{1,2}`; put that in the notes",
    )
    assert _principles(said) == ["Write `{1,2}`, not `{1},{2}`."]


def test_what_an_example_does_stays_dropped_when_the_other_form_is_not_said() -> None:
    said = _signal(
        "remember",
        "`{1},{2}` makes each one a separate footnote.",
        "I want a single footnote for both; put that in the notes",
    )
    assert _principles(said) == []
    other = _signal(  # another example, not the other form of this one
        "remember", "`{1},{2}` makes each one a separate footnote.", "Write `{3}` here; put that in the notes"
    )
    assert _principles(other) == []
    asked = _signal(  # the user only asks about the other form: which one is wanted is not said
        "remember", "`{1},{2}` makes each one a separate footnote.", "Should I write `{1,2}` instead?"
    )
    assert _principles(asked) == []


def test_a_reason_that_points_at_the_conversation_takes_the_words_the_memory_states_it_in() -> None:
    memory = {
        "CLAUDE.md": "# Notes\n\nBecause of shared history with the `vendor/` mirror (kept in sync nightly), "
        "tags are written by hand.\n"
    }
    said = _signal("remember", "Never squash a release branch because of our shared history", "note that")
    assert _principles(said, memory=memory) == [
        "Never squash a release branch because of shared history with the `vendor/` mirror"
    ]


def test_a_reason_no_one_states_is_dropped_and_the_rule_kept_when_it_stands_alone() -> None:
    said = _signal("remember", "Never squash a release branch because of our shared history", "note that")
    assert _principles(said) == ["Never squash a release branch"]
    short = _signal("remember", "Do not squash because of our shared history", "note that")
    assert _principles(short) == []  # "Do not squash" says too little to stand alone


def _learning(principle: str, confidence: float, session: str) -> Learning:
    return Learning(
        kind="correction",
        principle=principle,
        trigger="writing a commit",
        confidence=confidence,
        evidence=[Evidence(session=session, uuid=f"{session}-u")],
    )


def test_two_wordings_merged_by_the_discoverer_keep_what_each_says() -> None:
    (merged,) = merge_candidates(
        [
            _learning("Run `ruff check` before every commit", 0.9, "s1"),
            _learning("The formatter check must run before every commit", 0.85, "s2"),
        ]
    )
    said = f"{merged.principle} {merged.detail}"
    assert "`ruff check`" in said and "formatter" in said
    (covered,) = merge_candidates(  # a wording the kept one says in full adds nothing to the detail
        [
            _learning("Always run `ruff check` with `--fix` before every commit", 0.9, "s1"),
            _learning("Always run `ruff check` before every commit", 0.85, "s2"),
        ]
    )
    assert covered.detail == ""
    (hedged,) = merge_candidates(  # how strongly it was said is no part of the rule
        [
            _learning("Use `uv run` instead of `python` when possible", 0.9, "s1"),
            _learning("Use `uv run` when possible which should be almost always", 0.85, "s2"),
        ]
    )
    assert hedged.detail == ""


def _candidate(principle: str, session: str) -> Candidate:
    return Candidate(
        kind="correction",
        principle=principle,
        trigger="writing a commit",
        confidence=0.8,
        impact=0.6,
        evidence=[EvidenceRef(session=session, uuid=f"{session}-u", quote="q")],
    )


def test_two_same_rule_learnings_merged_in_the_dream_keep_what_each_says() -> None:
    ((merged, _),) = merge_alike(
        [_candidate("The formatter check must run before every commit", "s1"),
         _candidate("Run `ruff check` before every commit", "s2")]
    )  # fmt: skip
    said = f"{merged.principle} {merged.detail}"
    assert "`ruff check`" in said and "formatter" in said
