"""One decision of "is this learning already remembered", the same for the scan (statements of
Markdown texts) and the dream (remembered entries of a layer)."""

from __future__ import annotations

import re

import pytest

from consolidate.discover.matcher import Matcher
from consolidate.discover.units import markdown_blocks  # the dream's CLAUDE.md entries, the scan's units
from tests.discover.test_samerule import OTHER_RULE, SAME_RULE


def _entries(text: str) -> list[tuple[str, str, str]]:
    """The text as the dream holds it: one entry per line under its heading."""
    heading, found = "", []
    for line in text.splitlines():
        if re.match(r"^#{1,6}\s", line):
            heading = line.lstrip("#").strip()
        elif line.strip():
            found.append(("CLAUDE.md", heading, line))
    return found


def _both(known: str, principle: str) -> tuple[str, str]:
    scan = Matcher.of_texts([known]).judge(principle).category
    dream = Matcher.of_entries(_entries(known)).judge(principle).category
    return scan, dream


@pytest.mark.parametrize(("known", "principle"), SAME_RULE)
def test_the_scan_and_the_dream_both_find_a_rule_said_in_other_words(known: str, principle: str) -> None:
    assert _both(known, principle) == ("RECORDED", "RECORDED")


@pytest.mark.parametrize(("known", "principle"), OTHER_RULE)
def test_the_scan_and_the_dream_both_see_another_rule(known: str, principle: str) -> None:
    scan, dream = _both(known, principle)
    assert scan == dream and scan != "RECORDED", (scan, dream)


def test_a_rule_that_says_the_words_and_names_more_updates_never_copies() -> None:
    known = Matcher.of_texts(["- Run `cargo test` before every commit."])
    found = known.judge("Run `cargo test --release` before every commit")
    assert (found.category, found.related) == ("UPDATE", "- Run `cargo test` before every commit.")
    assert known.judge("Run `cargo test` before every commit").category == "RECORDED"


def test_the_same_rule_for_another_object_is_not_recorded() -> None:
    known = Matcher.of_entries(
        [("MEMORY.md", "Feedback", "- check the cache settings in `cache.toml` before changing cache code")]
    )
    assert known.judge(
        "check the queue settings in `queue.toml` before changing queue code"
    ).category not in (
        "RECORDED",
        "CONTRADICT",
    )


def test_a_contradiction_is_the_best_match_about_the_same_subject() -> None:
    overview = (
        "**acme** is a build wrapper for Rust that sits on top of cargo. It configures builds per package via "
        "spec files with support for target triples, compiler flags and linker options."
    )
    known = Matcher.of_texts([f"## Overview\n\n{overview}\n\n## Sessions\n\n- Commit the session files.\n"])
    found = known.judge("Never commit the session files")
    assert (found.category, found.related) == ("CONTRADICT", "- Commit the session files.")
    assert (
        known.judge("Never use `cargo install`, install with `acme install --path .`").category
        != "CONTRADICT"
    )


def test_a_statement_that_says_it_as_it_is_wins_over_one_it_seems_to_oppose() -> None:
    known = Matcher.of_texts(
        [
            "## Sessions\n\n- Claude never commits the session files; the user commits them.\n\n"
            "```\nRemember to commit the session files.\n```\n"
        ]
    )
    assert known.judge("Do not commit the session files").category == "RECORDED"


@pytest.mark.parametrize(
    "principle",
    [
        "Publishing to the registry by hand is forbidden",
        "Publishing to the registry by hand is not allowed",
        "No publishing to the registry by hand",
    ],
)
def test_a_ban_said_after_what_it_bans_agrees_with_never(principle: str) -> None:
    known = "## Releases\n\n- Never publish to the registry by hand.\n- Tag every release.\n"
    assert _both(known, principle) == ("RECORDED", "RECORDED")
    assert _both(known, "Publishing to the registry by hand is fine") == ("CONTRADICT", "CONTRADICT")


@pytest.mark.parametrize(
    ("known", "principle"),
    [
        (
            "- Split the service configuration into three sections so each stays short and readable.",
            "Split the service configuration into two sections so each stays short and readable",
        ),
        ("- Keep the subject line under 50 characters.", "Keep the subject line under 72 characters"),
        (
            "- The `[server]` table holds host, port, timeout and workers.",
            "The `[server]` table holds host, port, timeout, workers and backlog",
        ),
        (
            "**Handlers implement the `Service` trait:**\n- Simple handlers use the default `handle()` method\n"
            "- Complex handlers override `handle()`",
            "Handlers implement the `Handle` trait",
        ),
    ],
)
def test_another_number_a_grown_list_or_another_name_updates_never_copies(known: str, principle: str) -> None:
    scan, dream = _both(known, principle)
    assert scan == dream == "UPDATE", (scan, dream)


