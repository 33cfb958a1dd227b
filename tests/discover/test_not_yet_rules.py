"""Moments that look like rules but are not yet standing ones (SPEC §3): a remark the user doubts
at once, a slip of this time, a task for this time; and small mends of a user's wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover.discover import build_report
from consolidate.discover.grammar import essential, generalised, mended
from consolidate.discover.quality import rejection_reason
from consolidate.discover.signals import make_signal
from consolidate.discover.wording import finish
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.helpers.signals import signals_in


def _kept(tmp_path: Path, user: str, reply: str) -> list[str]:
    writer = SessionWriter("n1")
    writer.tool_call("Bash", {"command": "make test"}, "ok")
    writer.user(user)
    writer.assistant(reply)
    write_session(tmp_path, writer)
    signals = signals_in(tmp_path)
    return [c.principle for c in build_report(signals).candidates]


@pytest.mark.parametrize(
    "user",
    [
        "Saving a config file definitely needs to keep the user's comments. But maybe I misunderstand",
        "The export must always keep the original timestamps, but I'm not sure.",
        "Migrations should never rewrite old files, right?",
        "Импорт всегда должен сохранять комментарии. Но может, я ошибаюсь",
    ],
)
def test_a_remark_the_user_doubts_at_once_is_no_rule(tmp_path: Path, user: str) -> None:
    assert _kept(tmp_path, user, "You're right, that matters. Let me look at how saving works.") == []


@pytest.mark.parametrize(
    "user",
    [
        "Whoops, we need to update the changelog and amend the commit",
        "We made a boo boo, we should have run the linter before pushing as the hook changed the lock file :(",
        "Oops, we should bump the version in setup.cfg",
    ],
)
def test_a_slip_of_this_time_is_no_rule(tmp_path: Path, user: str) -> None:
    assert _kept(tmp_path, user, "You're right — sorry about that. Let me fix it now.") == []


def test_a_slip_said_to_hold_from_now_on_is_a_rule(tmp_path: Path) -> None:
    kept = _kept(
        tmp_path,
        "Whoops, from now on always run the linter before pushing",
        "You're right — I'll run the linter before every push.",
    )
    assert kept and "linter" in kept[0]


def _reason(kind: str, principle: str) -> str:
    return rejection_reason(make_signal(kind, principle, quote=principle))


@pytest.mark.parametrize(
    ("kind", "principle"),
    [
        ("preference", "The README needs to mention the new `--dry-run` flag"),
        ("correction", "The docs should explain the cache layout"),
        ("preference", "Let's do the renames first and the docs after"),
        ("preference", "CHANGELOG.md must say which release dropped Python 3.9"),
    ],
)
def test_a_task_for_this_time_is_one_off(kind: str, principle: str) -> None:
    assert _reason(kind, principle) == "one-off"


@pytest.mark.parametrize(
    ("kind", "principle"),
    [
        ("decision", "Let's use pnpm because the lock file is smaller"),
        ("preference", "The README must always list the supported Python versions"),
        ("preference", "Run `make lint` before every push"),
    ],
)
def test_a_standing_rule_or_decision_is_not(kind: str, principle: str) -> None:
    assert _reason(kind, principle) == ""


def test_what_a_document_must_be_clear_about_is_the_fact_not_the_task() -> None:
    """Making a document say something is a one-off edit, not memory (a task for this time unless the
    user asked to remember it); what the user asked to remember is the fact the document must state."""
    text = "The README's need to be clear that we configure builds per package not per crate."
    assert _reason("remember", text) == ""
    assert finish(text, "editing docs")[0] == "We configure builds per package not per crate."
    assert _reason("preference", text) == "one-off"
    assert _reason("correction", "the docs should mention that the parser streams its input") == "one-off"


@pytest.mark.parametrize(
    ("said", "mend"),
    [
        ("The README's need to be clear", "The READMEs need to be clear"),
        (
            "A `db dump` definitely need to keep the user's rows.",
            "A `db dump` definitely needs to keep the user's rows.",
        ),
        ("Each migration need to be reversible", "Each migration needs to be reversible"),
        ("this gives a obvious marker commit", "this gives an obvious marker commit"),
        ("Don't ship it until it passes it's tests", "Don't ship it until it passes its tests"),
        ("Stop after all commit so the user can review", "Stop after all commits so the user can review"),
    ],
)
def test_small_slips_are_mended(said: str, mend: str) -> None:
    assert mended(said) == mend


@pytest.mark.parametrize(
    "said",
    [
        "The tests need to pass before a merge",  # a plural subject
        "A lock and a key need to match",
        "Use a unique id, a one-off script and a URL",
        "The user's need for speed is real",  # a possessive noun, not a plural
        "It's needed because it's fast",
        "Run all code through the formatter",  # "all" before a mass noun
    ],
)
def test_what_is_not_certainly_a_slip_stays(said: str) -> None:
    assert mended(said) == said


@pytest.mark.parametrize(
    ("said", "form"),
    [
        (
            "Bump version to 0.10.0-dev and commit that first",
            "Bump version to `X.Y.Z-dev` and commit that first",
        ),
        ("Set the version to `2.1.0` on release", "Set the version to `X.Y.Z` on release"),
        (
            "Amend the session files before changing the version to -dev2.",
            "Amend the session files before changing the version to `-devN`.",
        ),
        (
            "Update todo and chore-4 when the feature is done",
            "Update todo and `chore-N` when the feature is done",
        ),
        ("Close phase-2 before tagging", "Close `phase-N` before tagging"),
    ],
)
def test_a_version_named_once_is_written_as_its_form(said: str, form: str) -> None:
    assert generalised(said) == form


@pytest.mark.parametrize(
    "said",
    [
        "Use Python 3.11 for the tooling",
        "Pin `ruff` to 0.6.9 in CI",
        "Use fixtures, e.g. tmp",
        "Write files as utf-8",
        "Keep the plan in notes/chore-3.md",  # a path is said as it is
        "Run `make chore-4`",
    ],
)
def test_a_pinned_version_or_a_short_rule_with_an_example_stays(said: str) -> None:
    assert generalised(said) == said


def test_an_example_tacked_on_at_the_end_is_cut() -> None:
    said = "Stop after every commit so the user can review the change and run tests, for instance on host-x."
    assert essential(said) == "Stop after every commit so the user can review the change and run tests."
    assert essential("Use fixtures, e.g. tmp") == "Use fixtures, e.g. tmp"  # too little rule without it
