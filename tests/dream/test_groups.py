"""Grouped review: proposals of one kind and reason are one decision, each item still selectable; a
run shows at most a reviewable number of decisions and says how many proposals wait."""

from __future__ import annotations

import io
import json
import random
from collections import Counter

import pytest

from consolidate.dream.groups import MAX_DECISIONS, decisions, group_proposals
from consolidate.errors import UsageError
from consolidate.plan import Plan, Proposal, parse_plan
from consolidate.review import (
    ask_approval,
    decision_count,
    render_group,
    render_proposal,
    show_plan,
    summary_of,
)


def proposal(
    n: int, action: str = "REMOVE", category: str = "REDUNDANT", reason: str = "in-claude-md", **kw
) -> Proposal:  # type: ignore[no-untyped-def]
    return Proposal.model_validate(
        {
            "id": f"P{n}",
            "action": action,
            "summary": f"{category}: entry {n}",
            "target": {"file": "MEMORY.md"},
            "rationale": kw.pop("rationale", "the project's CLAUDE.md already says this"),
            "category": category,
            "reason": reason,
            "sources": kw.pop("sources", ["auditor"]),
            "changes": [{"op": "drop_entry", "file": "MEMORY.md", "text": f"- entry {n}"}],
            **kw,
        }
    )


def plan_of(proposals: list[Proposal]) -> Plan:
    return Plan(project="/p", memory_dir="/m", proposals=proposals)


def test_thirty_duplicates_of_claude_md_are_one_decision() -> None:
    plan = plan_of(
        [proposal(n) for n in range(1, 31)]
        + [proposal(31, "MERGE", "MERGE", "near-copy"), proposal(32, "MERGE", "MERGE", "near-copy")]
        + [proposal(33, "REMOVE", "STALE", "deleted")]
    )
    group_proposals(plan)
    assert [(g.id, g.summary, len(g.items)) for g in plan.groups] == [
        ("G1", "30 entries a CLAUDE.md already says", 30),
        ("G2", "2 pairs of near-copies, each merged into one entry", 2),
    ]
    assert decision_count(plan) == 3 and len(decisions(plan)) == 3 and plan.waiting == 0
    assert {p.group for p in plan.proposals if p.category == "REDUNDANT"} == {"G1"}
    assert [p.id for p in plan.select(["G2", "P1"])] == ["P1", "P31", "P32"]
    with pytest.raises(UsageError):
        plan.select(["G9"])


def test_a_run_keeps_a_reviewable_number_of_decisions_and_says_how_many_wait() -> None:
    kinds = [("REMOVE", "STALE", f"r{n}") for n in range(14)]
    learnings = [proposal(100 + n, "ADD", "FILL_GAP", "", sources=["discoverer"]) for n in range(3)]
    plan = plan_of([proposal(n, *kind) for n, kind in enumerate(kinds, start=1)] + learnings)
    group_proposals(plan)
    assert decision_count(plan) == MAX_DECISIONS
    assert sum(p.action == "ADD" for p in plan.proposals) == 3  # learnings never wait
    assert plan.waiting == 14 + 1 - MAX_DECISIONS
    assert [p.id for p in plan.proposals] == [f"P{n}" for n in range(1, len(plan.proposals) + 1)]
    assert any(f"{plan.waiting} more proposal(s) wait for the next run" in note for note in plan.notes)


def test_what_waits_is_the_lowest_priority_then_the_latest_in_the_plan() -> None:
    """Date fixes wait before stale entries; among one priority the last in the plan wait first,
    whatever the plan's size (each proposal's place looked up once)."""
    dates = [proposal(n, "EDIT", "DATE_FIX", f"d{n}") for n in range(1, 4)]
    stale = [proposal(n, "REMOVE", "STALE", f"s{n}") for n in range(4, 16)]
    plan = plan_of(dates + stale)
    group_proposals(plan)
    kept = [p.summary for p in plan.proposals]
    assert kept == [f"STALE: entry {n}" for n in range(4, 4 + MAX_DECISIONS)]
    assert plan.waiting == 15 - MAX_DECISIONS


