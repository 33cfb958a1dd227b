"""The line that says a proposal was set aside quotes the entry it matched whole or cut at a word."""

from __future__ import annotations

import io

from consolidate.plan import Plan, Proposal
from consolidate.review import show_set_aside


def _plan_with_skip(entry: str) -> Plan:
    proposal = Proposal.model_construct(
        id="P1",
        summary="Install the new build as soon as its tests pass",
        skipped={"matched": {"entry": entry, "file": "CLAUDE.md"}},
    )
    return Plan.model_construct(proposals=[proposal])


def test_a_long_matched_entry_is_cut_at_a_word_with_an_ellipsis() -> None:
    entry = "**After code changes pass tests, immediately install the new version** " + "so the sooner " * 30
    out = io.StringIO()
    show_set_aside(_plan_with_skip(entry), out)
    quoted = out.getvalue().split("“", 1)[1].split("”", 1)[0]
    assert quoted.endswith("…") and len(quoted) <= 200
    assert entry.startswith(quoted[:-1].rstrip())
    assert quoted[:-1].rstrip().endswith("sooner")


def test_a_short_matched_entry_is_quoted_whole() -> None:
    out = io.StringIO()
    show_set_aside(_plan_with_skip("- Never force-push to main."), out)
    assert (
        "already recorded as “- Never force-push to main.” (CLAUDE.md) — Install the new build"
        in out.getvalue()
    )
