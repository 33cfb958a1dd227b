"""Over budget is never "consistent": an index over 200 lines / 25,000 bytes gets the moves that bring
it back, every moved line kept in a topic file — tested on a synthetic 1,000+ line AGENTS.md-style file."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from consolidate.apply import apply_plan
from consolidate.audit import audit
from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.run import DreamOptions, run_dream
from consolidate.dream.synthesize import synthesize
from consolidate.models import DiscoveryReport
from consolidate.runs import journal_dir, write_scope
from consolidate.settings import Settings, load_settings
from memory_layout import load_memory_tree, measure_index
from memory_layout.pointers import EntryKind, classify
from tests.helpers import gitrepo


def agents_md(sections: int = 30) -> str:
    """An AGENTS.md the way big real ones are written: a rules section up top, then long reference
    sections with subsections, prose, code fences, tables and parameter lists."""
    parts = ["# AGENTS.md", "<guidelines>", "Acme is a tool that syncs invoices between ledgers.", ""]
    parts += ["# Development Rules"]
    parts += [f"- Rule {n}: always run `make check-{n}` before pushing branch {n}." for n in range(12)]
    parts += ["- " + "When the ledger sync stalls, check the queue depth first, then the worker logs. " * 6]
    parts += ["</guidelines>", ""]
    for n in range(sections):
        parts += [
            f"# Reference {n}: Ledger Part {n}",
            f"> Complete reference for ledger part {n} options.",
            "",
        ]
        for sub in range(3):
            parts += [f"## {n}.{sub} Options", "", f"Part {n} option group {sub} controls the sync.", ""]
            parts += ["```python", f"client = Client(part={n}, group={sub})", "client.sync()", "```", ""]
            parts += [f"* `opt_{n}_{sub}_{k}` (default: `{k}`): option {k} of group {sub}" for k in range(3)]
            parts += ["", "| name | value |", "|---|---|", f"| part | {n} |", ""]
    return "\n".join(parts) + "\n"


def _settings(git_repo: gitrepo.GitRepo, tmp_path: Path, text: str) -> Settings:
    git_repo.write("README.md", "# acme\n")
    git_repo.commit("Initial")
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text(text)
    return load_settings(git_repo.path, memory_dir=memory, home=tmp_path / "cfg")


def _plan(settings: Settings):  # type: ignore[no-untyped-def]
    snapshot = orient(settings, create=False)
    gathered = GatherResult(audit=audit(settings, tree=snapshot.tree), discovery=DiscoveryReport())
    return synthesize(snapshot, gathered, engine="test")


def _substantive(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if re.search(r"\w", line)}


def test_a_thousand_line_agents_md_as_memory_is_brought_within_budget(git_repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = agents_md()
    assert len(text.splitlines()) > 1000 and len(text.encode()) > 25_000
    settings = _settings(git_repo, tmp_path, text)
    plan = _plan(settings).plan
    moves = [p for p in plan.proposals if p.reason == "over-budget"]
    assert moves and all(p.action == "CLUSTER" for p in moves)
    assert [g.summary for g in plan.groups if g.reason == "over-budget"][0].endswith("to fit the index")
    assert len(plan.groups) + sum(p.group is None for p in plan.proposals) <= 10
    report = apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings))
    assert report.ok, report.problems
    index = (settings.memory_dir / "MEMORY.md").read_bytes()
    budget = measure_index(index)
    assert budget.lines <= 200 and budget.bytes <= 25_000
    kept = set().union(*(_substantive(p.read_text()) for p in settings.memory_dir.rglob("*.md")))
    assert _substantive(text) <= kept  # every moved line is still in a topic file
    assert "Rule 3: always run `make check-3`" in index.decode()  # the rules stay always loaded
    tree = load_memory_tree(settings.memory_dir)
    pointers = [e for e in tree.index.document.entries() if e.links]  # type: ignore[union-attr]
    assert pointers and all(classify(e.content).kind is EntryKind.TRIGGER for e in pointers)
    assert all(tree.resolve_link("MEMORY.md", e.links[0].file) for e in pointers)
    second = _plan(settings).plan
    assert not [p for p in second.proposals if p.reason == "over-budget"]  # within budget now


def test_a_heading_less_wall_of_text_moves_behind_one_pointer(git_repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    wall = "".join(f"Line {n} of the notes says something about part {n}.\n\n" for n in range(400))
    settings = _settings(git_repo, tmp_path, wall)
    plan = _plan(settings).plan
    assert [c.op for p in plan.proposals for c in p.changes] == ["move_section"]
    assert apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings)).ok
    assert measure_index((settings.memory_dir / "MEMORY.md").read_bytes()).lines <= 200


def test_when_nothing_can_move_the_dream_says_so_instead_of_consistent(git_repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    one_line = "# Notes\n\n- " + " ".join(f"word{n}" for n in range(6000)) + "\n"  # one entry, 40 KB
    settings = _settings(git_repo, tmp_path, one_line.replace("- word0", "- password=hunter2hunter2 word0"))
    out = io.StringIO()
    result = run_dream(settings, DreamOptions(dry_run=True), out=out, err=io.StringIO(), stdin=io.StringIO())
    notes = [n for n in result.plan.notes if n.startswith("over budget")]
    assert notes and "would still be" in notes[0]
    assert "memory is consistent" not in out.getvalue()


@pytest.mark.parametrize("edited", [True])
def test_entries_other_proposals_edit_stay_in_the_index(git_repo, tmp_path, edited) -> None:  # type: ignore[no-untyped-def]
    text = agents_md(12).replace(
        "# Reference 3: Ledger Part 3\n",
        "# Reference 3: Ledger Part 3\n- Decided yesterday to pin the sync.\n",
    )
    settings = _settings(git_repo, tmp_path, text)
    plan = _plan(settings).plan
    dates = [p for p in plan.proposals if p.category == "DATE_FIX"]
    assert dates
    report = apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings))
    assert report.ok and all(r.done for r in report.results), [r.status for r in report.results]
    assert "yesterday" not in "".join(p.read_text() for p in settings.memory_dir.rglob("*.md"))


def test_with_no_memory_at_all_the_dream_never_says_consistent(git_repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    git_repo.write("README.md", "# acme\n")
    git_repo.commit("Initial")
    settings = load_settings(git_repo.path, memory_dir=tmp_path / "memory", home=tmp_path / "cfg")
    out = io.StringIO()
    run_dream(settings, DreamOptions(dry_run=True), out=out, err=io.StringIO(), stdin=io.StringIO())
    assert "memory is consistent" not in out.getvalue()
    assert "no memory yet to audit" in out.getvalue()
