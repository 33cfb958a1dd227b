"""Two rules about the same command are one rule only when they order the same act: "deploy it once
the checks pass" and "pass `--remote` to `fly deploy`" share a command and are two lessons, never one
with the other as an "Also: …" line."""

from __future__ import annotations

import pytest

from consolidate.discover.dedupe import merge_candidates, orders_the_same
from consolidate.discover.report import Evidence, Learning


def _learning(principle: str, uuid: str, confidence: float = 0.8) -> Learning:
    return Learning(
        kind="correction",
        principle=principle,
        trigger="",
        confidence=confidence,
        evidence=[Evidence(session=f"s-{uuid}", uuid=uuid)],
    )


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (
            "After the lint checks pass, deploy the new build right away so we try fly for real",
            "For `fly deploy`, pass `--remote`.",
        ),
        (
            "Do not rebase because of the circular links with the `.logs/` session files",
            "Do not commit `.logs/` session files",
        ),
    ],
)
def test_two_acts_on_one_command_stay_two_learnings(one: str, other: str) -> None:
    merged = merge_candidates([_learning(one, "a", 0.9), _learning(other, "b")])
    assert sorted(m.principle for m in merged) == sorted([one, other])
    assert all("Also:" not in m.detail for m in merged)
    assert not orders_the_same(one, other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Use `uv run pytest` instead of `pytest`", "Use `uv run mypy` instead of `mypy`"),
        ("Always pass `--remote` to `fly deploy`", "For `fly deploy`, pass `--remote` every time"),
        ("Never run `npm`, use `pnpm`", "Use `pnpm` instead of `npm`"),
        ("Uswd `fly deploy` when possible", "Use `fly deploy` when possible, it is quicker"),
    ],
)
def test_one_act_told_twice_is_still_one_learning(one: str, other: str) -> None:
    (merged,) = merge_candidates([_learning(one, "a", 0.9), _learning(other, "b")])
    assert {e.uuid for e in merged.evidence} == {"a", "b"}


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("**fmtx** — the formatter wrapper we run before each commit", None),  # a name and what it is
        ("fmtx: the formatter wrapper", None),
        ("Settings are read through `load_settings()`", None),  # what the line is about, no act
        ("Claude pushes the release branch once the checks pass", "push"),  # the verb after who does it
        ("The user merges the feature branch after review", "merg"),
        ("The assistant runs the formatter before each commit", "run"),
        ("Claude can only make commits (excluding `.cache/` files)", "commit"),  # "make" carries it
        ("Make the final commit once the diff is reviewed", "commit"),
        ("Never amend the session files", "amend"),
        ("Deploy the preview build after the checks pass", "deploy"),  # a verb no list names still opens it
        ("`cargo fmt` before every commit", "`cargo fmt"),  # a command is its act
    ],
)
def test_the_act_of_a_line_is_its_verb_after_who_does_it(line: str, act: str | None) -> None:
    from consolidate.discover.samerule import act_of

    assert act_of(line) == act


def test_two_acts_after_the_same_actor_stay_two_learnings() -> None:
    one = "Claude pushes the final commit once the user has reviewed the diff"
    other = "Make the final commit once the user has reviewed the diff"
    merged = merge_candidates([_learning(one, "a", 0.9), _learning(other, "b")])
    assert sorted(m.principle for m in merged) == sorted([one, other])
    assert not orders_the_same(one, other)


def test_one_act_said_with_its_actor_is_still_one_learning() -> None:
    one = "Claude makes the final commit once the user has reviewed the diff"
    other = "Make the final commit once the user has reviewed the diff"
    (merged,) = merge_candidates([_learning(one, "a", 0.9), _learning(other, "b")])
    assert {e.uuid for e in merged.evidence} == {"a", "b"}
