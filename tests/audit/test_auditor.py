from __future__ import annotations

import os
import time

from tests.audit.conftest import Project, by_entry
from tests.helpers.gitrepo import init_repo


def test_deleted_file_is_stale_and_removable_with_the_commit(project: Project) -> None:
    project.entries("`src/shop/legacy.py` computes the old tax table.")
    [finding] = project.findings("STALE")
    assert finding.action == "REMOVE" and finding.confidence >= 0.8
    assert "deleted in" in finding.evidence and "Rename handlers, drop legacy tax" in finding.evidence


def test_renamed_file_and_symbol_become_edits(project: Project) -> None:
    project.entries(
        "`src/shop/handlers.py` registers every route.", "Call `load_cart()` before `place_order()`."
    )
    stale = project.findings("STALE")
    assert [f.action for f in stale] == ["EDIT", "EDIT"]
    assert stale[0].replacement == "- `src/shop/routes.py` registers every route."
    assert stale[1].replacement == "- Call `read_cart()` before `place_order()`."


def test_a_deleted_file_beside_a_true_claim_is_not_removed(project: Project) -> None:
    project.entries("`src/shop/legacy.py` was copied into `src/shop/billing.py`, see `InvoiceService.total`.")
    assert all(f.action != "REMOVE" for f in project.findings())


def test_valid_and_historical_entries_give_no_findings(project: Project) -> None:
    project.entries(
        "`src/shop/orders.py` owns `place_order()`; `InvoiceService.total` sums invoices.",
        "`src/shop/legacy.py` was removed when billing moved to `src/shop/billing.py`.",
        "Uses pydantic 2.x; requires Node 20; run `npm run lint:web` and `npm test`.",
        "The user prefers answers with the command first.",
    )
    assert project.findings() == []


def test_version_contradicting_the_manifest_is_rewritten(project: Project) -> None:
    project.entries("Models use pydantic 1.x validators; the web build requires Node 18.")
    [finding] = project.findings("CONTRADICT")
    assert finding.action == "EDIT"
    assert finding.replacement == "- Models use pydantic 2.x validators; the web build requires Node 20."
    assert "pyproject.toml" in finding.evidence and "package.json" in finding.evidence


def test_two_entries_disagreeing_on_a_value(project: Project) -> None:
    project.entries(
        "The API dev server listens on port 8080 locally.", "The API dev server listens on port 3000 locally."
    )
    [finding] = project.findings("CONTRADICT")
    assert finding.action == "NONE" and "8080" in finding.entry and "3000" in finding.related[0].entry


def test_numbers_that_name_things_do_not_contradict(project: Project) -> None:
    project.entries(
        "When you flush the session of bucket #4: pass the tenant id explicitly.",
        "When you flush the session of bucket #7: pass the tenant id explicitly.",
        "Deploy step 2 of the release waits for the smoke tests to pass.",
        "Deploy step 5 of the release waits for the smoke tests to pass.",
    )
    assert project.findings("CONTRADICT") == []


def test_missing_npm_script_that_never_existed_is_reported_not_removed(project: Project) -> None:
    project.entries("Run `npm run e2e` for browser tests.")
    [finding] = project.findings("CONTRADICT")
    assert finding.action == "NONE" and "no npm script 'e2e'" in finding.evidence


def test_date_fix_anchors_on_the_git_date_of_the_line(project: Project) -> None:
    project.entries("Fixed the flaky checkout test yesterday.")
    memory_repo = init_repo(project.memory)
    memory_repo.commit("memory", date="2026-03-04T12:00:00+00:00")
    [finding] = project.findings("DATE_FIX")
    assert finding.replacement == "- Fixed the flaky checkout test on 2026-03-03."
    assert finding.fact == "the line was committed on 2026-03-04" and finding.confidence >= 0.8
    assert "“yesterday” means 2026-03-03" in finding.rationale


