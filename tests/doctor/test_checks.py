"""Every doctor check passes on a sound setup, and each one fails on the defect it exists for."""

from __future__ import annotations

import json
import os
import re
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from consolidate.capture.handoff import write_handoff
from consolidate.capture.places import repo_root
from consolidate.capture.queue import NewItem, Queue, bucket_for
from consolidate.doctor import CHECKS, run_doctor
from consolidate.doctor.guards import DANGERS
from consolidate.learnings.store import EpisodeStore, store_path
from tests.capture.fixtures import Session, write_session
from tests.doctor.conftest import NOW, Setup


def test_a_sound_setup_passes_every_check(setup: Setup) -> None:
    report = run_doctor(setup.settings, NOW)
    assert [(c.id, c.status) for c in report.checks if c.status != "pass"] == []
    assert (report.passed, len(report.checks), len(CHECKS)) == (18, 18, 18)
    assert [c.id for c in report.checks] == [f.__name__.replace("_", "-") for f in CHECKS]


def test_claude_md_files_over_200_lines_fail(setup: Setup) -> None:
    setup.repo.write("CLAUDE.md", "- a rule\n" * 201)
    check = setup.check("project-claude-md-size")
    assert (check.status, check.detail) == ("fail", "CLAUDE.md: 201 lines (over 200)")
    (setup.claude_home / "CLAUDE.md").write_text("- mine\n" * 250)
    assert setup.check("user-claude-md-size").status == "fail"


def test_a_stub_claude_md_is_measured_by_what_it_imports(setup: Setup) -> None:
    setup.repo.write("CLAUDE.md", "<!-- canonical rules live in AGENTS.md -->\n@AGENTS.md\n")
    setup.repo.write("AGENTS.md", "- an agent rule\n" * 300)
    check = setup.check("project-claude-md-size")
    assert (check.status, check.detail) == ("fail", "CLAUDE.md (→ AGENTS.md): 300 lines (over 200)")
    check = setup.check("imports-on-demand")  # it is the instructions, not a reference, and says so
    assert (check.status, check.detail) == (
        "pass",
        "no large reference is @-imported besides what a CLAUDE.md stub stands for "
        "(@AGENTS.md (300 lines): measured as that CLAUDE.md)",
    )


@pytest.mark.parametrize(("text", "detail"), [
    ("- entry\n" * 201, "MEMORY.md: 201/200 lines, 1608/25000 bytes"),
    ("- " + "x" * 25_001 + "\n", "MEMORY.md: 1/200 lines, 25004/25000 bytes"),
])  # fmt: skip
def test_memory_index_over_what_claude_code_loads_fails(setup: Setup, text: str, detail: str) -> None:
    (setup.memory / "MEMORY.md").write_text(text + "- [build](build.md) when building\n" * 0)
    check = setup.check("memory-index-budget")
    assert check.status == "fail" and check.detail.startswith(detail) and "consolidate dream" in check.fix


def test_bare_and_dangling_pointers_fail(setup: Setup) -> None:
    (setup.memory / "MEMORY.md").write_text(
        "- [build](build.md)\n- **When deploying:** run the smoke tests. → [d](gone.md)\n"
    )
    check = setup.check("memory-pointers")
    assert (check.status, check.detail) == ("fail", "2 bare or dangling pointer(s): MEMORY.md:1, MEMORY.md:2")


def test_an_orphan_topic_file_fails(setup: Setup) -> None:
    (setup.memory / "stray.md").write_text("nobody links here\n")
    check = setup.check("orphan-topics")
    assert (check.status, check.detail) == ("fail", "1 topic file(s) nothing points to: stray.md")


def test_a_memory_file_that_does_not_parse_fails(setup: Setup) -> None:
    (setup.memory / "build.md").write_bytes(b"\xff\xfe not utf-8")
    assert setup.check("memory-readable").status == "fail"


def test_a_secret_anywhere_loaded_fails_and_is_never_printed(setup: Setup) -> None:
    token = "ghp_" + "Zx9" * 12
    (setup.memory / "build.md").write_text(f"The archive goes to dist/.\nUpload with {token}\n")
    setup.repo.write("docs/ops.md", f"password = {'hunter' * 3}9\n")
    setup.repo.write("CLAUDE.md", "# Project\n\nOps notes: @docs/ops.md\n")
    check = setup.check("no-secrets")
    assert check.status == "fail" and token not in check.detail and "hunter" not in check.detail
    assert check.detail.startswith("2 secret(s): build.md:2 (github-token), ")
    assert check.detail.endswith("docs/ops.md:1 (assigned-secret)")


