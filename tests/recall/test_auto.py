"""Auto-recall on UserPromptSubmit: opt-in, memory first, relevant only, once per session, in budget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from consolidate.capture.places import state_root
from consolidate.recall.api import index_scope, refresh
from consolidate.recall.auto import HEADER
from consolidate.recall.store import STAMP_FILE
from consolidate.settings import Settings, load_settings
from tests.capture.fixtures import Session, write_session
from tests.helpers.memory import write_tree
from tests.hooks.helpers import hook, payload

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "how do we rotate the staging database credentials for the nightly backup job"


@pytest.fixture
def settings(tmp_path: Path, claude_home: Path) -> Settings:
    """A project with a topic file, an index entry and past decisions about the staging database."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    settings = load_settings(project, home=claude_home)
    entries = "".join(f"- **When touching area {i}:** keep notes {i}. → [a](area{i}.md)\n" for i in range(5))
    write_tree(settings.memory_dir, {
        "MEMORY.md": "# Project Memory\n\n- **When rotating staging database credentials:** see the runbook. "
                     "→ [r](staging-db.md)\n" + entries,
        "staging-db.md": "---\ndescription: rotating the staging database credentials\n---\n\n"
                         "The nightly backup job reads the staging database credentials from the vault; "
                         "rotate them there first, then restart the backup job.\n",
        **{f"area{i}.md": f"Area {i} notes about widgets number {i}.\n" for i in range(5)},
    })  # fmt: skip
    old = Session(session_id="s-old", cwd=str(project))
    old.user("we decided to run the nightly backup job at 02:00 because the staging database is idle then")
    old.assistant("Noted: the backup job runs at 02:00.").user("please fix the widget colour").assistant(
        "Fixed."
    )
    write_session(claude_home, project, old)
    for i in range(40):  # ordinary talk, so rare words are rare
        write_session(
            claude_home, project, Session(cwd=str(project)).user(f"tweak widget {i}").assistant("ok")
        )
    refresh(settings)
    return settings


def enable(settings: Settings, **options: object) -> None:
    lines = ["[recall]", "auto = true", *(f"{k} = {v}" for k, v in options.items())]
    path = settings.state_dir / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def recalled(settings: Settings, prompt: str = PROMPT, session: str = "s-new") -> str:
    data = payload("UserPromptSubmit", settings.layout.project, prompt=prompt, session_id=session)
    data["transcript_path"] = str(settings.layout.transcripts_dir / f"{session}.jsonl")
    code, answer, _ = hook("UserPromptSubmit", data)
    assert code == 0
    context = answer["hookSpecificOutput"]["additionalContext"] if answer else ""
    return context[context.index(HEADER) :] if HEADER in context else ""


def test_off_unless_switched_on(settings: Settings) -> None:
    assert recalled(settings) == ""


def test_memory_first_then_the_past_decision_never_the_loaded_index(settings: Settings) -> None:
    enable(settings)
    lines = recalled(settings).splitlines()
    assert lines[0] == HEADER
    assert lines[1].startswith("- [memory staging-db.md] ") and "rotate them there first" in lines[1]
    assert lines[2].startswith(
        "- [2026-11-29, decision by the user] we decided to run the nightly backup job"
    )
    assert len(lines) == 3  # MEMORY.md is loaded at session start anyway: never repeated


def test_each_hit_once_per_session(settings: Settings) -> None:
    enable(settings)
    assert recalled(settings) != ""
    assert recalled(settings) == ""
    assert recalled(settings, session="s-other") != ""


def test_the_current_session_is_not_recalled_to_itself(settings: Settings) -> None:
    enable(settings)
    lines = recalled(settings, session="s-old").splitlines()
    assert [line[:24] for line in lines[1:]] == ["- [memory staging-db.md]"]


def test_budget_and_hit_count_are_kept(settings: Settings) -> None:
    enable(settings, max_hits=1)
    assert len(recalled(settings).splitlines()) == 2
    enable(settings, max_bytes=len(HEADER) + 40)
    assert recalled(settings, session="s-tiny") == ""


@pytest.mark.parametrize("prompt", ["commit this", "please tweak the widget", "staging"])
def test_an_everyday_prompt_recalls_nothing(settings: Settings, prompt: str) -> None:
    enable(settings)
    assert recalled(settings, prompt) == ""


def test_a_stale_index_is_refreshed_in_the_background_not_in_the_hook(
    settings: Settings, claude_home: Path
) -> None:
    enable(settings, refresh_minutes=0)
    new = Session(session_id="s-late", cwd=str(settings.layout.project))
    new.user("let's keep the vault token lifetime at one hour because the audit asked for it").assistant(
        "Done."
    )
    write_session(claude_home, settings.layout.project, new)
    prompt = "what vault token lifetime did the audit ask for"
    assert recalled(settings, prompt) == ""  # the hook answers from the index as it is
    stamp = index_scope(settings).index.parent / STAMP_FILE
    assert stamp.exists()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "vault token lifetime" not in recalled(settings, prompt, "s-poll"):
        time.sleep(0.3)
    assert "vault token lifetime" in recalled(settings, prompt, "s-after")
    assert not (state_root(claude_home) / "hooks.log").exists()


def test_auto_recall_runs_on_a_bare_interpreter(settings: Settings) -> None:
    """-S drops site-packages: the plugin's python3 answers from the index with the standard library."""
    enable(settings)
    env = {**{k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}, "PYTHONPATH": str(ROOT)}
    data = payload("UserPromptSubmit", settings.layout.project, prompt=PROMPT, session_id="s-bare")
    result = subprocess.run([sys.executable, "-S", "-X", "importtime", "-m", "consolidate", "hook", "UserPromptSubmit"],
                            input=json.dumps(data), capture_output=True, text=True, env=env, cwd=settings.layout.project)  # fmt: skip
    assert result.returncode == 0
    assert "staging-db.md" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "consolidate.recall.search" in imported and "consolidate.recall.indexer" not in imported


def test_a_bad_switch_is_reported_and_leaves_auto_recall_off(settings: Settings) -> None:
    from consolidate.capture.config import load_config

    enable(settings)
    (settings.state_dir / "config.toml").write_text('[recall]\nauto = "yes"\nmax_hits = 2\n')
    config = load_config(settings.state_dir, settings.layout.project)
    assert (config.recall_auto, config.recall_max_hits) == (False, 2)
    assert config.problems == (f"{settings.state_dir / 'config.toml'}: [recall] auto must be true or false",)
    assert recalled(settings) == ""


def test_a_damaged_index_costs_only_the_recall(settings: Settings, claude_home: Path) -> None:
    enable(settings)
    index = index_scope(settings).index
    for path in index.parent.glob("index.sqlite3*"):
        path.write_bytes(b"not a database" * 100)
    data = payload("UserPromptSubmit", settings.layout.project, prompt="no, do it this way: " + PROMPT)
    code, answer, _ = hook("UserPromptSubmit", data)
    assert code == 0 and answer is not None
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "reads like a correction" in context and HEADER not in context