def test_date_fix_falls_back_to_the_file_mtime(project: Project) -> None:
    project.entries("Вчера подняли лимит запросов до 200.")
    stamp = time.mktime((2026, 6, 2, 12, 0, 0, 0, 0, -1))
    os.utime(project.memory / "MEMORY.md", (stamp, stamp))
    [finding] = project.findings("DATE_FIX")
    assert finding.replacement == "- 2026-06-01 подняли лимит запросов до 200."
    assert finding.fact == "the file was last modified on 2026-06-02"


def test_no_date_fix_for_absolute_dates(project: Project) -> None:
    project.entries("Since 2026-02-10 the nightly job exports invoices.")
    assert project.findings("DATE_FIX") == []


def test_merge_text_is_shorter_than_the_originals(project: Project) -> None:
    first = "Integration tests need the local Postgres container; start it with `docker compose up db`."
    second = "Start the local Postgres container with `docker compose up db` before integration tests."
    project.entries(first, second)
    [finding] = project.findings("MERGE")
    assert finding.action == "MERGE" and len(finding.related) == 1
    assert len(finding.replacement) < len(first) + len(second) + 4
    assert "docker compose up db" in finding.replacement


def test_template_siblings_are_not_merged(project: Project) -> None:
    project.entries(
        "`make test` runs the whole suite including the slow billing checks.",
        "`make test` runs the whole suite including the slow shipping checks.",
    )
    assert project.findings("MERGE") == []


def test_exact_duplicate_and_claude_md_repeat_are_redundant(project: Project) -> None:
    claude = project.repo.write(
        "CLAUDE.md", "# Guide\n\n- Money amounts are integers in minor units, never floats.\n"
    )
    project.entries(
        "Ask before changing the billing schema; finance reviews migrations.",
        "Money amounts are integers in minor units, never floats.",
        "Ask before changing the billing schema; finance reviews migrations.",
    )
    found = by_entry(project.audit(claude).findings, "")
    redundant = [f for f in found if f.category == "REDUNDANT"]
    assert [(f.line, f.action) for f in redundant] == [(5, "REMOVE"), (6, "REMOVE")]
    assert "CLAUDE.md" in redundant[0].evidence


def test_superseded_by_a_newer_entry(project: Project) -> None:
    project.entries(
        "We use Jest for the frontend unit tests.",
        "Switched from Jest to Vitest for the frontend unit tests.",
    )
    [finding] = project.findings("SUPERSEDED")
    assert finding.action == "REMOVE" and "Jest for" in finding.entry and "Vitest" in finding.related[0].entry


def test_low_value_is_conservative(project: Project) -> None:
    project.entries(
        "Write clean code.",
        "Tests are important.",
        "Write tests for the refund flow.",
        "The user wants clean code.",
    )
    assert [f.entry for f in project.findings("LOW-VALUE")] == [
        "- Write clean code.",
        "- Tests are important.",
    ]


def test_secret_is_redacted_everywhere(project: Project) -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    project.entries(f"The staging token is {token} for CI.")
    report = project.audit()
    [finding] = [f for f in report.findings if f.category == "SECRET"]
    assert (
        finding.action == "EDIT"
        and finding.replacement == "- The staging token is [REDACTED:github-token] for CI."
    )
    assert token not in report.model_dump_json()


def test_hygiene_bare_dangling_and_orphan(project: Project) -> None:
    project.write_memory(
        '---\nname: deploy runbook\ndescription: "When deploying the shop: drain the queue first"\n---\n\nDrain, then deploy.\n',
        "deploy.md",
    )
    project.write_memory("# Orphan\n\nNothing points here.\n", "orphan.md")
    project.entries(
        "[deploy.md](deploy.md)",
        "**When rotating keys:** revoke the old pair first. → [detail](keys.md)",
        "missing.md",
    )
    hygiene = {f.line: f for f in project.findings("HYGIENE")}
    assert (
        hygiene[4].action == "EDIT"
        and hygiene[4].replacement
        == "- **When deploying the shop:** drain the queue first. → [detail](deploy.md)"
    )
    assert (
        hygiene[5].action == "EDIT"
        and hygiene[5].replacement == "- **When rotating keys:** revoke the old pair first."
    )
    assert hygiene[6].action == "REMOVE"
    orphan = [f for f in project.findings("HYGIENE") if f.file == "orphan.md"]
    assert orphan[0].action == "NONE" and "synthesiser" in orphan[0].evidence