def test_an_import_of_a_missing_file_fails(setup: Setup) -> None:
    setup.repo.write("CLAUDE.md", "# Project\n\nSee @docs/style.md, not `@in/code.md`; mail a@b.io.\n")
    check = setup.check("imports-exist")
    assert (check.status, check.detail) == (
        "fail",
        "1 @import(s) of missing files: CLAUDE.md:3 @docs/style.md",
    )


def test_a_large_reference_imported_into_every_session_fails(setup: Setup) -> None:
    setup.repo.write("TOOLS.md", "| tool | use |\n" * 150)
    setup.repo.write("CLAUDE.md", "# Project\n\n@TOOLS.md\n\n- Run `make test` before committing.\n")
    check = setup.check("imports-on-demand")
    assert (check.status, check.detail) == ("fail", "loaded into every session: @TOOLS.md (150 lines)")
    assert "read TOOLS.md" in check.fix


def test_secret_files_not_ignored_by_git_fail(setup: Setup) -> None:
    setup.repo.write(".gitignore", ".env\n")
    setup.repo.write(".env", "TOKEN=local\n")  # ignored
    setup.repo.write("certs/server.pem", "not really a certificate\n")
    setup.repo.write("deploy.key", "not really a key\n")
    check = setup.check("gitignore-secrets")
    assert (check.status, check.detail, check.fix) == (
        "fail",
        "not ignored by git: certs/server.pem, deploy.key",
        "add *.pem *.key to .gitignore",
    )


def test_no_secret_file_to_commit_is_no_failure_without_the_ignore_rules(setup: Setup) -> None:
    """A project with no .env, *.pem or *.key has nothing git could commit by mistake: no defect."""
    setup.repo.write(".gitignore", "target/\n")
    check = setup.check("gitignore-secrets")
    assert (check.status, check.detail) == ("pass", "no .env, *.pem or *.key file that git would commit")


def test_a_tracked_key_file_is_a_warning(setup: Setup) -> None:
    setup.repo.write("deploy.key", "not really a key\n")
    setup.repo.git("add", "-f", "deploy.key")
    setup.repo.commit("oops")
    check = setup.check("gitignore-secrets")
    assert (check.status, check.detail) == ("warn", "ignored, but already tracked: deploy.key")


def test_hooks_missing_or_wired_twice(setup: Setup) -> None:
    hooks = json.loads((setup.claude_home / "settings.json").read_text())
    setup.write_settings(hooks, setup.repo.path / ".claude" / "settings.json")
    check = setup.check("hooks-installed-once")
    assert check.status == "fail" and "from ~/.claude/settings.json and .claude/settings.json" in check.detail
    (setup.repo.path / ".claude" / "settings.json").unlink()
    del hooks["hooks"]["Stop"]
    setup.write_settings(hooks)
    assert setup.check("hooks-installed-once").detail == "not wired: Stop"
    setup.write_settings({})
    assert setup.check("hooks-installed-once").status == "warn"


def test_the_plugin_and_settings_together_are_wired_twice(setup: Setup) -> None:
    root = Path(__file__).resolve().parents[2]
    settings = json.loads((setup.claude_home / "settings.json").read_text())
    setup.write_settings({**settings, "enabledPlugins": {"consolidate@local": True}})
    plugins = setup.claude_home / "plugins" / "installed_plugins.json"
    plugins.parent.mkdir(parents=True)
    plugins.write_text(
        json.dumps({"version": 2, "plugins": {"consolidate@local": [{"installPath": str(root)}]}})
    )
    check = setup.check("hooks-installed-once")
    assert check.status == "fail" and "plugin consolidate@local" in check.detail