def test_a_list_said_in_part_is_still_recorded() -> None:
    known = "- The `[server]` table holds host, port, timeout and workers."
    assert _both(known, "The `[server]` table holds host, port and timeout") == ("RECORDED", "RECORDED")


@pytest.mark.parametrize(
    "known",
    [
        "## Work\n\n- Create a dated entry in `notes/log.md` with the context and the plan.\n",
        "## Workflow\n\n**Before starting work:**\n1. Create a branch for it\n"
        "2. Create a dated entry in `notes/log.md` with the context and the plan\n3. Update the roadmap\n",
    ],
)
def test_a_shared_path_is_no_shared_program_and_one_step_sharing_it_not_the_procedure(known: str) -> None:
    scan, dream = _both(known, "Update `notes/log.md` with the outcome")
    assert scan == dream and scan != "RECORDED", (scan, dream)


def test_a_rule_a_list_states_names_the_item_that_says_it_not_the_lead_in() -> None:
    known = (
        "## Releases\n\nBecause of the shared lock files, the assistant cannot run these commands:\n\n"
        "- `npm publish` - publishing needs the release key\n- `npm dedupe` - deduping rewrites the lock\n"
    )
    principle = "Do not dedupe because of the shared lock files"
    for matcher in (Matcher.of_texts([known]), Matcher.of_entries(_entries(known))):
        found = matcher.judge(principle)
        assert found.category == "RECORDED"
        assert "dedupe" in found.related and not found.related.endswith(":"), found.related


def test_a_procedure_restated_is_quoted_with_its_lead_in_and_the_steps_it_takes() -> None:
    known = (
        "## Workflow\n\n**Before starting work:**\n1. Open a branch for the work\n"
        "2. Write a dated entry in the log with the plan\n3. Bump the version to a pre-release\n"
        "4. Commit these as a marker commit\n"
    )
    principle = "Write a dated entry with the plan, bump the version and commit that as a marker commit first"
    found = Matcher.of_texts([known]).judge(principle)
    assert found.category == "RECORDED"
    assert found.quote.startswith("**Before starting work:**"), found.quote
    assert "2. Write a dated entry" in found.quote or "Write a dated entry" in found.quote, found.quote


REMINDER = (
    "## Workflow\n\n**After each release, remind the user to push the tags:**\n```\nReleased v1.2.\n\n"
    "Remember to push the tags.\n```\n\n- Never push the tags yourself; the user pushes them.\n"
)


@pytest.mark.parametrize(
    "principle",
    [
        "Never push the tags",
        "Do not push tags",
        "Remind the user to push the tags after each release",
        "Push the tags",
    ],
)
def test_the_scan_and_the_dream_read_a_fenced_example_line_inside_its_block(principle: str) -> None:
    scan = Matcher.of_texts([REMINDER]).judge(principle)
    dream = Matcher.of_entries([("CLAUDE.md", s, b) for s, b in markdown_blocks(REMINDER)]).judge(principle)
    assert (scan.category, scan.related) == (dream.category, dream.related)
    assert scan.related != "Remember to push the tags."  # the example message is never a rule alone


_OFF_LIMITS = """# Notes

## Release operations the assistant cannot perform

Because the `.cache/` run logs record what the assistant does, the assistant cannot perform these operations:

- `git tag` - tagging moves the run logs
- `git stash` - stashing hides the run logs
- Amending commits with `.cache/` files

The user must perform these operations by hand. The assistant can only make commits (excluding `.cache/` files) and remind the user to handle the rest.
"""
_STATES_IT = "The assistant can only make commits (excluding `.cache/` files) and remind the user to handle the rest."


@pytest.mark.parametrize("principle", ["Do not commit .cache/ run log files", "Never commit `.cache/` files"])
def test_a_recorded_rule_quotes_the_sentence_that_states_it(principle: str) -> None:
    # the list item shares more words, but it is about amending: the paragraph states the rule
    found = Matcher.of_texts([_OFF_LIMITS]).judge(principle)
    assert found.category == "RECORDED"
    assert found.quote == _STATES_IT
    assert _STATES_IT in found.related


def test_a_recorded_rule_about_the_item_s_own_act_still_quotes_the_item() -> None:
    found = Matcher.of_texts([_OFF_LIMITS]).judge("Never amend commits with `.cache/` files")
    assert found.category == "RECORDED"
    assert "Amending commits with `.cache/` files" in (found.quote or found.related)
    assert _STATES_IT not in found.quote
