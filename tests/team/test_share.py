"""consolidate share: what is proposed, what stays private, what is refused, and what a second run does."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers.memory import snapshot_bytes
from tests.team.conftest import Clone, run, topic

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def memory(clone: Clone) -> dict[str, str]:
    return {
        "MEMORY.md": "# Project Memory\n\n## Project\n"
        "- **When migrating data:** wait for Monday; staging is read-only on Fridays. → [detail](project_staging.md)\n"
        "- **When editing config:** settings live in `src/app/config.py`. → [detail](project_config.md)\n"
        "- Run the dev server with `make serve` on port 8081.\n\n"
        "## Feedback\n"
        "- **When answering:** always answer in Russian. → [detail](feedback_language.md)\n"
        "- The user is a data scientist who knows pandas well. → [detail](user_role.md)\n",
        "project_staging.md": topic(
            "staging", "Staging is read-only on Fridays: migrations wait until Monday."
        ),
        "project_config.md": topic("config", f"Settings live in `{clone.path}/src/app/config.py`."),
        "feedback_language.md": topic("language", "Always answer in Russian, not English.", "feedback"),
        "user_role.md": topic("role", "The user is a data scientist who knows pandas well.", "user"),
    }


def share(clone: Clone, capsys, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    return run(capsys, "share", str(clone.path), "--claude-home", str(clone.home), *args)


def plan_of(clone: Clone, capsys, *args: str) -> dict:  # type: ignore[no-untyped-def,type-arg]
    code, out, err = share(clone, capsys, "--json", *args)
    assert code == 0, err
    return json.loads(out)


def test_project_learnings_are_proposed_and_personal_ones_kept_back(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    plan = plan_of(alice, capsys)
    summaries = [p["summary"] for p in plan["proposals"]]
    assert summaries[0] == "Create the team memory folder and load it from CLAUDE.md"
    assert any("staging is read-only" in s for s in summaries)
    assert any("settings live in" in s for s in summaries)
    assert any("make serve" in s for s in summaries)
    assert not any("Russian" in s or "data scientist" in s for s in summaries)
    private = [n for n in plan["notes"] if n.startswith("kept private")]
    assert len(private) == 2 and any("type: user" in n for n in private)
    assert all(p["layer"] == "team" for p in plan["proposals"])

    with_personal = plan_of(alice, capsys, "--include-personal")
    assert len(with_personal["proposals"]) == len(plan["proposals"]) + 2


def test_the_team_copy_has_provenance_relative_paths_and_no_session_ids(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    files = memory(alice)
    files["project_staging.md"] = topic(
        "staging", "Staging is read-only on Fridays.", "project", signal="remember", learned="'2026-11-02'",
        originSessionId="5f0c1a2e-0000-4000-8000-000000000001",
    )  # fmt: skip
    alice.write_memory(files)
    code, out, err = share(alice, capsys, "--yes")
    assert code == 0, err
    staging = (alice.team / "project_staging.md").read_text()
    assert (
        "shared_by: Alice" in staging and "learned: '2026-11-02'" in staging and "signal: remember" in staging
    )
    assert "source: project_staging.md" in staging and "5f0c1a2e" not in staging
    config = (alice.team / "project_config.md").read_text()
    assert "`src/app/config.py`" in config and str(alice.path) not in config
    index = (alice.team / "MEMORY.md").read_text()
    assert (
        "- **When migrating data:** wait for Monday; staging is read-only on Fridays. → [detail](project_staging.md)"
        in index
    )
    note = next(p for p in alice.team.glob("note_*.md"))
    assert (
        "make serve" in note.read_text() and f"→ [detail]({note.name})" in index
    )  # a note gets a topic file
    assert (alice.path / "CLAUDE.md").read_text().count("@.claude/team-memory/MEMORY.md") == 1


def test_a_secret_is_refused_at_share_time_and_caught_by_check_when_written_by_hand(
    alice: Clone, capsys
) -> None:  # type: ignore[no-untyped-def]
    files = memory(alice)
    files["project_config.md"] = topic(
        "config", f"Settings live in `src/app/config.py`; deploy with {TOKEN}."
    )
    alice.write_memory(files)
    code, out, err = share(alice, capsys, "--yes")
    assert code == 0, err
    assert "refused (project_config.md line" in out and "holds a secret (github-token)" in out
    assert TOKEN not in out + err
    assert not (alice.team / "project_config.md").exists() and (alice.team / "project_staging.md").exists()
    assert all(TOKEN not in p.read_text() for p in alice.team.rglob("*"))
    assert run(capsys, "share", "--check", str(alice.path))[0] == 0

    leaked = alice.team / "project_staging.md"
    leaked.write_text(leaked.read_text() + f"\nDeploy with {TOKEN}\n")
    code, out, err = run(capsys, "share", "--check", str(alice.path))
    assert code == 1
    assert ".claude/team-memory/project_staging.md:" in out and "secret: a github-token" in out
    assert TOKEN not in out + err


def test_undo_of_a_share_restores_the_repository_byte_for_byte(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    (alice.path / "CLAUDE.md").write_bytes(b"# app\r\n\r\n- Run `make test`.\r\n")  # CRLF, no final section
    alice.commit_all("CRLF instructions")
    before = {k: v for k, v in snapshot_bytes(alice.path).items() if not k.startswith(".git/")}
    assert share(alice, capsys, "--yes")[0] == 0
    assert alice.git("status", "--porcelain").strip()
    code, out, err = run(capsys, "undo", str(alice.path), "--claude-home", str(alice.home))
    assert code == 0, err
    after = {k: v for k, v in snapshot_bytes(alice.path).items() if not k.startswith(".git/")}
    assert after == before
    assert alice.git("status", "--porcelain").strip() == ""


def test_sharing_again_edits_what_changed_and_removes_what_is_gone(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    assert share(alice, capsys, "--yes")[0] == 0
    alice.commit_all("Share")
    staging = alice.memory / "project_staging.md"
    staging.write_text(staging.read_text().replace("until Monday.", "until Monday, 09:00 UTC."))
    plan = plan_of(alice, capsys)
    assert [p["action"] for p in plan["proposals"]] == ["EDIT"]
    assert plan["proposals"][0]["changes"][0]["file"] == str(alice.team / "project_staging.md")
    assert share(alice, capsys, "--yes")[0] == 0
    copy = (alice.team / "project_staging.md").read_text()
    assert "09:00 UTC" in copy and "updated:" in copy

    (alice.memory / "project_config.md").unlink()
    index = alice.memory / "MEMORY.md"
    index.write_text(
        "".join(line for line in index.read_text().splitlines(True) if "project_config" not in line)
    )
    plan = plan_of(alice, capsys)
    assert [p["action"] for p in plan["proposals"]] == ["REMOVE"]
    assert share(alice, capsys, "--yes")[0] == 0
    assert not (alice.team / "project_config.md").exists()
    assert "project_config" not in (alice.team / "MEMORY.md").read_text()
    assert run(capsys, "share", "--check", str(alice.path))[0] == 0


def test_a_copy_the_team_edited_is_not_overwritten(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    assert share(alice, capsys, "--yes")[0] == 0
    copy = alice.team / "project_staging.md"
    copy.write_text(copy.read_text().replace("Fridays", "Fridays and Saturdays"))
    staging = alice.memory / "project_staging.md"
    staging.write_text(staging.read_text().replace("Monday", "Tuesday"))
    plan = plan_of(alice, capsys)
    assert plan["proposals"] == []
    assert any(n.startswith("not updated (edited in the team folder") for n in plan["notes"])
    assert "Saturdays" in copy.read_text()


def bob_shared(clone: Clone, section: str, line: str, topic_name: str, body: str) -> None:
    """The team folder holds one entry Bob shared: its index line and its topic file."""
    clone.team.mkdir(parents=True)
    (clone.team / "MEMORY.md").write_text(
        f"# Team Memory\n\n## {section}\n- {line} → [detail]({topic_name})\n"
    )
    (clone.team / topic_name).write_text(
        f"---\nname: {topic_name[:-3]}\nprovenance:\n  shared_by: Bob\n  source: {topic_name}\n---\n{body}\n"
    )


def test_what_a_teammate_already_shared_is_not_shared_again(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    bob_shared(
        alice,
        "Project",
        "**When migrating data:** staging is read-only on Fridays; wait for Monday.",
        "staging.md",
        "Staging is read-only on Fridays: migrations wait until Monday.",
    )
    alice.write_memory(memory(alice))
    plan = plan_of(alice, capsys)
    assert not any("staging" in p["summary"] for p in plan["proposals"])
    assert any(n.startswith("already shared:") and "staging" in n for n in plan["notes"])


def test_choosing_only_an_entry_brings_the_folder_and_its_import_with_it(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    plan = plan_of(alice, capsys)
    staging = next(p["id"] for p in plan["proposals"] if "staging" in p["summary"])
    code, out, err = share(alice, capsys, "--only", staging)
    assert code == 0, err
    assert "P1 (Create the team memory folder and load it from CLAUDE.md) is applied with them" in out
    assert sorted(p.name for p in alice.team.iterdir()) == ["MEMORY.md", "project_staging.md"]
    assert "@.claude/team-memory/MEMORY.md" in (alice.path / "CLAUDE.md").read_text()


def test_a_dry_run_and_a_plan_without_a_terminal_write_nothing(alice: Clone, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    before = snapshot_bytes(tmp_path)
    code, out, err = share(alice, capsys, "--dry-run")
    assert code == 0 and "### [ADD]" in out
    code, out, err = share(alice, capsys)  # no terminal on stdin, no --yes
    assert code == 0 and "nothing applied" in err
    after = snapshot_bytes(tmp_path)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    assert not [k for k in changed if ".consolidate-state/" not in k], sorted(changed)  # our lock at most


def test_share_needs_git_and_a_user_name(tmp_path: Path, alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    plain = tmp_path / "plain"
    plain.mkdir()
    code, out, err = run(capsys, "share", str(plain))
    assert code == 2 and "not in a git repository" in err
    alice.git("config", "--unset", "user.name")
    alice.write_memory(memory(alice))
    before = snapshot_bytes(alice.path)
    code, out, err = share(alice, capsys, "--yes")  # a real share says, in one line, what to set
    assert code == 2 and err.strip().splitlines() == [
        'consolidate: git config user.name is not set (each shared entry records who shared it): '
        'run git config user.name "Your Name"'
    ]
    assert snapshot_bytes(alice.path) == before


def test_a_dry_run_needs_no_user_name_and_says_a_real_share_does(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.git("config", "--unset", "user.name")
    alice.write_memory(memory(alice))
    before = snapshot_bytes(alice.path)
    code, out, err = share(alice, capsys, "--dry-run")
    assert code == 0, err
    assert "### [ADD]" in out and "staging is read-only" in out
    assert 'git config user.name is not set: a real share needs it (git config user.name "Your Name")' in out
    assert snapshot_bytes(alice.path) == before


def test_the_same_person_on_another_machine_removes_nothing(alice: Clone, capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(memory(alice))
    assert share(alice, capsys, "--yes")[0] == 0
    other = tmp_path / "laptop-claude"  # another Claude config dir, empty memory, same git user
    code, out, err = run(capsys, "share", str(alice.path), "--claude-home", str(other), "--json")
    assert code == 0, err
    assert json.loads(out)["proposals"] == []


def test_a_project_rule_about_language_or_a_quoted_why_is_not_personal(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    alice.write_memory(
        {
            "MEMORY.md": "# Project Memory\n\n## Project\n"
            "- **When committing:** write commit messages in English. → [detail](project_commits.md)\n"
            "- **When adding a dependency:** use `uv add`. → [detail](feedback_uv.md)\n",
            "project_commits.md": topic("commits", "Write commit messages in English."),
            "feedback_uv.md": topic(
                "uv", "Use `uv add`.\n\n**Why:** “I want the lock file in sync”", "feedback"
            ),
        }
    )
    plan = plan_of(alice, capsys)
    assert len(plan["proposals"]) == 3, plan["notes"]  # the folder, and both rules


DEPLOY_LINE = "**After the tests pass, deploy the build right away** with `make deploy` so staging runs it."
DEPLOY_TOPIC = "Deploy the build right away with `make deploy` after the tests pass, so staging runs it."


def test_a_rule_the_team_states_in_other_words_is_not_shared_one_that_shares_a_command_is(
    alice: Clone, capsys
) -> None:  # type: ignore[no-untyped-def]
    bob_shared(alice, "Project", DEPLOY_LINE, "deploy.md", DEPLOY_TOPIC)
    alice.write_memory(
        {
            "MEMORY.md": "# Project Memory\n\n## Project\n"
            "- **When the tests pass:** deploy it ASAP so we try it on staging. → [detail](project_deploy.md)\n"
            "- **When `make deploy` times out:** rerun it with `TIMEOUT=600`. → [detail](project_timeout.md)\n",
            "project_deploy.md": topic(
                "deploy", "Once all the tests pass, deploy it ASAP so we try it on staging."
            ),
            "project_timeout.md": topic(
                "timeout", "When `make deploy` times out, rerun it with `TIMEOUT=600`."
            ),
        }
    )
    plan = plan_of(alice, capsys)
    summaries = [p["summary"] for p in plan["proposals"]]
    assert not any("ASAP" in s for s in summaries)  # the same rule in other words: the team has it
    assert any(n.startswith("already shared:") and "ASAP" in n and "right away" in n for n in plan["notes"])
    assert any("TIMEOUT=600" in s for s in summaries)  # it only names the team rule's command


def test_a_rule_that_says_the_opposite_of_the_teams_is_held_back(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    bob_shared(
        alice,
        "Git",
        "**When pushing:** never force-push to `main`.",
        "push.md",
        "Never force-push to `main`.",
    )
    alice.write_memory(
        {
            "MEMORY.md": "# Project Memory\n\n## Git\n"
            "- **When pushing:** force-push to `main`. → [detail](project_push.md)\n",
            "project_push.md": topic("push", "Force-push to `main`."),
        }
    )
    plan = plan_of(alice, capsys)
    assert not any("force-push" in p["summary"] for p in plan["proposals"])
    assert any(n.startswith("not shared (the team memory says otherwise") for n in plan["notes"])


def test_a_dry_run_writes_nothing_in_the_state_dir(alice: Clone, capsys) -> None:  # type: ignore[no-untyped-def]
    """`share --dry-run` shows the plan and writes nothing: no memory id, no lock, in the state dir
    or anywhere else."""
    alice.write_memory(memory(alice))
    state = Path(os.environ["CONSOLIDATE_STATE_DIR"])
    before = sorted(str(p) for root in (alice.home, state) for p in root.rglob("*"))
    repo_before = snapshot_bytes(alice.path)
    code, out, err = share(alice, capsys, "--dry-run")
    assert code == 0, err
    assert "### [ADD" in out and "staging is read-only" in out
    assert sorted(str(p) for root in (alice.home, state) for p in root.rglob("*")) == before
    assert snapshot_bytes(alice.path) == repo_before