def _fake_python(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "python3"
    path.write_text(f"#!/bin/sh\necho {version}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_hook_interpreter_that_is_missing_or_too_old_fails(setup: Setup, tmp_path: Path) -> None:
    old = _fake_python(tmp_path / "bin", "3.10")
    setup.write_settings(
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": f"{old} -m consolidate hook Stop"}]}]}}
    )
    check = setup.check("hooks-runnable")
    assert (check.status, check.detail) == ("fail", f"Stop hook: {old} is Python 3.10; the hooks need 3.11+")
    setup.write_settings(
        {
            "hooks": {
                "Stop": [{"hooks": [{"type": "command", "command": "/gone/venv/bin/consolidate hook Stop"}]}]
            }
        }
    )
    assert setup.check("hooks-runnable").detail == "Stop hook: /gone/venv/bin/consolidate: not found"


def test_python3_on_path_and_console_scripts_are_resolved(
    setup: Setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from consolidate.doctor.hooks_check import hook_interpreter

    old = _fake_python(tmp_path / "bin", "3.10")
    env = {"PATH": str(old.parent)}
    assert (
        hook_interpreter(
            'PYTHONPATH="${CLAUDE_PLUGIN_ROOT}" python3 -m consolidate hook Stop', tmp_path, env
        ).path
        == old
    )
    script = tmp_path / "venv" / "consolidate"
    script.parent.mkdir()
    script.write_text(f"#!{old}\nfrom consolidate.cli import main_entry\n")
    assert hook_interpreter(f"{script} hook Stop", None, env).path == old
    monkeypatch.setenv("PATH", str(old.parent) + os.pathsep + os.environ["PATH"])
    setup.write_settings(
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "python3 -m consolidate hook Stop"}]}]}}
    )
    assert setup.check("hooks-runnable").status == "fail"


