"""The assistant's reply, the rule a turn states, and the words a future session reads."""

from __future__ import annotations

import pytest

from consolidate.discover.acks import read_reply
from consolidate.discover.grammar import punctuated
from consolidate.discover.quality import form_problem
from consolidate.discover.rewrite import imperative, strip_fillers
from consolidate.discover.turns import (
    accusation_rule,
    features,
    is_memory_request,
    rule_sentence,
)
from consolidate.discover.wording import finish


@pytest.mark.parametrize(
    ("reply", "strength"),
    [
        ("You're right — the version bump goes first.", 2),
        ("Good catch, I missed that.", 2),
        ("My mistake, fixing it.", 2),
        ("Вы правы, исправляю.", 2),
        ("你说得对，我改一下。", 2),
        ("Haklısınız, düzeltiyorum.", 2),
        ("Understood.", 1),
        ("Got it — switching.", 1),
        ("Понял, сделаю.", 1),
        ("明白，马上改。", 1),
        ("Anladım.", 1),
        ("Let me look at the logs first.", 0),
        ("Here is the summary of the change.", 0),
    ],
)
def test_how_a_reply_opens(reply: str, strength: int) -> None:
    assert read_reply(reply).strength == strength


def test_a_promise_and_the_rule_it_restates() -> None:
    reply = read_reply("Understood. I'll remind you to amend the session files after each commit.")
    assert reply.commitment and reply.strength == 1
    assert imperative(reply.restatement, speaker="assistant") == (
        "Remind the user to amend the session files after each commit."
    )
    concede = read_reply("Good catch — standardize `-dev0` for the marker commit.")
    assert concede.restatement == "standardize `-dev0` for the marker commit."
    assert read_reply("You're right. Let me fix it.").restatement == ""


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "Amend, when doing a multi-step always create a branch\\",
            "When doing a multi-step always create a branch",
        ),
        (
            "we should probably use the release profile for benchmarks",
            "Use the release profile for benchmarks",
        ),
        (
            "Previously I mentioned we should keep comments when editing specs.",
            "Keep comments when editing specs.",
        ),
        (
            "We made a boo boo, we should have run the tests before committing",
            "Run the tests before committing",
        ),
        (
            "FYI, we need to tag releases before pushing, not a problem this time",
            "Tag releases before pushing",
        ),
        (
            "rather than use `make x` you should use `just x` with the new runner",
            "Use `just x` rather than `make x` with the new runner",
        ),
    ],
)
def test_a_sentence_as_an_instruction(said: str, rule: str) -> None:
    assert imperative(strip_fillers(said)) == rule


def test_fillers_and_escapes_go_code_stays() -> None:
    assert strip_fillers('❯ Also, "always" run `make lint` first\\') == "Always run `make lint` first"


def test_the_sentence_that_states_the_rule() -> None:
    text = "Ok that's done. The READMEs need to be clear that we configure packages, not crates. Thanks"
    assert rule_sentence(text) == "The READMEs need to be clear that we configure packages, not crates."
    assert rule_sentence("what do you think about caching?") == ""
    assert rule_sentence("I think we should maybe cache it") == ""  # a proposal, not yet a rule
    assert (
        rule_sentence("The help says: by default all packages are always built") == ""
    )  # not the user's words
    question = "after the tests pass install it right away, any reason not to always do that?"
    assert rule_sentence(question) == "After the tests pass install it right away"


def test_an_accusation_that_hides_a_rule() -> None:
    assert accusation_rule("You always make the mistake of not passing `--path .` to it") == (
        "Always pass `--path .` to it"
    )
    assert accusation_rule("You always forget to bump the version") == "Always bump the version"
    assert accusation_rule("you are wrong") == ""


@pytest.mark.parametrize(
    "text",
    [
        "please note that in CLAUDE.md",
        "Add that info to notes/README.md and CLAUDE.md",
        "yes, update CLAUDE.md with that convention",
        "maybe CLAUDE needs to be updated?",
        "yep, remember that, let's finish first",
        "запиши это в CLAUDE.md",
        "把这个写到 CLAUDE.md",
        "bunu CLAUDE.md'ye ekle",
    ],
)
def test_requests_to_write_memory(text: str) -> None:
    assert is_memory_request(text)


@pytest.mark.parametrize(
    "text", ["update the README", "update CLAUDE to reflect the changes", "do you remember the flag?"]
)
def test_not_requests_to_write_memory(text: str) -> None:
    assert not is_memory_request(text)


def test_what_makes_a_plain_sentence_a_rule() -> None:
    assert features("we should always run the linter before pushing") >= 2
    assert features("FYI, we need to tag releases") >= 2
    assert features("the build took four minutes") == 0


@pytest.mark.parametrize(
    ("principle", "problem"),
    [
        ("Why does the build fail?", "question"),
        ("Maybe we should cache the layers", "hedged"),
        ("I was reading the help text yesterday", "no principle"),
        ("Always use the cache when (building", "fragment"),
        ("Put the constants in a module and use them everywhere…", "fragment"),
        ('Change "Retry" to "Try again" in the dialog', "one-off"),
        ("Promote it to a subsection with sub-bullets", "one-off"),
        ("Use `tspec` instead of `cargo` for builds", ""),
    ],
)
def test_wordings_that_are_no_usable_rule(principle: str, problem: str) -> None:
    assert form_problem(principle) == problem


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "update the changelog and notes-2 remove `-rc` from the version in pyproject.toml when you tag "
            "include the lock file if it changed",
            "update the changelog and notes-2, remove `-rc` from the version in pyproject.toml; when you tag, "
            "include the lock file if it changed",
        ),
        (
            "add tests update the changelog bump the version",
            "add tests, update the changelog, bump the version",
        ),
        ("Run cargo test", "Run cargo test"),  # a command, not two clauses
        (
            "After making changes and all tests pass install the new build right away",
            "After making changes and all tests pass, install the new build right away",
        ),
        ("Once merged delete the branch", "Once merged, delete the branch"),
        ("After the tests pass, install it", "After the tests pass, install it"),
        ("When the tests pass install it", "When the tests pass install it"),  # "when …" becomes the trigger
        ("add the plan to todo and bump the version", "add the plan to todo and bump the version"),
        (
            "check the logs when you deploy install the agent first",
            "check the logs when you deploy install the agent first",
        ),
        (
            "update docs, remove the flag add a test",
            "update docs, remove the flag add a test",
        ),  # punctuated already
    ],
)
def test_a_run_on_list_of_instructions_gets_its_commas(said: str, rule: str) -> None:
    assert punctuated(said) == rule


def test_a_run_on_list_is_written_as_one_clean_rule() -> None:
    said = "update todo and notes-3 remove `-dev` from the version when you commit include the lock file if it's changed"
    assert finish(said, "writing a commit")[0] == (
        "update todo and `notes-N`, remove `-dev` from the version; when you commit, include the lock file if it's changed"
    )
