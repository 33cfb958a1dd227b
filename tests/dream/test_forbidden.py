"""A learning that would have the assistant do what the memory forbids it is never proposed as it is:
when the memory reserves the action for the user and the learning names when it applies, it is said
around the user ("Before X, wait for the user to Y"); else it is set aside, quoting the prohibition,
and waits for a person."""

from __future__ import annotations

import pytest

from consolidate.dream.backlog import Backlog
from consolidate.dream.edits import orders_under_ban
from consolidate.dream.reserved import around_the_user
from tests.dream.fidelity_project import Project, build_project, candidate


@pytest.fixture
def acme(tmp_path) -> Project:  # type: ignore[no-untyped-def]
    return build_project(tmp_path)


_RESERVED = (
    "\n## Git Operations the Assistant Cannot Perform\n\n"
    "The assistant cannot perform these operations:\n\n"
    "- `git rebase` - rewrites history the session files point at\n"
    "- Amending commits with session files\n"
)


def test_a_learning_that_orders_what_the_memory_forbids_is_set_aside_quoting_it(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(acme.claude_md.read_text() + _RESERVED)
    forbidden = candidate("Amend the session files into every commit", layers=["L1"])  # it names no moment
    before = acme.claude_md.read_text()
    code, out, err = acme.dream(capsys, acme.report(forbidden), "--yes")
    assert code == 0, err
    assert acme.claude_md.read_text() == before and "[ADD]" not in out and "already recorded" not in out
    assert (
        "set aside S1: Amend the session files into every commit — the memory forbids "
        "what it asks: “Amending commits with session files” under “Git Operations the Assistant Cannot "
        "Perform”"
    ) in out
    assert [c.principle for c in Backlog.load(acme.settings).pending()] == [
        "Amend the session files into every commit"
    ]


def test_a_learning_ordering_what_the_user_alone_does_is_said_around_the_user(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(acme.claude_md.read_text() + _RESERVED)
    reserved = candidate("Amend the session files into the commit before bumping the version", layers=["L1"])
    code, out, err = acme.dream(capsys, acme.report(reserved), "--yes")
    assert code == 0, err
    assert "forbids" not in out and "set aside" not in out
    assert (
        "- Before bumping the version, wait for the user to amend the session files into the commit."
        in acme.claude_md.read_text()
    )
    assert not Backlog.load(acme.settings).pending()


def test_a_prohibition_of_everyone_is_never_said_around_the_user(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(
        acme.claude_md.read_text() + "\n## Releases\n\nNever delete release tags: packagers pin them.\n"
    )
    forbidden = candidate("Delete the release tags before publishing a new build", layers=["L1"])
    before = acme.claude_md.read_text()
    code, out, err = acme.dream(capsys, acme.report(forbidden), "--yes")
    assert code == 0, err
    assert acme.claude_md.read_text() == before and "[ADD]" not in out
    assert "set aside S1: Delete the release tags before publishing a new build — the memory forbids" in out


def test_a_reminder_for_the_user_to_do_the_forbidden_thing_is_still_proposed(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(
        acme.claude_md.read_text()
        + "\n## Git Operations the Assistant Cannot Perform\n\n"
        + "- Amending commits with session files\n"
    )
    reminder = candidate(
        "Remind the user to amend the session files before bumping the version", layers=["L1"]
    )
    code, out, err = acme.dream(capsys, acme.report(reminder), "--dry-run")
    assert code == 0, err
    assert "forbids" not in out and "set aside" not in out and "already recorded" not in out
    assert "[ADD]" in out
    assert "Remind the user to amend the session files before bumping the version" in out


def test_a_rule_that_orders_never_joins_the_list_of_what_must_not_be_done(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(
        acme.claude_md.read_text()
        + "\n## Git Operations the Assistant Cannot Perform\n\n"
        + "- `git rebase` - rewrites history the session files point at\n"
        + "- Amending commits with session files\n"
    )
    follow_up = candidate(
        "When a follow-up belongs to the last unpushed commit, stage it and ask the user to amend it in",
        layers=["L1"],
        category="FILL_GAP",
        section="Git Operations the Assistant Cannot Perform",
    )
    code, out, err = acme.dream(capsys, acme.report(follow_up), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    banned = text.split("## Git Operations the Assistant Cannot Perform", 1)[1].split("\n## ", 1)[0]
    assert "stage it and ask the user" in text and "stage it and ask the user" not in banned
    assert (
        banned
        == "\n\n- `git rebase` - rewrites history the session files point at\n- Amending commits with session files\n"
    )


@pytest.mark.parametrize(
    "rule",
    [
        "Never run git reset on a commit that holds the session files",
        # the ban says who may not: the actor before the negation keeps it a ban
        "The assistant does not run git reset on a commit that holds the session files; the user does",
        "Claude must not run git reset on a commit that holds the session files",
    ],
)
def test_a_ban_may_join_the_list_of_what_must_not_be_done(acme, capsys, rule) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(
        acme.claude_md.read_text()
        + "\n## Git Operations the Assistant Cannot Perform\n\n"
        + "- Amending commits with session files\n"
    )
    ban = candidate(
        rule,
        layers=["L1"],
        category="FILL_GAP",
        section="Git Operations the Assistant Cannot Perform",
    )
    code, out, err = acme.dream(capsys, acme.report(ban), "--yes")
    assert code == 0, err
    banned = acme.claude_md.read_text().split("## Git Operations the Assistant Cannot Perform", 1)[1]
    banned = banned.split("\n## ", 1)[0]  # the list itself, not a heading made after it
    assert "git reset" in banned


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        (
            "Rebase the feature branch before opening the pull request",
            "Before opening the pull request, wait for the user to rebase the feature branch.",
        ),
        (
            "After each release, delete the staging tag",
            "After each release, remind the user to delete the staging tag.",
        ),
        (
            "Always push the tags when a release is cut",
            "When a release is cut, remind the user to push the tags.",
        ),
    ],
)
def test_a_reserved_action_said_around_the_user(rule: str, said: str) -> None:
    assert around_the_user(rule) == said


@pytest.mark.parametrize(
    "rule",
    [
        "Rebase the feature branch",  # no moment: no faithful wording
        "Never push before the tests pass",  # orders nothing
        "Remind the user to rebase before merging",  # already about the user
        "Rebase the branch; then wait before merging",  # more than one sentence
    ],
)
def test_no_wording_around_the_user_when_none_is_faithful(rule: str) -> None:
    assert around_the_user(rule) is None


@pytest.mark.parametrize(
    ("rule", "orders"),
    [
        ("Never push the branch; the user pushes it", False),
        ("Claude does not push, not even after a trivial commit", False),
        ("The assistant must not amend a pushed commit", False),
        ("Claude runs no git command that stages the session files", False),
        ("Claude runs the checks, then nothing else", True),
        ("Claude pushes the branch after the user amends it", True),  # an actor, then an order
        ("The assistant stages the follow-up and asks the user to amend it in", True),
        ("Nobody else reads the session files, so commit them last", True),  # "no" as a word, not a ban
    ],
)
def test_a_ban_is_told_from_an_order_also_when_it_names_who(rule, orders) -> None:  # type: ignore[no-untyped-def]
    assert orders_under_ban("Git Operations Claude Cannot Perform", rule) is orders
    assert orders_under_ban("Build Commands", rule) is False  # only a heading that forbids lists bans
