"""A procedure laid out as a list, and a convention stated about an artifact ("commit messages should …")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.discover.detectors import detect_signals
from consolidate.discover.discover import build_report
from consolidate.discover.turns import _PROCEDURE_LEAD, workflow_rule
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.transcripts import find_transcripts, read_transcript


def _principles(tmp_path: Path, turns: list[tuple[str, str]]) -> list[str]:
    writer = SessionWriter("w1")
    for who, text in turns:
        if who == "user":
            writer.user(text)
        elif who == "tool":
            writer.tool_call("Bash", {"command": text}, "ok")
        else:
            writer.assistant(text)
    write_session(tmp_path, writer)
    signals = []
    for file in find_transcripts(tmp_path):
        signals += detect_signals(read_transcript(file).active(), file)
    return [
        f"{c.trigger}: {c.principle}" if c.trigger else c.principle for c in build_report(signals).candidates
    ]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "No, merging is done like this:\n1. push the branch\n2. open a PR\n3. I review and merge it\n"
            "4. then you delete the local branch",
            "When merging: push the branch, open a PR, the user reviews and merges it, then delete the "
            "local branch.",
        ),
        (
            "When a release is done we do it this way:\n1. tag the commit\n2. run `make publish`\n"
            "3. bump the version to the next -dev",
            "When a release is done: tag the commit, run `make publish`, then bump the version to the next -dev.",
        ),
    ],
)
def test_a_procedure_laid_out_step_by_step_is_one_rule(said: str, rule: str) -> None:
    assert workflow_rule(said) == rule


@pytest.mark.parametrize(
    "said",
    [
        "Add the following to todo\n1) Should we add a test workspace?\n2) Add benchmarks",  # a one-off list
        "Here is what I saw:\n1. the build failed\n2. the cache was empty",  # observations, not steps
        "merging is done like this:\n1. push the branch",  # one step is no procedure
        "two questions:\n1. why is it slow?\n2. can we cache it?",
    ],
)
def test_a_list_that_is_no_procedure_is_not_one(said: str) -> None:
    assert workflow_rule(said) == ""


def test_an_acknowledged_procedure_is_a_candidate(tmp_path: Path) -> None:
    said = "No, merging is done like this:\n1. push the branch\n2. open a PR\n3. I review and merge it"
    found = _principles(
        tmp_path,
        [
            ("tool", "git commit -m 'feat: x'"),
            ("assistant", "Committed. Shall I merge the branch into main?"),
            ("user", said),
            ("assistant", "Understood — I'll push the branch and open a PR; you review and merge it."),
        ],
    )
    assert found == ["merging: Push the branch, open a PR, then the user reviews and merges it."]


def test_a_procedure_nobody_acknowledged_is_not(tmp_path: Path) -> None:
    said = "merging is done like this:\n1. push the branch\n2. open a PR\n3. I review and merge it"
    assert (
        _principles(tmp_path, [("assistant", "Done."), ("user", said), ("assistant", "Pushing now.")]) == []
    )


def test_a_convention_about_commit_messages_said_as_should_is_a_rule(tmp_path: Path) -> None:
    said = (
        "commit messages should follow 50/72: a subject of at most 50 chars, a blank line, body wrapped at 72"
    )
    found = _principles(
        tmp_path,
        [
            ("tool", "git commit -m 'feat: add glob support for targets so that patterns work in the flag'"),
            ("assistant", "Committed."),
            ("user", said),
            (
                "assistant",
                "Understood — I'll keep commit subjects to 50 characters and wrap the body at 72 from now on.",
            ),
        ],
    )
    assert len(found) == 1 and "50/72" in found[0] and "Commit messages should follow" in found[0]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["Merging", "the workflow", " is done", " works", " like this", " steps are", ":", "\n",
                         "  ", " ", "1. push", "- tag it", "when we", "é", "ok:", "https://x", "?", "\t"]),
        max_size=14,
    ).map("".join)
)  # fmt: skip
def test_the_lead_ins_skipping_look_ahead_changes_no_match(text: str) -> None:
    source = _PROCEDURE_LEAD.pattern
    look_ahead = source[1 : source.index("(?P<lead>")]
    without = re.compile("^" + source.removeprefix("^" + look_ahead), _PROCEDURE_LEAD.flags)
    assert look_ahead.startswith("(?=")
    spans = [(m.span(), m["lead"]) for m in _PROCEDURE_LEAD.finditer(text)]
    assert spans == [(m.span(), m["lead"]) for m in without.finditer(text)]
