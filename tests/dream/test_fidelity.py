"""What the discoverer finds reaches memory whole: the shapes real agent reports have (long principles,
several layers, L1 rules, UPDATEs of pointer-only entries, CONTRADICTs of a command in a code block),
written without a cut or a broken line, edited in place without orphaning a topic file."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from consolidate.cli import main
from consolidate.dream.additions import normalize, session_story
from consolidate.dream.titles import mend, title_of, write_title
from consolidate.models import Candidate
from memory_layout.wellformed import line_problems, text_problems
from tests.dream.fidelity_project import Project, build_project, candidate

LONG = (
    "Install the local build with `acme install --path .` (the --path argument is required, like cargo), "
    "not `cargo install`, and only after `acme test` and `acme lint` pass; then re-run both with the "
    "newly installed binary so the checks use the code that was just built"
)


@pytest.fixture
def acme(tmp_path) -> Project:  # type: ignore[no-untyped-def]
    return build_project(tmp_path)


def _written(plan: dict, pid: str) -> str:  # type: ignore[type-arg]
    proposal = next(p for p in plan["proposals"] if p["id"] == pid)
    parts = []
    for change in proposal["changes"]:
        parts += [str(change.get(k, "")) for k in ("text", "new", "content", "pointer")]
    return "\n".join(parts)


def _index_line(plan: dict) -> str:  # type: ignore[type-arg]
    adds = [
        c
        for p in plan["proposals"]
        for c in p["changes"]
        if c["op"] == "add_entry" and c["file"] == "MEMORY.md"
    ]
    assert len(adds) == 1
    return str(adds[0]["text"])


def test_a_long_principle_gets_a_whole_title_and_is_written_whole(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = acme.plan(
        capsys,
        acme.report(
            candidate(
                LONG,
                trigger="installing the local build",
                layer="L2",
                detail="Step 1.\n\n```bash\nacme install --path .\n```",
                why="installing is a permanent change",
            )
        ),
    )
    line = _index_line(plan)
    assert line.startswith(
        "**When installing the local build:** Install the local build with `acme install --path .`"
    )
    assert len(line) <= 150 and not line_problems(line, entry=True)
    assert "…" not in line  # a clause that fits the room the trigger and link leave, never cut mid-clause
    topic = next(c["content"] for c in plan["proposals"][0]["changes"] if c["op"] == "write_file")
    assert LONG in topic and "acme install --path .\n```" in topic
    assert "**Why:** installing is a permanent change" in topic
    assert not text_problems(topic)


def test_the_agents_title_is_the_index_line(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    title = "`acme install --path .` installs the build, never `cargo install`"
    plan = acme.plan(capsys, acme.report(candidate(LONG, title=title, trigger="installing", layers=["L2"])))
    assert _index_line(plan) == f"**When installing:** {title}. → [detail](feedback_installing.md)"


def test_an_l1_rule_is_written_whole_under_the_heading_it_names(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    rule = candidate(
        LONG,
        layers=["L1"],
        trigger="installing the local build",
        section="Build Commands",
        why="installing is permanent",
        detail="See `acme help install`.",
    )
    code, out, err = acme.dream(capsys, acme.report(rule), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    section = text.split("## Build Commands — Use the wrapper", 1)[1].split("## Release Steps")[0]
    assert (
        f"- **When installing the local build:** {LONG}. Installing is permanent.\n  See `acme help install`."
        in section
    )
    assert "cargo install --path .   # Install from local source" in text  # nothing else touched


def test_two_layers_are_two_proposals_and_the_l0_one_waits(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    both = candidate(
        "answer in English even when the question is in Russian", layers=["L0", "L1"], kind="preference"
    )
    code, out, _ = acme.dream(capsys, acme.report(both), "--yes")
    assert code == 0
    assert "skipped: changes ~/.claude/CLAUDE.md" in out and "1 learning(s) wait in the backlog" in out
    assert "- answer in English even when the question is in Russian." in acme.claude_md.read_text()
    assert not (acme.home / "CLAUDE.md").exists()
    code, out, _ = acme.dream(capsys, acme.report(name="again"), "--dry-run")
    assert "[ADD] Learning: answer in English even when the question is in Russian" in out
    assert (
        str(acme.home / "CLAUDE.md") in out and "1 learning(s) of the backlog come first in this plan" in out
    )


def test_update_of_a_pointer_with_no_topic_file_gives_it_one_holding_both(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    update = candidate(
        "Keep each migration reversible and test the down step in CI with `make migrate-roundtrip`",
        category="UPDATE",
        related="**When writing migrations:** keep each migration reversible.",
        title="keep migrations reversible; CI runs `make migrate-roundtrip`",
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    index = (acme.memory / "MEMORY.md").read_text()
    line = next(x for x in index.splitlines() if "writing migrations" in x)
    assert line.startswith(
        "- **When writing migrations:** keep migrations reversible; CI runs `make migrate-roundtrip`"
    )
    topic_name = re.search(r"\]\(([^)]+)\)", line)[1]  # type: ignore[index]
    topic = (acme.memory / topic_name).read_text()
    assert "keep each migration reversible." in topic  # the old entry, kept
    assert "## Update 2026-11-20" in topic and "`make migrate-roundtrip`" in topic


def test_update_of_a_pointer_keeps_its_link_and_topic_text(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    before = (acme.memory / "feedback_deploying.md").read_text()
    update = candidate(
        "Also run `make smoke` against staging after the deploy finishes",
        category="UPDATE",
        related="- **When deploying:** run the smoke tests first. → [detail](feedback_deploying.md)",
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    topic = (acme.memory / "feedback_deploying.md").read_text()
    assert (
        topic.startswith(before.rstrip()) and "## Update 2026-11-20" in topic and "against staging" in topic
    )
    index = (acme.memory / "MEMORY.md").read_text()
    assert index.count("(feedback_deploying.md)") == 1
    assert "- **When deploying:** run the smoke tests first; also run `make smoke` against staging" in index


def _smoke_lite() -> dict[str, Any]:
    """A learning that says the deploy entry of the fixture is wrong."""
    return candidate(
        "Run `make smoke-lite` before deploys; the full `make smoke` was retired in November",
        category="CONTRADICT",
        trigger="deploying",
        related="**When deploying:** run the smoke tests first. → [detail](feedback_deploying.md)",
    )


def test_contradict_replaces_the_statement_and_records_the_change(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    contradict = _smoke_lite()
    code, _, err = acme.dream(capsys, acme.report(contradict), "--only", "P1")  # named: confirmed
    assert code == 0, err
    topic = (acme.memory / "feedback_deploying.md").read_text()
    assert topic.startswith("---\nname: smoke tests before deploys\n")  # frontmatter kept
    assert "Run `make smoke-lite` before deploys" in topic
    history = topic.split("## History", 1)[1]
    assert "### Until 2026-11-20, contradicted by the sessions" in history
    assert "Run `make smoke` before `make deploy`; a failed smoke run blocks the deploy." in history
    index = (acme.memory / "MEMORY.md").read_text()
    assert (
        "- **When deploying:** Run `make smoke-lite` before deploys" in index
        and "(feedback_deploying.md)" in index
    )
    assert "run the smoke tests first" not in index


def test_contradict_of_a_command_in_a_code_block_takes_it_out_and_adds_the_rule(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    contradict = candidate(
        "Install with `acme install --path .`, never `cargo install`",
        category="CONTRADICT",
        layers=["L1"],
        trigger="installing the local build",
        related="cargo install --path .   # Install from local source",
    )
    code, _, err = acme.dream(capsys, acme.report(contradict), "--only", "P1")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert "cargo install --path ." not in text and "```bash\n```" not in text
    assert (
        "Ensure a recent build is installed:\n\n- **When installing the local build:** Install with `acme install --path .`"
        in text
    )


def test_update_of_a_numbered_step_nests_under_it(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    update = candidate(
        "Bump to `X.Y.Z-dev0` for the plan commit; code steps are -dev1, -dev2, …",
        category="UPDATE",
        layers=["L1"],
        related="2. Bump the version in `Cargo.toml`",
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert (
        "2. Bump the version in `Cargo.toml`\n   - Bump to `X.Y.Z-dev0` for the plan commit; code steps are -dev1, -dev2, and so on.\n3. Tag"
        in text
    )


def test_a_short_title_inside_a_long_candidate_is_no_duplicate(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    longer = candidate(
        "Deploys run from the `release` branch only, and the deploy details — approvals, the freeze window, the rollback command — live in `docs/deploy.md`"
    )
    plan = acme.plan(capsys, acme.report(longer))
    [proposal] = plan["proposals"]
    assert "skipped" not in proposal  # "Deploys — details" says far less than the candidate


def test_a_true_duplicate_is_set_aside_shown_and_kept_on_request(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    same = candidate(
        "run `make smoke` before `make deploy`; a failed smoke run blocks the deploy", trigger="deploying"
    )
    engine = acme.report(same)
    code, out, _ = acme.dream(capsys, engine, "--yes")
    assert code == 0
    assert (
        "skipped P1: already recorded as “- **When deploying:** run the smoke tests first. → [detail](feedback_deploying.md)” (MEMORY.md)"
        in out
    )
    assert "keep it anyway with --keep P1" in out
    assert len(list(acme.memory.glob("*.md"))) == 3  # nothing written
    code, out, _ = acme.dream(capsys, acme.report(same, name="keep"), "--yes", "--keep", "P1")
    assert code == 0 and "| done |" in out.replace("|  done", "| done").replace("done |", "done |")
    assert len(list(acme.memory.glob("*.md"))) == 4


def test_past_the_cap_learnings_wait_and_come_first_next_time(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    found = [
        candidate(
            f"check the {t} settings in `{t}.toml` before changing {t} code",
            trigger=f"working on {t}",
            impact=0.9 - i / 10,
        )
        for i, t in enumerate(["cache", "queue", "mailer"])
    ]
    code, out, _ = acme.dream(capsys, acme.report(*found), "--yes", "--max-add", "1")
    assert code == 0 and "2 learning(s) wait in the backlog" in out
    assert "check the cache settings" in (acme.memory / "MEMORY.md").read_text()
    code, out, _ = acme.dream(capsys, acme.report(name="later"), "--yes", "--max-add", "1")
    assert code == 0 and "1 learning(s) wait in the backlog" in out
    assert "check the queue settings" in (acme.memory / "MEMORY.md").read_text()
    code, out, _ = acme.dream(capsys, acme.report(name="last"), "--yes")
    assert "check the mailer settings" in (acme.memory / "MEMORY.md").read_text()
    assert "wait in the backlog" not in out


def test_unselected_learnings_wait_and_a_rejected_one_never_returns(acme, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    from consolidate.dream.run import DreamOptions, run_dream

    found = [
        candidate(f"check the {t} settings in `{t}.toml` before changing {t} code", trigger=f"working on {t}")
        for t in ("cache", "queue")
    ]
    answers = iter(["s", "P1"])
    out = io.StringIO()
    run_dream(
        acme.settings,
        DreamOptions(engine=acme.report(*found)),
        out=out,
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=lambda _: next(answers),
    )
    assert "1 learning(s) wait in the backlog" in out.getvalue()
    reworded = candidate(
        "before changing queue code, check the queue settings in `queue.toml`", trigger="working on the queue"
    )
    answers = iter(["r"])
    out = io.StringIO()
    run_dream(
        acme.settings,
        DreamOptions(engine=acme.report(reworded, name="r")),
        out=out,
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=lambda _: next(answers),
    )
    said = out.getvalue()
    assert "rejected 1 proposal(s): nothing changed" in said and "journaled" not in said
    assert "wait in the backlog" not in said
    code, out2, _ = acme.dream(capsys, acme.report(reworded, name="r2"), "--dry-run")
    assert "queue settings" not in out2.split("note:")[0] and "no proposals" in out2


def test_old_reports_load_and_new_ones_name_the_failing_field(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    old = {
        "kind": "decision",
        "principle": "keep the public API synchronous",
        "trigger": "adding an endpoint",
        "layer": "L1",
    }
    plan = acme.plan(capsys, acme.report(old))
    assert plan["proposals"][0]["target"]["file"] == str(acme.claude_md)
    bad = candidate("keep the public API synchronous", layers=["L7"])
    code, _, err = acme.dream(capsys, acme.report(bad, name="bad"), "--json")
    assert "candidates.0.layers.0" in err


@pytest.mark.parametrize(
    ("principle", "title"),
    [
        (
            "Always run build, test, lint, format and install through acme subcommands; never use raw cargo",
            "Always run build, test, lint, format and install through acme subcommands",
        ),
        (
            "Every feature, including a small one, must update the README and the changelog in the same commit, and a plan that lists only code changes is incomplete because reviewers check both",
            "Every feature, including a small one, must update the README and the changelog in the same commit",
        ),
        (
            "Before the commit, bump the patch version in Cargo.toml, reinstall with `acme install --path .`, then rerun `acme test` and `acme lint`",
            "Before the commit, bump the patch version in Cargo.toml",
        ),
        (
            "Execute is now `fn execute(&self, root: &Path, flags: &Flags)` and takes the flags struct everywhere; add new passthrough flags as fields",
            "Execute is now `fn execute(&self, root: &Path, flags: &Flags)` and takes the flags struct everywhere",
        ),
    ],
)
def test_offline_titles_end_at_a_clause(principle: str, title: str) -> None:
    assert write_title(principle) == title


@pytest.mark.parametrize(
    ("text", "mended"),
    [
        ("deploy … …", "deploy."),
        ("check the logs, ... …", "check the logs, and so on."),
        ("run `make test` first…", "run `make test` first."),
    ],
)
def test_trailing_ellipses_end_the_sentence(text: str, mended: str) -> None:
    assert mend(text) == mended and not line_problems(mended)


def test_a_rule_that_opens_with_its_condition_gets_no_second_one(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    rule = candidate(
        "When `acme lint` reports diffs, apply them with `acme fmt`, never `cargo fmt`",
        layers=["L1"],
        trigger="fixing formatting",
        section="Build Commands",
    )
    code, _, err = acme.dream(capsys, acme.report(rule), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert "- When `acme lint` reports diffs, apply them with `acme fmt`, never `cargo fmt`.\n" in text
    assert "**When fixing formatting:**" not in text


def test_what_the_agent_says_to_the_reviewer_is_shown_and_never_written(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    aside = "The CLAUDE.md shown to this run lacks it; check the live file before applying."
    found = candidate(
        "tag releases from the `release` branch only",
        trigger="tagging a release",
        detail=f"The tag is `vX.Y.Z`. {aside}\n\nPush the tag after the branch.",
    )
    code, out, err = acme.dream(capsys, acme.report(found), "--dry-run")
    assert code == 0, err
    assert f"**Note (not written):** {aside}" in out
    plan = acme.plan(capsys, acme.report(found, name="again"))
    written = _written(plan, "P1")
    assert "The tag is `vX.Y.Z`." in written and "Push the tag after the branch." in written
    assert "this run" not in written and "before applying" not in written


def test_what_happened_in_the_sessions_is_shown_to_the_reviewer_and_never_written(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    story = "The user rejected a subject-only commit and asked for a body."
    found = candidate(
        f"Every commit message has a body of a sentence or two on what changed and why. {story}",
        trigger="writing a commit message",
        why="Reviewers read the body, not the diff; the user rejected two commits for this reason.",
    )
    code, out, err = acme.dream(capsys, acme.report(found), "--dry-run")
    assert code == 0, err
    assert story in out and "the user rejected two commits for this reason." in out  # in the note
    plan = acme.plan(capsys, acme.report(found, name="again"))
    written = _written(plan, "P1")
    assert "Every commit message has a body of a sentence or two on what changed and why." in written
    assert "Reviewers read the body, not the diff." in written
    assert "rejected" not in written and "asked for" not in written


@pytest.mark.parametrize(
    ("text", "kept", "told"),
    [
        (
            "Ask before pushing. The user wants every push reviewed.",
            "Ask before pushing. The user wants every push reviewed.",
            [],
        ),
        (
            "Run `make fmt`, not `cargo fmt`; in two sessions `cargo fmt` was rejected.",
            "Run `make fmt`, not `cargo fmt`.",
            ["in two sessions `cargo fmt` was rejected."],
        ),
        ("The user rejected it.", "The user rejected it.", []),  # the rule itself always stays
    ],
)
def test_session_story_keeps_the_rule_and_its_present_reasons(text: str, kept: str, told: list[str]) -> None:
    assert session_story(text, keep_first=True) == ((kept, told) if told else (text, []))


@pytest.mark.parametrize(
    ("principle", "trigger", "rule"),
    [
        ("When deploying: run the smoke tests", "deploying", "run the smoke tests"),
        (
            "When adding, renaming or removing a file: update the index",
            "adding, renaming or removing a file",
            "update the index",
        ),
        (
            "When the work is done, make a release commit: drop -dev and move the todo",
            "finishing",
            "When the work is done, make a release commit: drop -dev and move the todo",
        ),
    ],
)
def test_a_leading_condition_becomes_the_trigger_only_when_it_is_one(
    principle: str, trigger: str, rule: str
) -> None:
    found = normalize(Candidate(kind="correction", principle=principle, trigger="finishing"))
    assert (found.trigger, found.principle) == (trigger, rule)


def test_a_saved_plan_rejected_with_apply_never_returns(acme, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from consolidate.cli import main

    found = candidate(
        "check the cache settings in `cache.toml` before changing cache code", trigger="caching"
    )
    saved = tmp_path / "plan.json"
    code, _, err = acme.dream(capsys, acme.report(found), "--plan-out", str(saved))
    assert code == 0, err
    before = {p: p.read_bytes() for p in acme.memory.rglob("*") if p.is_file()}
    args = ["apply", str(saved), "--project", str(acme.project), "--claude-home", str(acme.home)]
    assert main([*args, "--reject", "all"]) == 0
    assert "rejected 1 proposal(s): nothing changed" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in acme.memory.rglob("*") if p.is_file()} == before
    code, out, _ = acme.dream(capsys, acme.report(found, name="again"), "--dry-run")
    assert "cache settings" not in out.split("note:")[0] and "no proposals" in out


def test_an_overlong_agent_title_ending_on_a_fragment_gives_way_to_the_principle() -> None:
    agent = Candidate(
        kind="correction",
        principle="Run the smoke tests before every deploy",
        title=" ".join(["deploy"] * 16) + " the",
        evidence=[{"session": "s", "quote": "smoke tests first"}],
    )
    title = title_of(agent)
    assert title == "Run the smoke tests before every deploy" and not line_problems(title, entry=True)


@pytest.mark.parametrize("title", ["… → deploy", "→ deploy …", "… —"])
def test_a_title_of_arrows_and_marks_gives_way_to_the_principle(title: str) -> None:
    from consolidate.models import EvidenceRef

    found = Candidate(
        kind="correction",
        principle="Deploy through `make deploy`",
        title=title,
        layers=["L2"],
        evidence=[EvidenceRef(session="s", quote="deploy")],
    )
    assert title_of(found) == "Deploy through `make deploy`"


def test_a_contradiction_never_replaces_a_line_about_something_else(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    contradict = candidate(
        "Never use `cargo install`; install with `acme install --path .`",
        category="CONTRADICT",
        layers=["L1"],
        related="Ensure a recent build is installed:",
    )
    before = acme.claude_md.read_text()
    code, out, err = acme.dream(capsys, acme.report(contradict), "--yes")
    assert code == 0, err
    assert acme.claude_md.read_text() == before and "[EDIT]" not in out
    assert (
        "set aside S1: Never use `cargo install`; install with `acme install --path .` — would replace a line "
        "about something else: “Ensure a recent build is installed:”; it waits in the backlog "
        "(reject it with --retire S1 if the remembered entry is right)\n"
    ) in out
    assert _waiting(acme) == ["Never use `cargo install`; install with `acme install --path .`"]
    code, out, err = acme.dream(capsys, acme.report(name="later"), "--yes")  # not settled: it comes back
    assert code == 0 and acme.claude_md.read_text() == before
    assert "— would replace a line about something else" in out and _waiting(acme)


def test_a_contradiction_never_targets_a_paragraph_about_another_subject(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    """The real case: a "NEVER cargo install" rule must not replace the Project Overview paragraph
    that merely names cargo, whatever the discoverer quotes as related."""
    overview = (
        "**acme** is a build wrapper for Rust that sits on top of cargo. It configures builds per package "
        "via spec files, and `cargo install` is how its users install it from crates.io."
    )
    acme.claude_md.write_text(f"# CLAUDE.md\n\n## Project Overview\n\n{overview}\n")
    rule = "NEVER `cargo install` here; install with `acme install --path .`"
    for related in (overview, ""):
        found = candidate(
            rule, category="CONTRADICT" if related else "FILL_GAP", layers=["L1"], related=related
        )
        code, out, err = acme.dream(capsys, acme.report(found, name=f"r{len(related)}"), "--yes")
        assert code == 0, err
        text = acme.claude_md.read_text()
        assert overview in text and "[EDIT]" not in out


def test_a_rule_saying_the_opposite_of_an_entry_is_not_already_recorded(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(
        acme.claude_md.read_text()
        + "\n## Sessions\n\n- Remember to commit the session files after each code change.\n"
    )
    opposite = candidate("Do not commit the session files after each code change", layers=["L1"])
    code, out, err = acme.dream(capsys, acme.report(opposite), "--dry-run")
    assert code == 0, err
    assert "already recorded" not in out and "[ADD]" not in out
    assert (
        "set aside S1: Do not commit the session files after each code change — says the opposite of “Remember to "
        "commit the session files after each code change.”"
    ) in out


def test_a_contradiction_is_never_settled_it_waits_and_comes_back(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(
        acme.claude_md.read_text()
        + "\n## Sessions\n\n- Remember to commit the session files after each code change.\n"
    )
    opposite = candidate("Do not commit the session files after each code change", layers=["L1"])
    before = acme.claude_md.read_text()
    code, out, err = acme.dream(capsys, acme.report(opposite), "--yes")
    assert code == 0, err
    assert acme.claude_md.read_text() == before
    assert (
        "1 more learning(s) wait in the backlog for the next dream (0 past the ADD cap, 1 set aside)" in out
    )
    assert _waiting(acme) == ["Do not commit the session files after each code change"]
    code, out, err = acme.dream(capsys, acme.report(name="later"), "--yes")
    assert code == 0, err
    assert (
        "set aside S1: Do not commit the session files after each code change — says the opposite of" in out
    )
    assert _waiting(acme) == ["Do not commit the session files after each code change"]


def test_a_confident_contradiction_is_offered_marked_and_never_applied_by_yes(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    contradict = _smoke_lite()
    before = {p: p.read_bytes() for p in acme.memory.rglob("*") if p.is_file()}
    code, out, err = acme.dream(capsys, acme.report(contradict), "--dry-run")
    assert code == 0, err
    assert "### [EDIT] Learning: Run make smoke-lite before deploys" in out
    assert "**Warning:** The sessions say the opposite of this remembered statement" in out
    code, out, err = acme.dream(capsys, acme.report(contradict, name="yes"), "--yes")
    assert code == 0, err
    assert {p: p.read_bytes() for p in acme.memory.rglob("*") if p.is_file() and p in before} == before
    assert (
        "skipped: contradicts a remembered statement; confirm it on a terminal or name it with --only P1"
        in out
    )
    assert _waiting(acme) == [contradict["principle"]]  # not applied, not rejected: it comes back


SESSIONS_RULE = "\n## Sessions\n\n- Remember to commit the session files after each code change.\n"
OPPOSITE = "Do not commit the session files after each code change"


def test_a_set_aside_learning_rejected_with_retire_is_gone_next_dream(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(acme.claude_md.read_text() + SESSIONS_RULE)
    before = acme.claude_md.read_text()
    code, out, err = acme.dream(capsys, acme.report(candidate(OPPOSITE, layers=["L1"])), "--yes")
    assert code == 0, err
    assert _waiting(acme) == [OPPOSITE]  # not rejected: it waits
    code, out, err = acme.dream(capsys, acme.report(name="later"), "--retire", "s9")
    assert code == 2 and "--retire s9: no such learning set aside (set aside: S1)" in err
    assert _waiting(acme) == [OPPOSITE]
    code, out, err = acme.dream(capsys, acme.report(name="later"), "--yes", "--retire", "s1")
    assert code == 0, err
    assert f"rejected S1: {OPPOSITE} — the remembered entry stands; it will not be proposed again" in out
    assert _waiting(acme) == [] and acme.claude_md.read_text() == before
    again = candidate(OPPOSITE, layers=["L1"], session="another")  # the sessions say it again
    reworded = candidate(
        "Never commit the session files after a code change.", layers=["L1"], session="third"
    )
    code, out, err = acme.dream(capsys, acme.report(again, reworded, name="again"), "--yes")
    assert code == 0, err
    assert "set aside" not in out and _waiting(acme) == [] and acme.claude_md.read_text() == before
    assert "dropped (rejected in an earlier review): Never commit the session files" in err + out


def test_review_of_a_pending_plan_rejects_a_set_aside_learning_only_when_named(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(acme.claude_md.read_text() + SESSIONS_RULE)
    fix = candidate("Run `acme lint` before `acme test`", layers=["L2"])

    def review(*args: str) -> tuple[int, str, str]:
        code = main(["review", str(acme.project), "--claude-home", str(acme.home), *args])
        out, err = capsys.readouterr()
        return code, out, err

    engine = acme.report(candidate(OPPOSITE, layers=["L1"]), fix)
    assert acme.dream(capsys, engine, "--prepare")[0] == 0
    code, out, err = review("--reject")  # the proposals rejected; the set-aside learning is not
    assert code == 0, err
    assert "rejected S1" not in out and "Lint" not in " ".join(_waiting(acme))
    other = candidate("Run `acme doc` after changing a public API", layers=["L2"])  # `fix` was rejected
    engine = acme.report(candidate(OPPOSITE, layers=["L1"]), other, name="again")
    assert acme.dream(capsys, engine, "--prepare")[0] == 0
    code, out, err = review("--retire", "S1")  # no terminal: nothing applied, the rejection recorded
    assert code == 0, err
    assert f"rejected S1: {OPPOSITE}" in out and "no terminal to confirm on" in err
    assert _waiting(acme) == [] and "[ADD]" in out and "journaled" not in out
    assert acme.dream(capsys, acme.report(candidate(OPPOSITE, layers=["L1"]), name="third"), "--yes")[0] == 0
    assert _waiting(acme) == []


def test_apply_reject_of_a_saved_plan_retires_a_set_aside_learning(acme, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    acme.claude_md.write_text(acme.claude_md.read_text() + SESSIONS_RULE)
    plan = tmp_path / "plan.json"
    engine = acme.report(candidate(OPPOSITE, layers=["L1"]))
    assert acme.dream(capsys, engine, "--plan-out", str(plan))[0] == 0
    code = main(
        [
            "apply",
            str(plan),
            "--project",
            str(acme.project),
            "--claude-home",
            str(acme.home),
            "--reject",
            "s1",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"rejected S1: {OPPOSITE} — the remembered entry stands" in out and "0 proposal(s)" not in out
    code, out, err = acme.dream(
        capsys, acme.report(candidate(OPPOSITE, layers=["L1"]), name="again"), "--yes"
    )
    assert code == 0, err
    assert "set aside" not in out and _waiting(acme) == []


def test_on_a_terminal_a_set_aside_learning_is_rejected_by_id_and_enter_lets_it_wait(acme) -> None:  # type: ignore[no-untyped-def]
    import io

    from consolidate.dream.run import DreamOptions, run_dream

    acme.claude_md.write_text(acme.claude_md.read_text() + SESSIONS_RULE)
    fix = candidate("Run `acme lint` before `acme test`", layers=["L2"])
    prompts: list[str] = []

    def dream(name: str, *answers: str) -> str:
        replies = iter(answers)
        out = io.StringIO()
        run_dream(
            acme.settings,
            DreamOptions(engine=acme.report(candidate(OPPOSITE, layers=["L1"]), fix, name=name)),
            out=out,
            err=io.StringIO(),
            stdin=io.StringIO(),
            ask=lambda prompt: (prompts.append(prompt), next(replies))[1],
        )
        return out.getvalue()

    dream("first", "a", "")  # apply the proposals, let the set-aside learning wait
    assert prompts[-1].startswith("Reject set-aside learning(s) (S1) because the remembered entry is right?")
    assert _waiting(acme) == [OPPOSITE]
    said = dream("second", "a", "S7", "S1")  # an unknown id is asked again
    assert "unknown id(s): S7" in prompts[-1]
    assert f"rejected S1: {OPPOSITE}" in said and _waiting(acme) == []
    asked = len(prompts)
    assert "set aside S" not in dream("third", "a", "a")  # the sessions say it again: dropped as rejected
    assert not any(p.startswith("Reject set-aside") for p in prompts[asked:])


def _waiting(acme) -> list[str]:  # type: ignore[no-untyped-def]
    from consolidate.dream.backlog import Backlog

    return [c.principle for c in Backlog.load(acme.settings).pending()]


def test_an_error_fix_rule_states_its_condition_once_and_ends_with_a_period(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    fix = candidate(
        "For `acme test`, pass `-p acme`.",
        kind="error-fix",
        layers=["L1"],
        trigger="running `acme test`",
        section="Build Commands",
    )
    code, _, err = acme.dream(capsys, acme.report(fix), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert "- For `acme test`, pass `-p acme`.\n" in text
    assert "**When running `acme test`:**" not in text


def test_an_index_line_stays_within_the_limit_the_auditor_enforces(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    long_clause = (
        "The guides need to be clear that we provide control at the package level and not the crate level"
    )
    code, _, err = acme.dream(
        capsys, acme.report(candidate(long_clause, trigger="editing the user guides", layers=["L2"])), "--yes"
    )
    assert code == 0, err
    added = [line for line in (acme.memory / "MEMORY.md").read_text().splitlines() if "package level" in line]
    assert len(added) == 1 and len(added[0]) <= 150, added
    assert f"{long_clause}. → [detail](" in added[0]
    assert main(["status", str(acme.project), "--claude-home", str(acme.home)]) == 0
    assert "long-entry" not in capsys.readouterr().out


def test_an_add_says_in_plain_words_what_is_added_where(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = acme.plan(capsys, acme.report(candidate(LONG, trigger="installing", layers=["L2"])))
    (add,) = [p for p in plan["proposals"] if p["action"] == "ADD"]
    assert add["rationale"].endswith(
        "a new line in MEMORY.md → Feedback; its whole text in the new topic file feedback_installing.md"
    )


def test_an_existing_empty_index_is_not_shown_as_a_new_file(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    (acme.memory / "MEMORY.md").write_text("")
    code, out, err = acme.dream(
        capsys, acme.report(candidate(LONG, trigger="installing", layers=["L2"])), "--dry-run"
    )
    assert code == 0, err
    assert "--- a/MEMORY.md\n+++ b/MEMORY.md\n" in out and "--- /dev/null\n+++ b/MEMORY.md" not in out


def test_status_counts_no_section_for_the_index_title(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    (acme.memory / "MEMORY.md").write_text(
        "# Project Memory\n\n## Feedback\n- **When deploying:** run the smoke tests first.\n"
    )
    assert main(["status", str(acme.project), "--claude-home", str(acme.home), "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["sections"] == [{"name": "Feedback", "entries": 1}]


def test_an_update_is_never_nested_under_an_unrelated_numbered_step(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    update = candidate(
        "Work on a branch for every non-trivial change to the release",
        category="UPDATE",
        layers=["L1"],
        trigger="writing a commit",
        related="3. Tag the release",
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert "3. Tag the release\n" in text and "3. Tag the release\n   -" not in text
    assert text.count("Work on a branch for every non-trivial change to the release.") == 1


def test_an_update_of_a_paragraph_never_splits_it_from_its_code(acme, capsys) -> None:  # type: ignore[no-untyped-def]
    update = candidate(
        "Ensure the build is installed again after every change to the wrapper",
        category="UPDATE",
        layers=["L1"],
        section="Build Commands",
        related="Ensure a recent build is installed:",
    )
    code, _, err = acme.dream(capsys, acme.report(update), "--yes")
    assert code == 0, err
    text = acme.claude_md.read_text()
    assert "Ensure a recent build is installed:\n\n```bash\n" in text
    assert "```\n\n- Run the tests with `acme test`." in text  # the code and the list after it stay together
    assert (
        "- Lint with `acme lint`.\n- Ensure the build is installed again after every change to the wrapper.\n"
        in text
    )


@pytest.mark.parametrize(("confirm", "applied"), [("n", False), ("y", True)])
def test_approve_all_asks_for_a_contradict_edit_one_by_one(acme, confirm: str, applied: bool) -> None:  # type: ignore[no-untyped-def]
    import io

    from consolidate.dream.run import DreamOptions, run_dream

    asked: list[str] = []
    answers = iter(["a", confirm])

    def ask(question: str) -> str:
        asked.append(question)
        return next(answers)

    run_dream(
        acme.settings,
        DreamOptions(engine=acme.report(_smoke_lite())),
        out=io.StringIO(),
        err=io.StringIO(),
        stdin=io.StringIO(),
        ask=ask,
    )
    assert asked[1].startswith("P1: The sessions say the opposite of this remembered statement")
    topic = (acme.memory / "feedback_deploying.md").read_text()
    assert ("Run `make smoke-lite` before deploys" in topic) is applied
