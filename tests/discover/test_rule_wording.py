"""A learning reads as a rule: a trigger only from what the rule is about, a rule said in passing with
its scope first and its reason after it, no intensifiers."""

from __future__ import annotations

import pytest

from consolidate.discover.candidates import pointer_line
from consolidate.discover.report import Learning
from consolidate.discover.rewrite import imperative
from consolidate.discover.triggers import DEFAULT_TRIGGER, derive_trigger, topic_trigger
from consolidate.discover.wording import finish
from consolidate.transcripts.records import ToolUse


@pytest.mark.parametrize(
    "rule",
    [
        "Stop after every commit so the user can review the change and run the tests",
        "Start each feature with a dated plan in the notes, bump the version and commit that first",
        "On every non-trivial commit, work on a feature branch",
        "Update the todo list and drop the -dev suffix from the version; when you commit, include the lock file",
    ],
)
def test_a_rule_naming_several_topics_gets_no_topic_trigger(rule: str) -> None:
    assert topic_trigger(rule) == ""
    assert derive_trigger(rule) == DEFAULT_TRIGGER == ""  # no "When working in this project": none


@pytest.mark.parametrize(
    ("rule", "trigger"),
    [
        ("Put the ticket number at the end of the subject line when the commit fixes a release version", "writing a commit"),
        ("Remind the user to amend the session files after each commit", "writing a commit"),
        ("Never bump the version without asking first", "bumping the version"),
    ],
)  # fmt: skip
def test_a_rule_about_one_topic_keeps_its_trigger(rule: str, trigger: str) -> None:
    assert topic_trigger(rule) == trigger


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "ok, we should get in the habit that on all shared branches we should rebase before merging as "
            "merging main into them is really confusing",
            "On all shared branches, rebase before merging; merging main into them is confusing",
        ),
        (
            "for release builds you should pass --locked since the lock file is the source of truth",
            "For release builds, pass --locked; the lock file is the source of truth",
        ),
        ("Do it as soon as the tests pass", "Do it as soon as the tests pass"),  # "as" of time: no reason
        ("use uv as it is faster", "Use uv as it is faster"),  # too short to split
    ],
)
def test_a_rule_said_in_passing_reads_as_a_rule(said: str, rule: str) -> None:
    assert imperative(said) == rule


def test_a_rule_after_its_own_when_starts_with_a_capital() -> None:
    assert finish("When doing a release always tag the commit", "releasing") == (
        "Always tag the commit",
        "doing a release",
    )


@pytest.mark.parametrize(
    ("rule", "trigger"),
    [
        (
            "Always bump the version",
            DEFAULT_TRIGGER,
        ),  # "When bumping the version: Always bump …" says nothing
        ("Always create a branch", DEFAULT_TRIGGER),
        ("Never bump the version without asking first", "bumping the version"),
        ("Merge with `--no-ff`", "merging a branch"),  # how to do it: the trigger says when
    ],
)
def test_a_trigger_never_restates_the_rule(rule: str, trigger: str) -> None:
    assert derive_trigger(rule) == trigger


def _bash(command: str) -> ToolUse:
    return ToolUse("t1", "Bash", {"command": command})


def test_a_call_named_only_in_the_reason_of_a_rule_gives_it_no_trigger() -> None:
    rule = "Once the checks pass their tests, install the new build right away so that we try fly for real"
    assert derive_trigger(rule, _bash("fly status --app web"), prefer_action=True) == ""
    # nothing better than "working in this project": the rule is always on, the pointer says no "When"
    learning = Learning(kind="correction", principle=rule, trigger=derive_trigger(rule))
    assert pointer_line(learning) == rule + "."


def test_a_rule_about_the_call_it_answered_keeps_the_call_as_its_trigger() -> None:
    rule = "Pass `--remote` to `fly deploy` so that the build runs on the builders"
    assert derive_trigger(rule, _bash("fly deploy --app web"), prefer_action=True) == "running `fly deploy`"
    learning = Learning(kind="correction", principle="Keep the ledger sorted", trigger="editing docs")
    assert pointer_line(learning) == "**When editing docs:** Keep the ledger sorted."


@pytest.mark.parametrize("speaker", ["user", "assistant"])
@pytest.mark.parametrize(
    "said",
    [
        "Settings are always read through `load_settings()`, never straight from the environment",
        "Release notes are always drafted in the changelog first, never directly in the tag message",
    ],
)
def test_a_standing_rule_with_its_negated_tail_stays_whole(said: str, speaker: str) -> None:
    # the tail has no verb of its own: cut off, it would be a fragment ("Never straight from …")
    assert imperative(said, speaker=speaker) == said


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("I always forget this, never push straight to main", "Never push straight to main"),
        ("ok that works, never deploy on a friday evening", "Never deploy on a friday evening"),
    ],
)
def test_a_rule_of_its_own_after_a_remark_is_still_the_rule(said: str, rule: str) -> None:
    assert imperative(said) == rule
