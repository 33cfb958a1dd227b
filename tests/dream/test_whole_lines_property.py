"""Property: whatever text an agent reports, synthesis writes every line whole (the suite runs with
CONSOLIDATE_STRICT_LINES=1, so a broken line raises) and every word of the principle lands somewhere: written,
named in a note, or in a learning the plan leaves waiting in the backlog."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from consolidate.dream.drafts import plain
from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.synthesize import synthesize
from consolidate.models import Candidate, DiscoveryReport, EvidenceRef
from tests.dream.fidelity_project import build_project

WORDS = ["deploy", "`make smoke`", "(staging)", "[docs]", "cargo", "`tspec test -p tspec`", "never", "run",
         "because", "the", "and", "e.g.", "—", ";", ",", "tests:", "`unclosed", "works :)", "1)", "…", "→"]  # fmt: skip
text = st.lists(st.sampled_from(WORDS), min_size=3, max_size=40).map(" ".join)
layers = st.lists(st.sampled_from(["L0", "L1", "L2", "L3"]), min_size=1, max_size=2, unique=True)
candidates = st.builds(
    lambda principle, title, trigger, layer, detail, why: Candidate(
        kind="correction",
        principle=principle,
        title=title,
        trigger=trigger,
        layers=layer,
        detail=detail,
        why=why,
        evidence=[EvidenceRef(session="s", quote=principle[:80])],
    ),
    text,
    st.one_of(st.just(""), text),
    st.one_of(st.just(""), st.just("deploying"), st.just("running `acme test`")),
    layers,
    st.one_of(st.just(""), text),
    st.one_of(st.just(""), text),
)


def _learning(principle: str) -> Candidate:
    return Candidate(
        kind="correction",
        principle=principle,
        layers=["L0"],
        evidence=[EvidenceRef(session="s", quote=principle)],
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(found=st.lists(candidates, min_size=1, max_size=3))
# a learning that negates the fixture's smoke-run line is set aside: it waits in the backlog
@example(found=[_learning("deploy deploy deploy"), _learning("`make smoke` (staging) never deploy")])
@example(found=[_learning("deploy deploy `make smoke`"), _learning("deploy never `make smoke` tests:")])
# an arrow inside the rule is no pointer's "→ [detail]" tail: the topic file's name keeps what follows it
@example(found=[_learning("deploy … → deploy").model_copy(update={"layers": ["L0", "L2"]})])
@example(found=[_learning("deploy deploy never"), _learning("deploy never works :)")])
# a wording the memory states, said with another learning, is no "Also: …" of it: a note says so
@example(found=[_learning("deploy `make smoke` tests:"), _learning("deploy `make smoke` `unclosed")])
def test_every_written_line_is_whole(tmp_path_factory, found) -> None:  # type: ignore[no-untyped-def]
    project = build_project(tmp_path_factory.mktemp("p"))
    snapshot = orient(project.settings, create=False)
    synthesis = synthesize(snapshot, GatherResult(discovery=DiscoveryReport(candidates=found)), engine="test")
    written = " ".join(
        str(getattr(change, field, ""))
        for p in synthesis.plan.proposals
        for change in p.changes
        for field in ("text", "new", "content")
    ).lower()
    notes = " ".join(synthesis.notes).lower()
    waiting = {item["principle"] for item in synthesis.plan.backlog}
    # a look-alike merged into a waiting learning waits with it, as one of its evidence quotes
    waiting |= {e["quote"] for item in synthesis.plan.backlog for e in item["learning"].get("evidence", [])}
    for candidate in found:
        dropped = (
            plain(candidate.principle, 70).rstrip("…").lower() in notes
            or candidate.principle in waiting
            or candidate.principle[:80] in waiting
        )
        for word in re.findall(r"[a-z]{4,}", candidate.principle.lower()):
            assert dropped or word in written
