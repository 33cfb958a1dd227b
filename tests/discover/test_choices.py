"""A choice between two things ("X, not Y", "X instead of Y", "never Y, always X", "prefer X over Y")
is judged by which side each text chooses: the opposite choice is a contradiction, never "already
remembered", even against a paragraph that names both sides elsewhere; the same choice reworded is
recorded. Synthetic texts, after a project whose CLAUDE.md only imports its AGENTS.md."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.discover.existing import choices, chooses_the_opposite, chooses_the_same
from consolidate.discover.matcher import Matcher
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.dream.fidelity_project import build_project, candidate

# the remembered choice, in a paragraph that also says the rejected tool positively
PARAGRAPH = (
    "**Use hg, not svn, for version-control operations** (status, log, diff, commit, push, history\n"
    "rewrite). hg coexists with the svn backend, so the repo *can* be driven with raw `svn`, but this\n"
    "project's workflow is expressed in hg terms; reaching for `svn` invites state that does not match.\n"
)
AGENTS_MD = (
    f'# AGENTS.md\n\n## hg Basics\n\n{PARAGRAPH}\n- `hg commit -m "title"` — finalize the working copy\n'
)

OPPOSITE = [  # each shape, both orders of its two sides
    "use svn, not hg, for version-control operations",
    "use svn instead of hg for version-control operations",
    "never use hg, always use raw svn for version-control operations",
    "always use svn for version-control operations, never hg",
    "prefer svn over hg for version-control operations",
    "for version-control operations, use svn rather than hg",
]
SAME = [
    "use hg, not svn, for version control",
    "use hg instead of svn for version-control operations",
    "never use svn, always use hg for version-control operations",
    "always use hg for version control, never svn",
    "prefer hg over svn for version-control operations",
]


def test_each_shape_reads_which_side_is_chosen() -> None:
    assert choices("**Use hg, not svn, for version-control operations** (status)") == {
        (frozenset({"hg"}), frozenset({"svn"}))
    }
    for rule in OPPOSITE:
        assert choices(rule) == {(frozenset({"svn"}), frozenset({"hg"}))}, rule
    for rule in SAME:
        assert choices(rule) == {(frozenset({"hg"}), frozenset({"svn"}))}, rule
    assert choices("do not use black; format with ruff") == frozenset()  # no choice of two named


@pytest.mark.parametrize("rule", OPPOSITE)
def test_the_opposite_choice_contradicts_the_paragraph(rule: str) -> None:
    assert chooses_the_opposite(rule, PARAGRAPH) and not chooses_the_same(rule, PARAGRAPH)
    for matcher in (
        Matcher.of_texts({"AGENTS.md": AGENTS_MD}),
        Matcher.of_entries([("AGENTS.md", "hg Basics", PARAGRAPH)]),
    ):
        verdict = matcher.judge(rule)
        assert verdict.category == "CONTRADICT", rule
        assert verdict.related.startswith("**Use hg, not svn, for version-control operations**")


@pytest.mark.parametrize("rule", SAME)
def test_the_same_choice_reworded_is_recorded(rule: str) -> None:
    assert chooses_the_same(rule, PARAGRAPH) and not chooses_the_opposite(rule, PARAGRAPH)
    for matcher in (
        Matcher.of_texts({"AGENTS.md": AGENTS_MD}),
        Matcher.of_entries([("AGENTS.md", "hg Basics", PARAGRAPH)]),
    ):
        verdict = matcher.judge(rule)
        assert verdict.category == "RECORDED", rule
        assert verdict.related.startswith("**Use hg, not svn, for version-control operations**")


def test_a_choice_of_other_things_is_no_contradiction() -> None:
    matcher = Matcher.of_texts({"AGENTS.md": AGENTS_MD})
    assert matcher.judge("use ruff, not black, for formatting").category == "FILL_GAP"
    assert matcher.judge("use plain pytest, not make test").category == "FILL_GAP"


def test_a_memory_entry_choice_is_judged_the_same_way() -> None:
    entry = [("MEMORY.md", "Feedback", "- Use make test, not plain pytest: it loads the DB fixture.")]
    assert Matcher.of_entries(entry).judge("use plain pytest, not make test").category == "CONTRADICT"
    assert Matcher.of_entries(entry).judge("use make test instead of plain pytest").category == "RECORDED"


def _project(tmp_path: Path):  # type: ignore[no-untyped-def]
    project = build_project(tmp_path)
    project.claude_md.write_text("<!-- the instructions live in AGENTS.md -->\n@AGENTS.md\n")
    (project.project / "AGENTS.md").write_text(AGENTS_MD)
    return project


def _remember(capsys, project, text: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(
        ["remember", text, "--yes", "--project", str(project.project), "--claude-home", str(project.home)]
    )
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("rule", OPPOSITE)
def test_remember_refuses_the_opposite_of_an_imported_rule(tmp_path, capsys, rule: str) -> None:  # type: ignore[no-untyped-def]
    project = _project(tmp_path)
    before = {
        p: p.read_bytes() for p in [*project.memory.rglob("*"), *project.project.glob("*.md")] if p.is_file()
    }
    code, out, err = _remember(capsys, project, f"from now on, {rule}")
    assert code == 1 and "already remembered" not in out + err
    assert err.startswith("consolidate: not remembered: it says the opposite of “Use hg, not svn,"), err
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize("rule", SAME)
def test_remember_finds_the_same_rule_reworded(tmp_path, capsys, rule: str) -> None:  # type: ignore[no-untyped-def]
    project = _project(tmp_path)
    index = (project.memory / "MEMORY.md").read_text()
    code, out, err = _remember(capsys, project, f"from now on, {rule}")
    assert code == 0, err
    assert (
        out.startswith("already remembered: ") and "Use hg, not svn, for version-control operations" in out
    ), out
    assert (project.memory / "MEMORY.md").read_text() == index


@pytest.mark.parametrize(("rule", "opposite"), [(OPPOSITE[0], True), (OPPOSITE[4], True), (SAME[1], False)])
def test_the_dream_sets_the_opposite_aside_and_skips_the_same(
    tmp_path, capsys, rule: str, opposite: bool
) -> None:  # type: ignore[no-untyped-def]
    project = _project(tmp_path)
    agents = (project.project / "AGENTS.md").read_text()
    found = candidate(rule[0].upper() + rule[1:], layers=["L1"])
    code, out, err = project.dream(capsys, project.report(found), "--yes")
    assert code == 0, err
    assert (project.project / "AGENTS.md").read_text() == agents and "[ADD]" not in out
    if opposite:
        assert "already recorded" not in out
        assert "— says the opposite of “Use hg, not svn, for version-control operations" in out, out
    else:
        assert re.search(r"already recorded as \W+Use hg, not svn, for version-control operations", out), out


def test_the_scan_labels_the_opposite_contradict_and_drops_the_same(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    project = tmp_path / "project"
    project.mkdir()
    (project / "CLAUDE.md").write_text("@AGENTS.md\n")
    (project / "AGENTS.md").write_text(AGENTS_MD)
    for number, said in enumerate(
        [
            "remember that we use svn, not hg, for version-control operations",
            "remember that we use hg instead of svn for version control",
        ]
    ):
        writer = SessionWriter(f"s{number}", start=datetime(2026, 11, 1, tzinfo=UTC))
        writer.tool_call("Bash", {"command": "hg status"}, "ok")
        writer.user(said)
        writer.assistant("Noted.")
        write_session(tmp_path / "sessions", writer)
    code = main(["scan", str(project), "--json", "--transcripts", str(tmp_path / "sessions")])
    out, _ = capsys.readouterr()
    assert code == 0
    found = [(c["category"], c["principle"]) for c in json.loads(out)["candidates"]]
    assert found == [("CONTRADICT", "We use svn, not hg, for version-control operations")], found
