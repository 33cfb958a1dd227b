from __future__ import annotations

from pathlib import Path

from consolidate.apply import apply_plan
from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.synthesize import synthesize
from consolidate.models import AuditReport, Candidate, DiscoveryReport, EvidenceRef, Finding, RelatedEntry
from consolidate.runs import journal_dir, write_scope
from tests.helpers.golden import assert_golden

GOLDEN = Path(__file__).parent / "golden"
MIGRATE = "- **When migrating data:** run `scripts/legacy_migrate.py` first. → [detail](project_migrate.md)"
SETTINGS_ENTRY = "- **When changing settings:** edit `src/acme/settings.py`. → [detail](project_settings.md)"
TESTS_A = "- **When running tests:** use `make test`; plain pytest misses the DB fixture. → [detail](feedback_testing.md)"
TESTS_B = (
    "- **When running the test suite:** use `make test`, since plain pytest misses the DB fixture. "
    "→ [detail](feedback_testing_suite.md)"
)
CLEAN = "- Write clean code and keep functions small."
REF_HTTP = (
    "- **When working on http client:** use `httpx` with a 10 s timeout. → [detail](reference_http_client.md)"
)


def findings() -> list[Finding]:
    return [
        Finding(
            category="STALE",
            file="MEMORY.md",
            entry=MIGRATE,
            action="REMOVE",
            confidence=0.9,
            topic_file="project_migrate.md",
            evidence="scripts/legacy_migrate.py deleted in 1a2b3c (2026-11-20)",
        ),
        Finding(
            category="STALE",
            file="MEMORY.md",
            entry=SETTINGS_ENTRY.removeprefix("- "),
            action="EDIT",
            replacement="**When changing settings:** edit `src/acme/config.py`. → [detail](project_settings.md)",
            confidence=0.9,
            evidence="renamed to src/acme/config.py",
        ),
        Finding(
            category="MERGE",
            file="MEMORY.md",
            entry=TESTS_A,
            action="MERGE",
            confidence=0.8,
            replacement="**When running tests:** `make test`; plain pytest misses the DB fixture. → [detail](feedback_testing_suite.md)",
            related=[RelatedEntry(file="MEMORY.md", entry=TESTS_B)],
            topic_file="feedback_testing_suite.md",
        ),
        Finding(category="LOW-VALUE", file="MEMORY.md", entry=CLEAN, action="REMOVE", confidence=0.8),
        Finding(
            category="DATE_FIX", file="MEMORY.md", entry=CLEAN, action="EDIT", replacement="x", confidence=0.5
        ),
        Finding(category="LOW-VALUE", file="MEMORY.md", entry=REF_HTTP, action="REMOVE", confidence=0.4),
    ]


def candidate(principle: str, trigger: str = "", **kw) -> Candidate:  # type: ignore[no-untyped-def]
    return Candidate(
        kind=kw.pop("kind", "correction"),
        principle=principle,
        trigger=trigger,
        evidence=[EvidenceRef(session="s1", quote=principle)],
        **kw,
    )


def plan_for(settings, audit=None, candidates=(), **kw):  # type: ignore[no-untyped-def]
    snapshot = orient(settings, create=False)
    gathered = GatherResult(
        audit=AuditReport(findings=audit or []), discovery=DiscoveryReport(candidates=list(candidates))
    )
    return synthesize(snapshot, gathered, engine="test", **kw)


def test_every_finding_becomes_a_concrete_retirement(settings) -> None:  # type: ignore[no-untyped-def]
    synthesis = plan_for(settings, findings())
    actions = [(p.action, p.category) for p in synthesis.plan.proposals]
    assert actions == [
        ("REMOVE", "STALE"),
        ("REMOVE", "LOW-VALUE"),
        ("MERGE", "MERGE"),
        ("CLUSTER", "CLUSTER"),
        ("EDIT", "STALE"),
    ]
    assert any("weak evidence" in note for note in synthesis.notes)  # the 0.4 REMOVE is not proposed
    remove = synthesis.plan.proposals[0]
    assert {"op": "trash_file", "file": "project_migrate.md"} in [c.model_dump() for c in remove.changes]
    merge = synthesis.plan.proposals[2]
    ops = [c.op for c in merge.changes]
    assert ops == ["drop_entry", "trash_file", "replace_entry"]
    assert "(feedback_testing.md)" in merge.changes[-1].new  # never points at the file it retires


def test_retire_first_then_cluster_what_is_still_crowded(settings) -> None:  # type: ignore[no-untyped-def]
    strong = [f.model_copy(update={"confidence": 0.9}) if f.entry == REF_HTTP else f for f in findings()]
    synthesis = plan_for(settings, strong)
    assert "CLUSTER" not in [
        p.action for p in synthesis.plan.proposals
    ]  # 25 left: no cluster to hide removals


