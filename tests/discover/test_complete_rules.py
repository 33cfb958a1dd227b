"""Every proposed line a complete rule: a trigger that ends before its object, a pronoun whose referent
the rule never names, a reason that only points at what the conversation shared, a sentence about
what an example does, a detail from another learning — each dropped; the complete rule beside it
is still proposed."""

from __future__ import annotations

from consolidate.discover.dedupe import merge_candidates
from consolidate.discover.discover import build_report
from consolidate.discover.errorfix import fix_detail
from consolidate.discover.report import Evidence, Learning
from consolidate.discover.signals import make_signal
from consolidate.discover.triggers import derive_trigger


def _principles(kind: str, *texts: str) -> list[str]:
    signals = [
        make_signal(
            kind,
            text,
            quote=text,
            session="s1",
            uuid=f"u{i}",
            timestamp="2026-01-01T00:00:00Z",
            file="s1.jsonl",
        )
        for i, text in enumerate(texts)
    ]
    return [c.principle for c in build_report(signals, {"CLAUDE.md": "# Notes\n\n- Use uv.\n"}).candidates]


def test_a_trigger_that_ends_before_its_object_is_dropped() -> None:
    assert _principles("rejection", "When doing a multi-step always open a pull request") == []
    assert _principles("rejection", "When doing a multi-step migration always open a pull request") == [
        "Always open a pull request"
    ]


def test_a_pronoun_without_a_referent_is_dropped() -> None:
    assert _principles("rejection", "Don't publish it until after it passes its tests") == []
    (found,) = _principles("rejection", "Don't publish the package until after it passes its tests")
    assert "the package" in found


def test_a_reason_that_points_at_the_conversation_is_dropped() -> None:
    found = _principles(
        "remember",
        "Do not rebase because of our shared history",
        "Do not rebase a pushed branch because others have pulled it",
    )
    assert found == ["Do not rebase a pushed branch because others have pulled it"]


def test_a_sentence_about_what_an_example_does_is_dropped() -> None:
    found = _principles(
        "remember",
        "`{{x}}` makes each one a separate template slot.",
        "Use `{{x}}` instead of `{x}` for template slots.",
    )
    assert found == ["Use `{{x}}` instead of `{x}` for template slots."]


def test_a_rule_that_names_its_step_in_a_plan_is_about_planning() -> None:
    said = "Always bump the version; mention that as step 0 so the user does not have to ask"
    assert derive_trigger(said) == "planning a change"
    assert derive_trigger("Always bump the version before a release") != "planning a change"


def _learning(principle: str, detail: str = "", confidence: float = 0.8) -> Learning:
    return Learning(
        kind="rejection",
        principle=principle,
        trigger="running `acme` commands",
        layer="L1",
        section="Conventions",
        detail=detail,
        confidence=confidence,
        impact=0.5,
        evidence=[Evidence(session="s1", uuid="u1", quote=principle)],
    )


def test_a_detail_from_another_learning_is_not_carried() -> None:
    other = "`acme install` without `--root .` failed: error: missing root."
    kept = _learning("After the tests pass, install the new acme build right away", confidence=0.9)
    (merged,) = merge_candidates([kept, _learning("Install the new acme build after the tests pass", other)])
    assert merged.detail == ""
    own = _learning("Always pass `--root .` to `acme install`", other)
    (merged,) = merge_candidates([_learning("Always pass `--root .` to acme install", confidence=0.9), own])
    assert merged.detail == other


def test_an_error_line_cut_before_what_it_names_is_no_detail() -> None:
    assert (
        fix_detail(
            "acme install", "acme install", "acme install --root .", "error: the following were missing:"
        )
        == ""
    )
    assert fix_detail("acme install", "acme install", "acme install --root .", "error: missing root") == (
        "`acme install` without `--root .` failed: error: missing root."
    )
