"""The content gate of synthesis: a learning that is not a complete rule is dropped with its reason."""

from __future__ import annotations

from pathlib import Path

from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.synthesize import synthesize
from consolidate.models import Candidate, DiscoveryReport, EvidenceRef
from tests.dream.fidelity_project import build_project


def _synthesize(tmp_path: Path, *principles: str):  # type: ignore[no-untyped-def]
    project = build_project(tmp_path)
    snapshot = orient(project.settings, create=False)
    found = [
        Candidate(kind="correction", principle=p, layers=["L2"], evidence=[EvidenceRef(session="s", quote=p)])
        for p in principles
    ]
    return synthesize(snapshot, GatherResult(discovery=DiscoveryReport(candidates=found)), engine="test")


def test_a_principle_cut_at_its_start_is_dropped_as_a_fragment(tmp_path: Path) -> None:
    synthesis = _synthesize(tmp_path, "… → deploy", "... and then run the migrations twice")
    assert synthesis.plan.proposals == []
    assert sum("not a complete rule: it begins mid-sentence" in note for note in synthesis.notes) == 2


def test_a_whole_rule_with_an_ellipsis_inside_passes(tmp_path: Path) -> None:
    synthesis = _synthesize(tmp_path, "Run `make migrate` … then `make seed` before the integration tests.")
    assert [p.action for p in synthesis.plan.proposals] == ["ADD"]