def test_the_installed_launcher_is_answered_by_its_own_candidates(
    setup: Setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """install wires the shell launcher: doctor asks it which Python it would start, and notices when
    none can run the hooks or the launcher itself is gone."""
    import sys

    check = setup.check("hooks-runnable")
    assert check.status == "pass", check.detail
    old = _fake_python(tmp_path / "bin", "3.10")
    monkeypatch.setenv("PATH", str(old.parent))
    settings = json.loads((setup.claude_home / "settings.json").read_text())
    text = json.dumps(settings).replace(sys.executable, "/gone/venv/bin/python")
    setup.write_settings(json.loads(text))
    check = setup.check("hooks-runnable")
    assert check.status == "fail" and "no Python 3.11+ can run the hooks" in check.detail
    assert "/gone/venv/bin/python (not found)" in check.detail
    (setup.settings.state_dir / "bin" / "consolidate-hook.sh").unlink()
    assert "the hook launcher" in setup.check("hooks-runnable").detail


def test_a_dangerous_command_rule_without_a_guard_fails_until_one_enforces_it(setup: Setup) -> None:
    setup.repo.write(
        "CLAUDE.md", "# Project\n\n- Force-pushing is fine on branches — never force-push to main.\n"
    )
    check = setup.check("guard-lessons")
    assert check.status == "fail" and check.detail.endswith("CLAUDE.md:3 (git push --force)")
    assert '"rule": "never force-push to main."' in check.fix and '"guard": true' in check.fix
    store = EpisodeStore(store_path(setup.settings.state_dir, repo_root(setup.repo.path)))
    store.capture({"rule": "never force-push to main",
                   "trigger": {"tool": "Bash", "command": r"git push .*--force", "guard": True}}, NOW)  # fmt: skip
    assert setup.check("guard-lessons").status == "pass"


def test_the_offered_force_push_guard_leaves_force_with_lease_alone() -> None:
    danger = next(d for d in DANGERS if d.name == "git push --force")
    guard = re.compile(danger.guard)
    for blocked in (
        "git push --force origin main",
        "git push origin main --force",
        "git push -f origin main",
    ):
        assert guard.search(blocked), blocked
    assert not guard.search("git push --force-with-lease origin feat-x")
    assert danger.pattern.search("never git push --force") and not danger.pattern.search(
        "use --force-with-lease"
    )


def test_a_deny_rule_in_settings_also_enforces_it(setup: Setup) -> None:
    (setup.memory / "build.md").write_text("The archive goes to dist/. Do not run `rm -rf dist` by hand.\n")
    assert setup.check("guard-lessons").status == "fail"
    settings = json.loads((setup.claude_home / "settings.json").read_text())
    setup.write_settings({**settings, "permissions": {"deny": ["Bash(rm -rf:*)"]}})
    assert setup.check("guard-lessons").status == "pass"


def test_a_permissive_mention_is_not_a_rule(setup: Setup) -> None:
    setup.repo.write(
        "CLAUDE.md", "# Project\n\n- Never commit to main. Rebase or force-push your branch freely.\n"
    )
    assert setup.check("guard-lessons").detail.startswith("no rule against a dangerous command")


def test_a_stuck_capture_queue_fails(setup: Setup) -> None:
    with Queue(setup.settings.state_dir / "queue.sqlite3") as queue:
        queue.enqueue(bucket_for(setup.repo.path), [NewItem("learning", "a lesson")])
    today = datetime.now(UTC)
    assert setup.check("queue-not-stuck", now=today + timedelta(days=6)).status == "pass"
    check = setup.check("queue-not-stuck", now=today + timedelta(days=8))
    assert (check.status, check.detail) == (
        "fail",
        f"1 queued learning(s) older than 7 days (oldest {today:%Y-%m-%d})",
    )


def test_no_consolidation_within_the_reminder_window_warns(setup: Setup) -> None:
    """A dream overdue is a reminder, not a broken set-up: the doctor warns and still passes."""
    (setup.memory / ".last-consolidation").write_text("2026-11-01T00:00:00Z\n")
    for i in range(5):
        write_session(setup.claude_home, setup.repo.path, Session(cwd=str(setup.repo.path)).user(f"work {i}"))
    check = setup.check("consolidation-recent")
    assert check.status == "warn" and check.detail.startswith("Memory has not been consolidated for")


def test_a_stale_or_missing_handoff_fails(setup: Setup) -> None:
    wired = (NOW - timedelta(days=2)).timestamp()  # the hooks were wired before the session ran
    os.utime(setup.claude_home / "settings.json", (wired, wired))
    path = write_session(setup.claude_home, setup.repo.path, Session(cwd=str(setup.repo.path)).user("work"))
    os.utime(path, (NOW.timestamp(), NOW.timestamp()))
    check = setup.check("handoff-fresh")
    assert check.status == "fail" and check.detail.startswith("no handoff, though the newest session ran on")
    assert "Stop hook is wired" in check.detail and "hooks.log" in check.fix
    write_handoff(
        setup.settings.state_dir, repo_root(setup.repo.path), "s-1", "Handoff …", NOW - timedelta(days=400)
    )
    check = setup.check("handoff-fresh")
    assert check.status == "fail" and "the newest session ran until 2026-11-29" in check.detail
    write_handoff(setup.settings.state_dir, repo_root(setup.repo.path), "s-1", "Handoff …", NOW)
    assert setup.check("handoff-fresh").status == "pass"


def test_no_handoff_before_any_session_since_install_is_not_a_failure(setup: Setup) -> None:
    """Right after `consolidate install` no session has run the Stop hook yet: that is no defect. With
    no hooks at all the missing handoff is hooks-installed-once's finding: advice here, not a failure."""
    write_session(
        setup.claude_home, setup.repo.path, Session(cwd=str(setup.repo.path)).user("work")
    )  # at 10:00
    wired = (NOW - timedelta(hours=1)).timestamp()
    os.utime(setup.claude_home / "settings.json", (wired, wired))
    check = setup.check("handoff-fresh")
    assert (check.status, check.detail) == (
        "pass",
        f"no session has run since the hooks were wired ({datetime.fromtimestamp(wired, UTC):%Y-%m-%d %H:%M}): "
        "the next one writes the handoff",
    )
    (setup.claude_home / "settings.json").unlink()
    check = setup.check("handoff-fresh")
    assert check.status == "warn" and "the Stop hook that writes it is not installed" in check.detail
    assert check.fix == "run `consolidate install`, or enable the plugin"


def test_a_config_file_that_does_not_parse_fails(setup: Setup) -> None:
    (setup.repo.path / ".consolidate.toml").write_text("[reminder\nhours = 3\n")
    assert setup.check("config-valid").status == "fail"


def test_auto_recall_without_an_index_fails(setup: Setup) -> None:
    config = setup.settings.state_dir / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[recall]\nauto = true\n")
    check = setup.check("recall-index")
    assert (check.status, check.fix) == ("fail", "run `consolidate recall --update`")
    from consolidate.recall.api import refresh

    refresh(setup.settings)
    assert setup.check("recall-index").status == "pass"


def test_the_offered_guard_for_a_ban_on_one_branch_blocks_that_branch_only(setup: Setup) -> None:
    setup.repo.write(
        "CLAUDE.md", "# Project\n\n- Force-pushing is fine on feature branches. Never force-push to `main`.\n"
    )
    fix = setup.check("guard-lessons").fix
    lesson = json.loads(fix.split("echo '", 1)[1].rsplit("' | consolidate", 1)[0].replace("'\\''", "'"))
    guard = re.compile(lesson["trigger"]["command"])
    for blocked in (
        "git push --force origin main",
        "git push origin main --force",
        "git push -f origin main",
    ):
        assert guard.search(blocked), blocked
    for allowed in (
        "git push --force origin feat-x",
        "git push origin main",
        "git push --force-with-lease origin main-fix",
    ):
        assert not guard.search(allowed), allowed