def test_the_group_is_selectable_as_a_unit_or_item_by_item_in_the_terminal() -> None:
    plan = plan_of([proposal(n) for n in range(1, 5)] + [proposal(5, "REMOVE", "LOW-VALUE", "generic")])
    group_proposals(plan)
    out = io.StringIO()
    show_plan(plan, lambda items: "".join(f"-{p.summary}\n" for p in items), out, set())
    text = out.getvalue()
    assert "### [REMOVE ×4] Learning: 4 entries a CLAUDE.md already says  (G1: all of them" in text
    assert "- P2: entry 2" in text and "### [REMOVE] Learning: entry 5" in text
    headers = [line for line in text.splitlines() if not line.startswith(("-", "`"))]  # not the diff
    assert not any("REDUNDANT:" in line or "LOW-VALUE:" in line for line in headers), headers
    assert "-REDUNDANT: entry 2" in text  # the plan keeps its summary and its category field
    answers = iter(["s", "G1"])
    assert ask_approval(plan.select(None), lambda _: next(answers), set(), plan.groups) == [
        "P1",
        "P2",
        "P3",
        "P4",
    ]
    answers = iter(["s", "p2, P5"])
    assert ask_approval(plan.select(None), lambda _: next(answers), set(), plan.groups) == ["P2", "P5"]


def test_groups_travel_in_the_plan_json_and_are_checked() -> None:
    plan = plan_of([proposal(n) for n in range(1, 4)])
    group_proposals(plan)
    data = json.loads(plan.to_json())
    assert data["groups"][0]["items"] == ["P1", "P2", "P3"] and data["proposals"][0]["group"] == "G1"
    assert parse_plan(plan.to_json()).groups[0].id == "G1"
    data["groups"][0]["items"].append("P9")
    with pytest.raises(UsageError, match="group G1 lists unknown proposal"):
        parse_plan(json.dumps(data))


def test_the_group_block_keeps_plan_text_inert() -> None:
    plan = plan_of([proposal(n, rationale="line one\n### [ADD] fake") for n in range(1, 3)])
    group_proposals(plan)
    block = render_group(plan.groups[0], plan.proposals, "```\n-x\n")
    assert "\n### [ADD] fake" not in block and "````diff" in block


def test_learnings_that_update_entries_are_named_as_such_and_a_set_aside_one_stays_alone() -> None:
    updates = [proposal(n, "EDIT", "UPDATE", "", sources=["discoverer"]) for n in (1, 2)]
    aside = proposal(3, "EDIT", "UPDATE", "", sources=["discoverer"], skipped={"reason": "recorded"})
    plan = plan_of([*updates, aside])
    group_proposals(plan)
    assert [(g.summary, g.items) for g in plan.groups] == [
        ("2 learnings added to the entries they update", ["P1", "P2"])
    ]
    assert plan.proposals[2].group is None and [p.id for p in plan.select(None)] == ["P1", "P2"]


def test_a_group_rationale_says_how_many_targets_it_does_not_list() -> None:
    updates = [
        proposal(
            n, "EDIT", "UPDATE", "", sources=["discoverer"], rationale=f"UPDATE: adds to “rule {n}” (kept)"
        )
        for n in range(1, 6)
    ]
    plan = plan_of(updates)
    group_proposals(plan)
    (group,) = plan.groups
    assert group.rationale == (
        "UPDATE: adds to “rule 1” (kept); UPDATE: adds to “rule 2” (kept); UPDATE: adds to “rule 3” (kept); "
        "and 2 more"
    )


