"""The discoverer's task file shows the moments that matter: what the user typed while a tool ran,
every remembered entry whole with its topic file, both CLAUDE.md files with their imports; and
`consolidate snapshot` prints a dream command that runs as printed."""

from __future__ import annotations

import json
import shlex

from consolidate.cli import main
from consolidate.dream.orient import orient
from consolidate.engines import DISCOVERER, AgentTask
from consolidate.engines.prompts import task_prompt

SESSION = "5f0c1a2e-0000-4000-8000-00000000c0de"


def _prompt(settings) -> str:  # type: ignore[no-untyped-def]
    return task_prompt(AgentTask(DISCOVERER, orient(settings, create=False)))


def test_what_the_user_typed_while_a_tool_ran_is_shown(settings) -> None:  # type: ignore[no-untyped-def]
    folder = settings.layout.transcripts_dir
    records = [
        {"type": "user", "uuid": "u1", "sessionId": SESSION, "timestamp": "2026-11-29T09:00:00Z", "message": {"role": "user", "content": "build it"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": SESSION, "timestamp": "2026-11-29T09:00:05Z", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo build"}}]}},
        {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": SESSION, "timestamp": "2026-11-29T09:00:09Z", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "Finished"},
            {"type": "text", "text": "use `tspec build`, never bare cargo"},
        ]}},
    ]  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{SESSION}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    prompt = _prompt(settings)
    assert "user [u2] (while the tool ran): use `tspec build`, never bare cargo" in prompt
    assert prompt.index("tool Bash: cargo build") < prompt.index("(while the tool ran)")


def test_entries_are_whole_with_their_topic_file(settings) -> None:  # type: ignore[no-untyped-def]
    long_rule = "deploys go through `make release` " + "and the staging smoke tests, " * 14 + "then prod."
    index = settings.memory_dir / "MEMORY.md"
    index.write_text(
        index.read_text()
        + f"\n## Deploy\n\n- **When deploying:** {long_rule} → [detail](project_deploy.md)\n"
    )
    (settings.memory_dir / "project_deploy.md").write_text(
        "---\nname: deploys\ndescription: the release path, step by step\n---\n\nSteps.\n"
    )
    (settings.memory_dir / "reference_orphan.md").write_text("---\ndescription: kept apart\n---\n\nOld.\n")
    prompt = _prompt(settings)
    assert len(long_rule) > 400 and f"[L2] MEMORY.md § Deploy: **When deploying:** {long_rule}" in prompt
    assert (
        f"topic file {settings.memory_dir / 'project_deploy.md'} — the release path, step by step" in prompt
    )
    assert (
        f"[L3] reference_orphan.md: (a topic file no index entry links to)\n  topic file {settings.memory_dir / 'reference_orphan.md'} — kept apart"
        in prompt
    )


def test_both_claude_md_files_and_their_imports_are_shown(settings) -> None:  # type: ignore[no-untyped-def]
    project = settings.layout.project_claude_md
    (project.parent / "docs").mkdir(exist_ok=True)
    (project.parent / "docs" / "git.md").write_text("Never push to `main`; open a PR.\n@more.md\n")
    (project.parent / "docs" / "more.md").write_text("Squash-merge feature branches.\n")
    project.write_text(project.read_text() + "\nSee @docs/git.md for git rules. `@not/an/import.md`\n")
    settings.layout.user_claude_md.parent.mkdir(parents=True, exist_ok=True)
    settings.layout.user_claude_md.write_text("Answer in English.\n")
    prompt = _prompt(settings)
    assert f"### L0 {settings.layout.user_claude_md}" in prompt and "Answer in English." in prompt
    assert f"### L1 {project.parent / 'docs' / 'git.md'}" in prompt and "Never push to `main`" in prompt
    assert "Squash-merge feature branches." in prompt  # an import of an import
    assert "not/an/import.md\n" not in prompt.split("### L1")[-1]


def test_snapshot_prints_a_dream_command_that_runs_as_printed(example, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    memory = tmp_path / "elsewhere" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("# Project Memory\n")
    run = tmp_path / "run"
    argv = ["snapshot", str(example.project), "--claude-home", str(example.claude_home)]
    assert main([*argv, "--memory-dir", str(memory), "--out", str(run)]) == 0
    printed = capsys.readouterr().out.splitlines()[-1].removeprefix("then run: ")
    command = shlex.split(printed)
    assert command[command.index("--claude-home") + 1] == str(example.claude_home)
    assert command[command.index("--memory-dir") + 1] == str(memory)
    (run / "signal-discoverer.json").write_text(json.dumps({"candidates": [{"kind": "decision", "principle": "keep the public API synchronous", "trigger": "adding an endpoint"}]}))  # fmt: skip
    (run / "memory-auditor.json").write_text('{"findings": []}')
    assert main(command[1:]) == 0
    plan = json.loads((run / "plan.json").read_text())
    assert plan["memory_dir"] == str(memory) and plan["claude_home"] == str(example.claude_home)
    assert [p["summary"] for p in plan["proposals"]] == ["keep the public API synchronous"]