def test_apply_of_the_whole_plan_matches_golden(settings) -> None:  # type: ignore[no-untyped-def]
    synthesis = plan_for(
        settings,
        findings(),
        [
            candidate(
                "use `uv add`, never `pip install`, so uv.lock stays in sync",
                "adding a dependency",
                impact=0.8,
            ),
            candidate(
                "the staging database is read-only on Fridays; migrations wait until Monday",
                "planning a migration",
                kind="remember",
                impact=0.6,
            ),
            candidate("new reference fact about `acme_` metric names", "naming metrics", section="Reference"),
        ],
    )
    plan = synthesis.plan
    report = apply_plan(plan, write_scope(settings), confirm_l0=True, journal_dir=journal_dir(settings))
    assert [r.status for r in report.results] == ["done"] * len(plan.proposals)
    memory = settings.memory_dir
    for name in ("MEMORY.md", "clusters/reference.md", "feedback_adding_dependency.md"):
        assert_golden(GOLDEN / name.replace("/", "__"), (memory / name).read_text())
    assert (
        not (memory / "project_migrate.md").exists() and not (memory / "feedback_testing_suite.md").exists()
    )


def test_add_cap_dedupe_and_updates(settings) -> None:  # type: ignore[no-untyped-def]
    topics = [
        "docker volumes",
        "kafka offsets",
        "redis eviction",
        "nginx buffers",
        "celery retries",
        "alembic heads",
        "terraform state",
        "grafana panels",
        "sentry sampling",
    ]
    fresh = [
        candidate(f"check the {t} settings in `{t.split()[0]}.conf` first", f"debugging {t}", impact=i / 10)
        for i, t in enumerate(topics)
    ]
    duplicate = candidate(
        "use `make test` because plain pytest misses the DB fixture", "running tests", impact=1.0
    )
    update = candidate(
        "edit `src/acme/config.py` for settings now",
        "changing settings",
        category="UPDATE",
        related=SETTINGS_ENTRY,
        impact=0.9,
    )
    synthesis = plan_for(settings, [], [*fresh, duplicate, update], max_add=3)
    adds = [p for p in synthesis.plan.proposals if p.action == "ADD" and p.skipped is None]
    assert [p.summary for p in adds] == [
        "check the sentry sampling settings in sentry.conf first",
        "check the grafana panels settings in grafana.conf first",
        "check the terraform state settings in terraform.conf first",
    ]
    [recorded] = [p for p in synthesis.plan.proposals if p.skipped is not None]
    assert recorded.summary.startswith("use make test") and recorded.skipped["matched"]["entry"] in (
        TESTS_A,
        TESTS_B,
    )
    assert sum(n.startswith("waits in the backlog (ADD cap 3)") for n in synthesis.notes) == 6
    assert len(synthesis.plan.backlog) == 6  # nothing past the cap is lost
    edit = next(p for p in synthesis.plan.proposals if p.action == "EDIT")
    pointer = next(c for c in edit.changes if c.op == "replace_entry").model_dump()
    assert pointer["old"] == SETTINGS_ENTRY and pointer["new"].endswith("→ [detail](project_settings.md)")
    topic = next(c for c in edit.changes if c.op == "write_file").model_dump()
    assert (
        topic["file"] == "project_settings.md"
        and "edit `src/acme/config.py` for settings now" in topic["content"]
    )


def test_l0_warning_and_secret_gate(settings) -> None:  # type: ignore[no-untyped-def]
    synthesis = plan_for(
        settings,
        [],
        [
            candidate("answer in English even when asked in another language", layer="L0", kind="preference"),
            candidate("deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "deploying"),
        ],
    )
    [proposal] = [p for p in synthesis.plan.proposals if p.action == "ADD"]
    assert (
        proposal.layer == "L0" and proposal.warning and "every session of every project" in proposal.warning
    )
    assert proposal.target.file == str(settings.layout.user_claude_md)
    assert "ghp_" not in synthesis.plan.to_json()
    assert any("contains a secret" in n for n in synthesis.notes)


def test_adds_to_a_clustered_section_go_to_its_cluster(settings) -> None:  # type: ignore[no-untyped-def]
    synthesis = plan_for(
        settings,
        [],
        [
            candidate(
                "rotate the signing key every 90 days", "handling webhook signatures", section="Reference"
            )
        ],
    )
    add = next(p for p in synthesis.plan.proposals if p.action == "ADD")
    assert add.target.file == "clusters/reference.md"
    entry = next(c for c in add.changes if c.op == "add_entry").model_dump()
    assert entry["file"] == "clusters/reference.md"
    assert entry["text"].endswith("](../reference_handling_webhook_signatures.md)")  # the type of its section