def test_topic_files_with_a_shared_prefix_merge(project: Project) -> None:
    body = "The exporter writes one CSV per tenant.\n\nLarge exports are split into chunks of ten thousand rows.\n"
    project.write_memory(
        f"# Export\n\n{body}\nRetry failed uploads with the same chunk.\n", "feedback_export.md"
    )
    project.write_memory(f"# Export notes\n\n{body}\nSkip soft-deleted rows.\n", "feedback_export_notes.md")
    project.entries(
        "**When changing the export:** chunk per tenant. → [detail](feedback_export.md)",
        "**When changing the export notes:** chunk per tenant. → [detail](feedback_export_notes.md)",
    )
    [finding] = project.findings("MERGE")
    assert finding.topic_file in ("feedback_export.md", "feedback_export_notes.md")
    assert (
        "Skip soft-deleted rows." in finding.topic_content and "Retry failed uploads" in finding.topic_content
    )
    assert finding.related and finding.related[0].entry.endswith(f"({finding.topic_file})")


def test_no_memory_index_gives_an_empty_report(project: Project) -> None:
    from consolidate.audit import audit
    from consolidate.settings import load_settings

    report = audit(load_settings(project.repo.path, memory_dir=project.memory))
    assert report.findings == [] and report.entries_audited == 0 and "no MEMORY.md" in report.notes[0]


def test_broken_frontmatter_binary_files_and_no_git(project: Project, tmp_path: os.PathLike[str]) -> None:
    project.write_memory(
        "---\nname: [broken\n---\n\n- `src/shop/legacy.py` was the old tax module.\n", "topic.md"
    )
    (project.memory / "blob.md").write_bytes(b"\x00\x01\x02binary")
    project.entries("**When taxes:** see notes. → [detail](topic.md)", "Write clean code.")
    report = project.audit()
    assert any("blob.md" in note for note in report.notes)
    assert any(f.category == "HYGIENE" and "broken-frontmatter" in f.evidence for f in report.findings)
    from consolidate.audit import audit_tree
    from memory_layout import load_memory_tree

    plain = audit_tree(load_memory_tree(project.memory), project_root=None, repo=None)
    assert [f.category for f in plain.findings if f.category != "HYGIENE"] == ["LOW-VALUE"]


def test_a_clause_merged_into_an_entry_starts_its_own_sentence(project: Project) -> None:
    """The merged entry reads as sentences: an absorbed clause that began lowercase after its trigger
    is capitalised when it follows a full stop."""
    project.write_memory(
        "---\nname: tag the commit as vX.Y.Z\ndescription: When releasing\n---\ntag the commit as vX.Y.Z\n\n"
        "**How to apply:** when releasing.\n",
        "feedback_releasing.md",
    )
    project.write_memory(
        "---\nname: push the tag after the release commit\ndescription: When releasing\n---\n"
        "push the tag after the release commit\n\n**How to apply:** when releasing.\n",
        "feedback_releasing_push.md",
    )
    project.entries(
        "**When releasing:** tag the commit as vX.Y.Z. → [detail](feedback_releasing.md)",
        "**When releasing:** push the tag after the release commit. → [detail](feedback_releasing_push.md)",
    )
    [finding] = project.findings("MERGE")
    assert ". Tag the commit as vX.Y.Z." in finding.replacement or ". Push the tag" in finding.replacement
    assert ". tag " not in finding.replacement and ". push " not in finding.replacement
