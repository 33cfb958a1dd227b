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
