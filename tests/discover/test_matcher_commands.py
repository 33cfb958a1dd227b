"""The matcher against the shapes real CLAUDE.md files give their build commands: a "never use bare …"
line with the commands in fenced code under it, or a list of the commands to use under a lead-in, or
one sentence forbidding several commands; and bans said of the assistant by name."""

from __future__ import annotations

import pytest

from consolidate.discover.matcher import Matcher
from consolidate.discover.samerule import opens_with_ban, prohibitions, read
from consolidate.dream.edits import orders_under_ban

FENCED = (
    "# Proj\n\n## Build Commands\n\n"
    "**Always build with `mk` itself.** Never use bare `cargo clippy` — use the mk equivalents.\n\n"
    "```bash\n"
    "mk test -p core          # Run tests (NEVER cargo test)\n"
    "mk clippy                # Run lints (NEVER cargo clippy)\n"
    "```\n"
)
LISTED = (
    "# Proj\n\n## Build Commands\n\n"
    "Never use bare `cargo` subcommands; use the mk equivalents:\n\n"
    "- `mk test` — run the tests\n"
    "- `mk clippy` — run lints\n"
    "- `mk fmt --check` — check formatting\n"
)
SENTENCE = (
    "# Proj\n\n## Rules\n\n"
    "Never use bare `cargo test`, `cargo clippy`, `cargo fmt`, or `cargo install` — use the mk equivalents.\n"
)


@pytest.mark.parametrize("memory", [FENCED, LISTED, SENTENCE])
def test_a_command_in_place_of_a_forbidden_one_is_recorded(memory: str) -> None:
    found = Matcher.of_texts([memory]).judge("Use `mk clippy` instead of `cargo clippy`")
    assert found.category == "RECORDED", found
    assert "Never use bare `cargo" in found.related


@pytest.mark.parametrize("memory", [LISTED, SENTENCE])
def test_running_any_command_of_the_ban_is_forbidden(memory: str) -> None:
    matcher = Matcher.of_texts([memory])
    for principle in (
        "Run `cargo fmt` before committing",
        "Run `cargo install --path .` after the tests pass",
    ):
        assert matcher.judge(principle).category == "FORBIDDEN", principle


def test_a_list_of_commands_to_use_under_a_ban_is_not_what_it_forbids() -> None:
    found = Matcher.of_texts([LISTED]).judge("Use `mk test` instead of `cargo test`")
    assert found.category == "RECORDED"
    assert (
        Matcher.of_texts([LISTED]).judge("Run `mk fmt --check` before every commit").category != "FORBIDDEN"
    )


def test_a_command_the_ban_does_not_name_is_an_update_of_it() -> None:
    found = Matcher.of_texts([FENCED]).judge("Run `mk clean -w` instead of `cargo clean`")
    assert found.category == "UPDATE"
    assert found.related.startswith("**Always build with `mk` itself.**")


def test_a_forbidden_command_restated_alone_is_recorded() -> None:
    assert Matcher.of_texts([SENTENCE]).judge("Never use bare `cargo fmt`").category == "RECORDED"


def test_every_command_of_one_sentence_is_negated_and_forbidden() -> None:
    said = read(SENTENCE.split("\n\n")[-1])
    assert said.negated_anchors == {"cargo test", "cargo clippy", "cargo fmt", "cargo install"}
    forbidden = {p.verb for p in prohibitions([("", SENTENCE.split("\n\n")[-1])], ())}
    assert {"`cargo test", "`cargo clippy", "`cargo fmt", "`cargo install"} <= forbidden
    assert read("Never run `a`, then `b`").negated_anchors == {"a"}  # a sequence, no list of alternatives


@pytest.mark.parametrize(
    ("ban", "verb"),
    [
        ("Claude does not push to the remote.", "push"),
        ("The assistant must not merge pull requests.", "merg"),
        ("Claude runs no git command that rewrites history.", "run"),
    ],
)
def test_a_ban_naming_the_assistant_is_read_as_a_prohibition(ban: str, verb: str) -> None:
    assert [p.verb for p in prohibitions([("", ban)], ())] == [verb]
    assert opens_with_ban(ban)


def test_a_ban_naming_the_assistant_forbids_the_order() -> None:
    matcher = Matcher.of_texts(["## Git\n\nClaude does not push to the remote.\n"])
    assert matcher.judge("Push to the remote after each commit").category == "FORBIDDEN"


def test_one_reading_of_a_ban_decides_what_joins_a_forbidding_list() -> None:
    heading = "Operations Claude Cannot Perform"
    assert not orders_under_ban(heading, "Claude runs no git command that rewrites history")
    assert not orders_under_ban(heading, "Claude does not push")
    assert orders_under_ban(heading, "Push after each commit")


WORKFLOW = (
    "# Proj\n\n## Commands\n\n"
    "Development workflow (using mk where available):\n"
    "```bash\n"
    "mk test -p core            # Run tests\n"
    "mk clean                   # Clean build artifacts\n"
    "cargo clippy               # Lints (until mk clippy exists)\n"
    "```\n"
)


def test_the_commands_of_a_fence_are_its_anchors() -> None:
    said = read(WORKFLOW.split("## Commands\n\n", 1)[1])
    assert {"mk test -p core", "mk clean", "cargo clippy"} <= said.anchors


def test_ruling_out_a_command_the_fence_does_not_run_updates_it() -> None:
    found = Matcher.of_texts([WORKFLOW]).judge("Run `mk clean -w` instead of `cargo clean`")
    assert found.category == "UPDATE"
    assert found.related.startswith("Development workflow")


def test_ruling_out_a_command_the_fence_runs_is_never_an_update() -> None:
    found = Matcher.of_texts([WORKFLOW]).judge("Use `mk clippy` instead of `cargo clippy`")
    assert found.category in ("CONTRADICT", "UNSURE")
