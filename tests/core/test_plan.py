from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from consolidate.plan import PlanError, WriteScope, check_scope, parse_plan
from tests.helpers.memory import plan_dict, project_settings, proposal, write_tree


@pytest.fixture
def settings(git_repo, claude_home: Path):  # type: ignore[no-untyped-def]
    s = project_settings(git_repo.path, claude_home)
    write_tree(s.memory_dir, {"MEMORY.md": "# Project Memory\n## Notes\n- a\n"})
    return s


def _scope(settings) -> WriteScope:  # type: ignore[no-untyped-def]
    return WriteScope(settings.memory_dir, settings.layout.user_claude_md, settings.layout.project_claude_md)


def _parse(settings, proposals):  # type: ignore[no-untyped-def]
    return parse_plan(json.dumps(plan_dict(settings, proposals)))


def test_valid_plan_parses_in_apply_order(settings) -> None:  # type: ignore[no-untyped-def]
    plan = _parse(
        settings,
        [
            proposal(
                "P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "section": "Notes", "text": "b"}]
            ),
            proposal("P2", "REMOVE", [{"op": "drop_entry", "file": "MEMORY.md", "text": "- a"}]),
            proposal(
                "P3",
                "CLUSTER",
                [
                    {
                        "op": "cluster_section",
                        "file": "MEMORY.md",
                        "section": "Notes",
                        "cluster_file": "clusters/notes.md",
                        "pointer": "**When x:** y. → [n](clusters/notes.md)",
                    }
                ],
            ),
        ],
    )
    assert [p.id for p in plan.select(None)] == ["P2", "P3", "P1"]
    assert [p.id for p in plan.select(["P1"])] == ["P1"]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda p: p["proposals"][0].update(action="DELETE"), "proposal P1: action: unknown action 'DELETE'"),
        (lambda p: p["proposals"][0].pop("summary"), "proposal P1: summary: missing field"),
        (lambda p: p["proposals"][0].pop("changes"), "proposal P1: changes: missing field"),
        (lambda p: p["proposals"][0]["changes"][0].update(op="rm_rf"), "proposal P1: changes.0"),
        (
            lambda p: p["proposals"][0]["changes"][0].pop("text"),
            "proposal P1: changes.0.add_entry.text: missing field",
        ),
        (lambda p: p.pop("memory_dir"), "memory_dir: missing field"),
        (lambda p: p["proposals"].append(dict(p["proposals"][0])), "duplicate proposal id P1"),
    ],
)
def test_invalid_plans_name_the_proposal(settings, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    raw = plan_dict(
        settings, [proposal("P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "text": "b"}])]
    )
    mutate(raw)
    with pytest.raises(PlanError) as caught:
        parse_plan(json.dumps(raw), "plan.json")
    assert message in str(caught.value)


def test_not_json_is_a_clear_error() -> None:
    with pytest.raises(PlanError, match="not valid JSON"):
        parse_plan("{nope", "plan.json")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("/etc/passwd", "outside the memory dir"),
        ("../../../../outside.md", "'..' is not allowed"),
        ("clusters/../../x.md", "'..' is not allowed"),
        ("notes.txt", "not a Markdown file"),
        ("escape/evil.md", "resolves outside the memory dir (symlink)"),
    ],
)
def test_targets_outside_the_scope_are_refused(settings, tmp_path: Path, name: str, message: str) -> None:  # type: ignore[no-untyped-def]
    (settings.memory_dir / "escape").symlink_to(tmp_path)
    plan = _parse(settings, [proposal("P7", "ADD", [{"op": "write_file", "file": name, "content": "x"}])])
    with pytest.raises(PlanError, match=f"proposal P7: .*{re.escape(message)}"):
        check_scope(plan, plan.proposals, _scope(settings))


def test_the_two_claude_md_files_are_in_scope(settings) -> None:  # type: ignore[no-untyped-def]
    user = str(settings.layout.user_claude_md)
    project = str(settings.layout.project_claude_md)
    plan = _parse(
        settings,
        [
            proposal("P1", "ADD", [{"op": "add_entry", "file": user, "text": "x"}], file=user, layer="L0"),
            proposal(
                "P2", "ADD", [{"op": "add_entry", "file": project, "text": "y"}], file=project, layer="L1"
            ),
        ],
    )
    paths = check_scope(plan, plan.proposals, _scope(settings))
    assert paths[user] == settings.layout.user_claude_md
    assert paths[project] == settings.layout.project_claude_md


def test_a_name_resolved_once_cannot_smuggle_a_path_out_of_the_scope(settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from consolidate.apply import apply_plan
    from consolidate.runs import journal_dir

    outside = tmp_path / "outside"
    outside.mkdir()
    notes = settings.memory_dir / "notes"
    notes.mkdir()
    scope = _scope(settings)
    assert scope.resolve("notes/a.md", "P1") == notes / "a.md"
    assert scope.resolve("notes/a.md", "P2") == notes / "a.md"  # the same answer, from memory
    for name in ("notes/a.md/../../../x.md", "notes/../../x.md", str(outside / "a.md")):  # other spellings
        with pytest.raises(PlanError, match="proposal P3"):
            scope.resolve(name, "P3")
    (settings.memory_dir / "escape").symlink_to(outside)
    for attempt in ("P4", "P5"):  # a refusal is not remembered as an answer
        with pytest.raises(PlanError, match=f"proposal {attempt}: .*resolves outside the memory dir"):
            scope.resolve("escape/a.md", attempt)
    # The directory a resolved name went through becomes a link out of the scope after planning: a
    # fresh scope, and applying with the very scope that resolved it, both refuse it.
    notes.rmdir()
    notes.symlink_to(outside)
    with pytest.raises(PlanError, match="resolves outside the memory dir"):
        scope.fresh().resolve("notes/a.md", "P6")
    plan = _parse(
        settings, [proposal("P6", "ADD", [{"op": "write_file", "file": "notes/a.md", "content": "x\n"}])]
    )
    with pytest.raises(PlanError, match="proposal P6: .*resolves outside the memory dir"):
        apply_plan(plan, scope, journal_dir=journal_dir(settings))
    assert list(outside.iterdir()) == []
