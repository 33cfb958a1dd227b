"""A contradiction needs the same subject: the best-matching statement, never a paragraph that only
shares a few words; two texts stating the same preference agree."""

from __future__ import annotations

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
