"""A contradiction needs the same subject: the best-matching statement, never a paragraph that only
shares a few words; two texts stating the same preference agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover.existing import contradicts
from consolidate.discover.matcher import Matcher, Verdict


def compare(rule: str, texts: dict[str, str]) -> Verdict:
    return Matcher.of_texts(texts).judge(rule)


OVERVIEW = (
    "**acme** is a build wrapper for Rust that sits on top of cargo. It configures builds per package via "
    "spec files with support for target triples, compiler flags and linker options."
)
CLAUDE_MD = f"""# CLAUDE.md

## Project Overview

{OVERVIEW}

## Build

```bash
acme install --path .   # Install acme globally (NEVER cargo install)
```
"""


def test_use_x_instead_of_y_agrees_with_never_y() -> None:
    rule = "Use `acme install` instead of `cargo install`"
    assert not contradicts(rule, "acme install --path .   # Install acme globally (NEVER cargo install)")
    assert compare(rule, {"CLAUDE.md": CLAUDE_MD}).category == "RECORDED"


def test_a_paragraph_sharing_a_few_words_is_never_the_contradicted_statement() -> None:
    rule = "Use `acme install` instead of `cargo install`"
    match = compare(rule, {"CLAUDE.md": f"# CLAUDE.md\n\n{OVERVIEW}\n"})
    assert match.category != "CONTRADICT" and match.related != OVERVIEW


def test_the_best_matching_statement_is_the_contradicted_one() -> None:
    known = {"CLAUDE.md": f"{OVERVIEW}\n\n- Run the tests with `cargo test` before every commit.\n"}
    match = compare("Never use `cargo test`; run the tests with `acme test`", known)
    assert (match.category, match.related) == (
        "CONTRADICT",
        "- Run the tests with `cargo test` before every commit.",  # as written, as the dream quotes it
    )


def test_opposite_rules_still_contradict_and_a_timing_is_no_negation() -> None:
    assert contradicts("Do not commit the session files", "Remember to commit the session files.")
    assert not contradicts(
        "Don't install it until after it passes its tests", "After the tests pass, install the new version."
    )


# A message the assistant prints to the user, quoted in a fence, and a bash block of commands.
TEMPLATE_MD = """# CLAUDE.md

## Workflow

**After a release build, remind about the build logs:**
```
Built release 1.2.

Remember to upload the build logs.
```

**Before a release, check:**
```bash
make lint
```
"""


def test_a_prose_line_inside_a_fence_is_a_template_never_a_rule_to_contradict() -> None:
    rule = "Do not upload the build logs"
    assert compare(rule, {"CLAUDE.md": TEMPLATE_MD}).category != "CONTRADICT"
    # read line by line, as the dream hands CLAUDE.md to the discoverer, the template line is not there
    from consolidate.dream.orient import known_entries
    from memory_layout import MemoryTree

    known = known_entries(MemoryTree(root=Path("/nowhere")), "", TEMPLATE_MD, Path("/u"), Path("/p"))
    texts = [k.text for k in known]
    assert "Remember to upload the build logs." not in texts
    assert compare(rule, texts).category != "CONTRADICT"


def test_a_command_inside_a_fence_still_reads_as_a_rule() -> None:
    from consolidate.discover.units import ruled

    assert "make lint" in ruled(TEMPLATE_MD) and "Remember to upload" not in ruled(TEMPLATE_MD)
    long_command = "```bash\ncargo build --release --locked\n```"
    from consolidate.discover.units import rule_lines

    assert "cargo build --release --locked" in rule_lines(long_command)


def test_a_rule_for_the_assistant_does_not_contradict_a_reminder_to_the_user() -> None:
    rule = "Do not upload the build logs"
    for reminder in (
        "Remind the user to upload the build logs after each release.",
        "The user must upload the build logs after each release.",
    ):
        assert compare(rule, {"CLAUDE.md": f"# CLAUDE.md\n\n{reminder}\n"}).category != "CONTRADICT"
    # the same rule against an order to the assistant is a contradiction
    order = "# CLAUDE.md\n\nUpload the build logs after each release.\n"
    assert compare(rule, {"CLAUDE.md": order}).category == "CONTRADICT"
    # and a rule about the reminder itself contradicts the reminder
    reminded = "# CLAUDE.md\n\nRemind the user to upload the build logs after each release.\n"
    assert compare("Never remind the user to upload the build logs", {"CLAUDE.md": reminded}).category == (
        "CONTRADICT"
    )


@pytest.mark.parametrize(
    "allows",
    [
        "The bot may only make commits (excluding `.venv/` files).",
        "The bot can make commits, except `.venv/` files.",
        "The bot can make commits, except for `.venv/` files.",
        "The bot can make commits of anything other than `.venv/` files.",
        "The bot can make commits of source files but not `.venv/` files.",
        "The bot can make commits without `.venv/` files.",
    ],
)
def test_what_a_statement_keeps_out_of_what_it_allows_is_negated(allows: str) -> None:
    # "excluding X" negates X: the ban of X agrees with the statement, it never contradicts it
    rule = "Do not commit .venv/ files"
    assert not contradicts(rule, allows) and not contradicts(allows, rule)
    assert compare(rule, {"CLAUDE.md": f"# Notes\n\n{allows}\n"}).category in ("RECORDED", "UPDATE")


def test_a_statement_that_includes_what_a_ban_forbids_still_contradicts_it() -> None:
    rule = "Do not commit .venv/ files"
    allows = "The bot can make commits, including `.venv/` files."
    assert contradicts(rule, allows)
    assert compare(rule, {"CLAUDE.md": f"# Notes\n\n{allows}\n"}).category == "CONTRADICT"
    # keeping another thing out says nothing of this one
    assert contradicts(rule, "The bot can make commits of `.venv/` files, except `docs/` pages.")