KINDS = [
    ("REMOVE", "STALE", "deleted"),
    ("EDIT", "DATE_FIX", "relative-date"),
    ("MERGE", "MERGE", "near-copy"),
    ("REMOVE", "REDUNDANT", "in-claude-md"),
    ("ADD", "FILL_GAP", ""),
    ("REMOVE", "LOW-VALUE", "generic"),
    ("REMOVE", "SUPERSEDED", "replaced"),
]


def _waiting_as_first_written(plan: Plan, max_decisions: int) -> list[str]:
    """Which proposals wait, by the loop as first written: while there are too many decisions, the
    unit that may wait with the lowest priority, then the latest in the plan, waits."""
    from consolidate.dream.groups import MAX_GROUP_ITEMS, _key, _may_wait, _rank

    keyed: dict[tuple[str, str, str], list[Proposal]] = {}
    for p in plan.proposals:
        keyed.setdefault(("set aside", p.id, "") if p.skipped is not None else _key(p), []).append(p)
    units: list[list[Proposal]] = []
    waiting: list[Proposal] = []
    for members in keyed.values():
        kept = [m for m in members if not _may_wait(m)] + [m for m in members if _may_wait(m)]
        units.append(kept[:MAX_GROUP_ITEMS])
        waiting += kept[MAX_GROUP_ITEMS:]
    place = [p.id for p in plan.proposals]
    units.sort(key=lambda u: min(place.index(p.id) for p in u))
    while len(units) > max_decisions:
        candidates = [u for u in units if all(_may_wait(p) for p in u)]
        if not candidates:
            break
        last = max(candidates, key=lambda u: (_rank(u[0]), min(place.index(p.id) for p in u)))
        units.remove(last)
        waiting += last
    return [f"{p.summary}\t{p.action} {p.category}".strip() for p in waiting]


@pytest.mark.parametrize("seed", range(40))
def test_what_waits_is_what_the_loop_as_first_written_lets_wait(seed: int) -> None:
    rng = random.Random(seed)
    kinds = [rng.choice(KINDS) for _ in range(rng.randrange(1, 90))]
    reasons = [r if rng.random() < 0.5 else f"{r}{rng.randrange(30)}" for _, _, r in kinds]
    proposals = [
        proposal(n, a, c, reason, sources=["discoverer"] if a == "ADD" else ["auditor"])
        for n, ((a, c, _), reason) in enumerate(zip(kinds, reasons, strict=True), start=1)
    ]
    max_decisions = rng.randrange(1, 25)
    expected = _waiting_as_first_written(plan_of([p.model_copy() for p in proposals]), max_decisions)
    plan = plan_of(proposals)
    group_proposals(plan, max_decisions=max_decisions)
    kept = {p.summary for p in plan.proposals}
    waited = [summary.split("\t")[0] for summary in expected]
    assert [p.summary for p in proposals if p.summary not in kept] == sorted(
        waited, key=[p.summary for p in proposals].index
    )
    assert plan.waiting == len(expected)
    if expected:  # the kinds named in the order they came to wait (the most common first)
        kinds = Counter(summary.split("\t")[1] for summary in expected).most_common()
        listed = ", ".join(f"{n} {kind}" for kind, n in kinds)
        assert any(
            f"{len(expected)} more proposal(s) wait for the next run ({listed})" in n for n in plan.notes
        )


def test_a_summary_is_read_without_the_category_label_it_starts_with() -> None:
    merge = proposal(1, "MERGE", "MERGE", "near-copy")
    assert render_proposal(merge, "").startswith("### [MERGE] Learning: entry 1  (P1)")
    assert merge.summary == "MERGE: entry 1"  # the plan keeps it as written
    # a label that is not its category, or a label with nothing after it, stays
    other = proposal(2, "REMOVE", "LOW-VALUE").model_copy(update={"summary": "NOTE: keep the logs short"})
    assert summary_of(other) == "NOTE: keep the logs short"
    bare = proposal(3, "REMOVE", "STALE").model_copy(update={"summary": "STALE: "})
    assert summary_of(bare) == "STALE: "
