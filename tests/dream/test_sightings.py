"""A sighting is one record of one session: counted once however often its sessions are read again.

The backlog keeps a learning with its count and evidence; an undo puts the consolidation marker back,
so the next dream reads the same sessions and finds the same learning again. The count and the
evidence the approver is shown must stay those of a fresh home.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from consolidate.cli import main
from consolidate.dream.additions import merge_alike
from consolidate.engines import AUDITOR, DISCOVERER
from consolidate.models import Candidate
from tests.dream.fidelity_project import build_project, candidate
from tests.dream.scripted import AUDIT
from tests.helpers.example import build_example


def _evidence(session: str, count: int, start: int = 0) -> list[dict[str, str]]:
    return [
        {"session": session, "uuid": f"{session}-r{n}", "quote": f"quote {n} of {session}"}
        for n in range(start, start + count)
    ]


DISCOVERY = {
    "candidates": [
        {
            "kind": "correction",
            "principle": "Use `tspec` instead of `cargo` when possible",
            "confidence": 0.9,
            "impact": 0.9,
            "frequency": 6,
            "evidence": _evidence("s1", 5),
        },
        {  # a special case of the one above: merged into it, its sightings its own
            "kind": "correction",
            "principle": "Use `tspec clippy` instead of `cargo clippy`",
            "confidence": 0.8,
            "impact": 0.7,
            "frequency": 5,
            "evidence": _evidence("s2", 5),
        },
        {
            "kind": "preference",
            "principle": "answer in English even when asked in Russian",
            "layer": "L0",  # --yes skips it: it waits in the backlog
            "confidence": 0.9,
            "impact": 0.9,
            "frequency": 3,
            "evidence": _evidence("s3", 3),
        },
        {
            "kind": "correction",
            "principle": "run `make lint` before every push to the shared remote",
            "confidence": 0.7,
            "impact": 0.5,
            "frequency": 2,
            "evidence": _evidence("s4", 2),
        },
        {
            "kind": "correction",
            "principle": "keep the changelog entries in the imperative mood",
            "confidence": 0.6,
            "impact": 0.4,
            "frequency": 4,
            "evidence": _evidence("s5", 4),
        },
    ],
    "sessions_scanned": 5,
}


def _engine(tmp_path: Path) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps({AUDITOR: [AUDIT], DISCOVERER: [DISCOVERY]}))
    return f"scripted:{path}"


def _run(example: Any, *args: str) -> int:
    return main([*args[:1], str(example.project), "--claude-home", str(example.claude_home), *args[1:]])


def _seen(example: Any, engine: str, capsys: Any) -> dict[str, tuple[int, list[tuple[str, str]], str]]:
    """Each learning the approver is shown: its count, its evidence and its rationale."""
    capsys.readouterr()
    assert _run(example, "dream", "--engine", engine, "--dry-run", "--json", "--max-add", "30") == 0
    plan = json.loads(capsys.readouterr().out)
    found = {}
    for proposal in plan["proposals"]:
        learning = proposal.get("learning")
        if learning is None:  # the auditor's
            continue
        evidence = sorted((e["session"], e["uuid"]) for e in proposal["evidence"])
        found[learning["principle"]] = (learning.get("frequency", 1), evidence, proposal["rationale"])
    return found


def test_undo_and_reading_the_sessions_again_leave_the_counts_of_a_fresh_home(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    engine = _engine(tmp_path)
    fresh = _seen(build_example(tmp_path / "fresh"), engine, capsys)
    example = build_example(tmp_path / "cycled")
    plan = tmp_path / "plan.json"
    assert _run(example, "dream", "--engine", engine, "--plan-out", str(plan), "--max-add", "2") == 0
    main(
        [
            "apply",
            str(plan),
            "--yes",
            "--project",
            str(example.project),
            "--claude-home",
            str(example.claude_home),
        ]
    )
    _run(example, "undo")
    _run(example, "undo")
    assert _run(example, "dream", "--engine", engine, "--yes", "--max-add", "2") == 0
    _run(example, "undo")
    cycled = _seen(example, engine, capsys)
    assert fresh["Use `tspec` instead of `cargo` when possible"][0] == 11  # 6 + its special case's 5
    assert "seen 11×" in fresh["Use `tspec` instead of `cargo` when possible"][2]
    assert cycled == fresh


def _candidate(principle: str, frequency: int, evidence: list[dict[str, str]]) -> Candidate:
    return Candidate.model_validate(
        {"kind": "correction", "principle": principle, "frequency": frequency, "evidence": evidence}
    )


def test_a_learning_read_again_counts_its_sightings_once_and_new_ones_add() -> None:
    waiting = _candidate("always run the linter before pushing a branch", 3, _evidence("s1", 3))
    ((merged, _),) = merge_alike([waiting], [_candidate(waiting.principle, 3, _evidence("s1", 3))])
    assert merged.frequency == 3 and len(merged.evidence) == 3  # the same three records, read twice
    ((merged, _),) = merge_alike([merged], [_candidate(waiting.principle, 2, _evidence("s9", 2))])
    assert merged.frequency == 5 and len(merged.evidence) == 5  # two new sightings add
    ((again, _),) = merge_alike([merged], [_candidate(waiting.principle, 2, _evidence("s9", 2))])
    assert again.frequency == 5 and again.evidence == merged.evidence


def test_two_wordings_of_one_rule_in_one_run_are_one_proposal() -> None:
    stating = _candidate(
        "After making code changes and all tests pass, deploy the new build to staging", 2, _evidence("s1", 2)
    )
    stated = _candidate("Don't deploy it until after it passes its tests", 1, _evidence("s2", 1))
    ((merged, _),) = merge_alike([stated, stating])
    assert merged.principle == stating.principle  # the wording that says the whole rule speaks
    assert "Also:" not in merged.detail  # the wording kept says it: one rule, both evidences
    assert merged.frequency == 3 and {e.session for e in merged.evidence} == {"s1", "s2"}
    # the reviewer still sees the wording folded in (its evidence is shown with this one)
    assert merged.note == "Also said as “Don't deploy it until after it passes its tests” (the same rule)."


def test_an_act_held_until_something_and_the_act_done_after_it_are_one_rule() -> None:
    after = _candidate(
        "After the schema checks pass, migrate the staging database right away", 1, _evidence("s1", 1)
    )
    held = _candidate("Don't run `alembic migrate` until after the schema checks pass", 1, _evidence("s2", 1))
    ((merged, _),) = merge_alike([after, held])
    assert merged.principle == after.principle and merged.frequency == 2
    assert "Also: Don't run `alembic migrate` until after the schema checks pass" in merged.detail
    # another act after the same checks, or the same act after something else: two rules
    other = _candidate("Don't tag the release until after the schema checks pass", 1, _evidence("s3", 1))
    later = _candidate("Don't run `alembic migrate` until after the backup finished", 1, _evidence("s4", 1))
    assert len(merge_alike([after, other])) == 2 and len(merge_alike([after, later])) == 2


def test_rules_about_the_same_thing_that_say_different_things_stay_apart() -> None:
    pairs = [
        ("Always create a branch for the change", "Always delete the branch after it is merged"),
        ("Run the linter before committing", "Install the new build after the tests pass"),
        ("Use `uv` instead of `pip` when possible", "Always pass `--frozen` to `uv sync`"),
        # a prohibition and another act on what it names: two rules, never one with an "Also: …"
        (
            "Do not rebase because of the circular links with the `.logs/` session files",
            "Do not commit `.logs/` session files",
        ),
    ]
    for one, other in pairs:
        merged = merge_alike(
            [_candidate(one, 1, _evidence("s1", 1)), _candidate(other, 1, _evidence("s2", 1))]
        )
        assert len(merged) == 2, (one, other)


def test_a_contradiction_or_a_rule_of_every_project_is_never_merged_into_a_rule() -> None:
    rule = _candidate(
        "After making code changes and all tests pass, deploy the new build to staging", 2, _evidence("s1", 2)
    )
    other_layer = _candidate("Don't deploy it until after it passes its tests", 1, _evidence("s2", 1))
    every_project = other_layer.model_copy(update={"layers": ["L0"], "layer": "L0"})
    assert len(merge_alike([rule, every_project])) == 2
    # the project's CLAUDE.md and its memory dir hold one rule once
    in_claude_md = other_layer.model_copy(update={"layers": ["L1"], "layer": "L1"})
    assert len(merge_alike([rule, in_claude_md])) == 1
    contradiction = _candidate("Don't deploy it until after it passes its tests", 1, _evidence("s3", 1))
    contradiction = contradiction.model_copy(update={"category": "CONTRADICT", "related": "- deploy first"})
    assert len(merge_alike([rule, contradiction])) == 2


def test_one_practice_told_once_with_a_step_more_is_one_proposal() -> None:
    # in one run: the plan saved in a dated log section, and the same with a version bump after it
    saved = _candidate("Save the plan in a new dated section of docs/log-N", 2, _evidence("s1", 2))
    fuller = _candidate(
        "Add a dated log entry with the plan, link it from the index, bump the version and commit that "
        "before starting",
        1,
        _evidence("s2", 1),
    )
    fuller = fuller.model_copy(update={"layers": ["L1"], "layer": "L1"})
    merged = merge_alike([saved, fuller])
    assert len(merged) == 1
    said = merged[0][0].principle + "\n" + merged[0][0].detail
    assert "Save the plan in a new dated section" in said and "Add a dated log entry with the plan" in said
    # two rules sharing a word or two of their reasons stay two
    stop = _candidate(
        "Stop after every deploy so the user can check the build and update the changelog",
        1,
        _evidence("s3", 1),
    )
    deploy = _candidate("After the tests pass, deploy the build to staging right away", 1, _evidence("s4", 1))
    assert len(merge_alike([stop, deploy])) == 2


def test_of_several_rules_a_wording_states_the_one_sharing_most_of_it_takes_it() -> None:
    bump = _candidate("Always bump the version; say so as the first step", 2, _evidence("s1", 2))
    saved = _candidate("Save the plan in a new dated section of docs/log-N", 2, _evidence("s2", 2))
    fuller = _candidate(
        "Add a dated log entry with the plan, bump the version and commit that before starting",
        1,
        _evidence("s3", 1),
    )
    merged = merge_alike([bump, saved, fuller])
    assert len(merged) == 2
    said = [c.principle + "\n" + c.detail for c, _ in merged]
    assert any("Save the plan" in text and "Add a dated log entry" in text for text in said)
    assert any(text.startswith("Always bump the version") and "Save the plan" not in text for text in said)


def test_each_wording_gets_one_matcher_of_its_own_however_many_it_is_compared_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The learnings of a run are compared pair by pair: the matcher of a wording alone is built once
    for the run, not once per comparison (that was quadratic in the learnings)."""
    from consolidate.discover.matcher import Matcher

    built: list[str] = []
    real = Matcher.of_entries.__func__  # type: ignore[attr-defined]

    def of_entries(cls: type[Matcher], entries: list[tuple[str, str, str]]) -> Matcher:
        built.append(entries[0][2] if len(entries) == 1 else "")
        return real(cls, entries)

    monkeypatch.setattr(Matcher, "of_entries", classmethod(of_entries))
    rules = [
        "Run the ledger migration only from the worker",
        "Wrap every invoice export in a transaction",
        "Pass the tenant id explicitly to the webhook sender",
        "Keep the cache warmup batch under 500 rows",
        "Retry the queue consumer at most twice",
        "Log the correlation id before calling the scheduler",
        "Take the advisory lock before the exporter runs",
        "Check the feature flag before the importer starts",
    ]
    merged = merge_alike([_candidate(rule, 1, _evidence(f"s{n}", 1)) for n, rule in enumerate(rules)])
    assert len(merged) == len(rules)  # none alike: every pair was compared
    assert sorted(built) == sorted(set(built)) and set(built) <= set(rules)


def test_a_wording_the_memory_already_states_is_never_an_also() -> None:
    after = _candidate(
        "After the schema checks pass, migrate the staging database right away", 1, _evidence("s1", 1)
    )
    held = _candidate("Don't run `alembic migrate` until after the schema checks pass", 1, _evidence("s2", 1))
    stated = {held.principle}  # the memory's own line says it: an "Also:" would repeat it beside it
    ((merged, _),) = merge_alike([after, held], recorded=stated.__contains__)
    assert merged.principle == after.principle and merged.frequency == 2  # both evidences still count
    assert "Also:" not in merged.detail


def test_the_dream_writes_no_also_the_memory_states(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    acme = build_project(tmp_path)
    acme.claude_md.write_text(
        acme.claude_md.read_text()
        + "\n## Database\n\n- Don't run `alembic migrate` until after the schema checks pass.\n"
    )
    after = candidate("After the schema checks pass, migrate the staging database right away", layers=["L2"])
    held = candidate("Don't run `alembic migrate` until after the schema checks pass", layers=["L2"])
    written = json.dumps(acme.plan(capsys, acme.report(after, held))["proposals"])
    assert "migrate the staging database right away" in written
    assert "Also:" not in written  # the CLAUDE.md line says the other wording already
