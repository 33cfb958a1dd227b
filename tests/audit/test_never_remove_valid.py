"""The property that matters most: a valid, still-true memory is never proposed for removal."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from consolidate.audit import audit_tree
from consolidate.evaluate.audit_devset import build_devset, score
from consolidate.gitrepo import GitRepo
from consolidate.models import FINDING_CATEGORIES
from memory_layout import load_memory_tree
from tests.audit.conftest import Project

VALID = [
    "`src/shop/{module}.py` {verb} the {noun} records.",
    "**When editing {noun} code:** `src/shop/{module}.py` {verb} them.",
    "Call `place_order()` after `read_cart()` so the {noun} lock is current.",
    "`InvoiceService.total` {verb} {noun} lines in minor units.",
    "Uses pydantic 2.x for {noun} models; requires Node 20.",
    "Run `npm run lint:web` before pushing {noun} changes.",
    "`src/shop/legacy.py` was removed; {noun} tax lives in `src/shop/billing.py` now.",
    "Never re-add `src/shop/legacy.py`: it duplicated the {noun} logic.",
    "The user prefers terse answers about {noun} problems.",
    "Ask the finance team before changing the {noun} schema.",
    "Release {noun} changes on Tuesdays after QA sign-off.",
    "Design notes for {noun}: https://wiki.example.com/{noun}.",
]
NOUNS = st.sampled_from(["refund", "cart", "invoice", "coupon", "shipment", "tariff"])
VERBS = st.sampled_from(["parses", "validates", "serialises", "owns"])
MODULES = st.sampled_from(["orders", "billing", "routes"])


@st.composite
def valid_memories(draw: st.DrawFn) -> list[str]:
    templates = draw(st.lists(st.sampled_from(VALID), min_size=3, max_size=8, unique=True))
    return [t.format(noun=draw(NOUNS), verb=draw(VERBS), module=draw(MODULES)) for t in templates]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=valid_memories())
def test_valid_entries_are_never_removed(project: Project, entries: list[str]) -> None:
    project.entries(*entries)
    removes = [f for f in project.audit().findings if f.action == "REMOVE"]
    assert removes == []


@pytest.mark.parametrize("seed", [0, 1])
def test_devset_recall_and_no_false_remove(tmp_path: Path, seed: int) -> None:
    case = build_devset(tmp_path, seed=seed, valid=60, planted=1)
    report = audit_tree(
        load_memory_tree(case.memory_dir),
        project_root=case.project,
        repo=GitRepo.find(case.project),
        project_claude_md=case.claude_md,
    )
    result = score(report, case.labels)
    assert result.false_removes == []
    assert result.bad_replacements == []
    for category in [c for c in FINDING_CATEGORIES if c != "HYGIENE"]:
        assert (result.recall(category) or 0) >= 0.9, category
