"""The dream sets aside a learning a memory already states in other words, and adds one that only
shares a command with it."""

from __future__ import annotations

from tests.dream.fidelity_project import Project, build_project, candidate


def _acme(tmp_path) -> Project:  # type: ignore[no-untyped-def]
    return build_project(tmp_path)


def test_a_rule_said_in_other_words_is_set_aside_with_the_entry_it_restates(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    acme = _acme(tmp_path)
    restated = candidate(
        "After updating the changelog and bumping the version in `Cargo.toml`, tag the release",
        layers=["L1"],
        trigger="releasing",
    )
    plan = acme.plan(capsys, acme.report(restated))
    [proposal] = plan["proposals"]
    assert proposal["skipped"]["reason"] == "already recorded"
    assert proposal["skipped"]["matched"]["entry"].startswith("1. Update the changelog")


def test_an_update_that_only_restates_is_set_aside_not_edited(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    acme = _acme(tmp_path)
    restated = candidate(
        "Always run the tests with `acme test`",
        layers=["L1"],
        category="UPDATE",
        related="Run the tests with `acme test`.",
    )
    [proposal] = acme.plan(capsys, acme.report(restated))["proposals"]
    assert proposal["action"] == "ADD" and proposal["skipped"]["reason"] == "already recorded"
    before = acme.claude_md.read_text()
    code, _, err = acme.dream(capsys, acme.report(restated, name="again"), "--yes")
    assert code == 0, err
    assert acme.claude_md.read_text() == before  # nothing written without --keep


def test_a_new_rule_sharing_a_command_is_added(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    acme = _acme(tmp_path)
    other = candidate(
        "`acme test` skips the slow suite; pass `--slow` before a release",
        layers=["L1"],
        trigger="running `acme test`",
    )
    [proposal] = acme.plan(capsys, acme.report(other))["proposals"]
    assert "skipped" not in proposal
