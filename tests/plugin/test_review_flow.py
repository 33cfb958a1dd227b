"""The skill's review step: the model asks with AskUserQuestion, the user's answer decides which
proposals `consolidate apply --only` applies. The user is a `can_use_tool` handler here."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

from consolidate.cli import main
from tests.fakeapi.server import Step, after_last_assistant, text, tool_use
from tests.plugin.test_plugin import _session

QUESTION = {
    "questions": [
        {
            "question": "Which memory changes should be applied?",
            "header": "Memory",
            "multiSelect": False,
            "options": [
                {"label": "Approve all", "description": "apply every proposal"},
                {"label": "Approve selected", "description": "name the ids"},
                {"label": "Reject all", "description": "change nothing"},
            ],
        }
    ]
}
CLEAN = "- Write clean code and keep functions small."


def _review_answering(fake_api, example, plan, answer: str) -> tuple[list[dict[str, Any]], Any]:  # type: ignore[no-untyped-def]
    """Run the skill's review with a user who answers `answer` and lets only the apply command run."""
    home = str(example.claude_home)
    apply = f"{sys.executable} -m consolidate apply {plan} --project {example.project} --claude-home {home}"

    def apply_what_was_approved(body: dict[str, Any]) -> Step:
        found = re.search(r"Approve selected: ([GP0-9, ]+)", after_last_assistant(body))
        assert found is not None, "the answer did not reach the model"
        return tool_use("Bash", {"command": f"{apply} --only {found.group(1).replace(' ', '')}"})

    fake_api.script("", [tool_use("AskUserQuestion", QUESTION), apply_what_was_approved, text("APPLIED")])
    asked: list[dict[str, Any]] = []

    async def user(tool: str, tool_input: dict[str, Any], context: Any) -> Any:
        if tool == "AskUserQuestion":
            asked.append(tool_input)
            answers = {q["question"]: answer for q in tool_input["questions"]}
            return PermissionResultAllow(updated_input={**tool_input, "answers": answers})
        if tool == "Bash" and tool_input["command"].startswith(apply):
            return PermissionResultAllow()
        return PermissionResultDeny(message="not part of this review")

    return asked, _session("/consolidate:extract-learnings", str(example.project), can_use_tool=user)


def _dream_plan(example, tmp_path, capsys):  # type: ignore[no-untyped-def]
    plan = tmp_path / "plan.json"
    home = str(example.claude_home)
    assert main(["dream", str(example.project), "--claude-home", home, "--plan-out", str(plan)]) == 0
    capsys.readouterr()
    return plan


def test_approved_subset_is_applied(fake_api, example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = _dream_plan(example, tmp_path, capsys)
    proposals = json.loads(plan.read_text())["proposals"]
    assert proposals[0]["id"] == "P1" and proposals[0]["changes"][0] == {
        "op": "trash_file", "file": "project_migrate.md"
    }  # fmt: skip
    asked, messages = _review_answering(fake_api, example, plan, "Approve selected: P1")

    assert asked and asked[0]["questions"][0]["question"] == "Which memory changes should be applied?"
    assert "Extract learnings (memory consolidation)" in json.dumps(fake_api.requests[0]["messages"])
    assert not (example.memory_dir / "project_migrate.md").exists()  # P1 applied
    index = (example.memory_dir / "MEMORY.md").read_text()
    assert "project_migrate.md" not in index
    assert CLEAN in index and (example.memory_dir / "feedback_testing_suite.md").exists()  # P2, P3 not
    outcome = json.loads(after_last_assistant(fake_api.requests[-1]))[0]["content"][0]["content"]
    assert (
        "| When migrating data: run scripts/legacy_migrate.py first. | REMOVE | MEMORY.md → Project | done |"
        in outcome
    )
    assert outcome.count("| done |") == 1 and "consolidate undo" in outcome
    assert messages[-1].result == "APPLIED"


def test_a_group_is_approved_as_one_decision(fake_api, example, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    plan = _dream_plan(example, tmp_path, capsys)
    dates = next(g for g in json.loads(plan.read_text())["groups"] if g["category"] == "DATE_FIX")
    _review_answering(fake_api, example, plan, f"Approve selected: {dates['id']}")
    outcome = json.loads(after_last_assistant(fake_api.requests[-1]))[0]["content"][0]["content"]
    assert outcome.count("| done |") == len(dates["items"]) == 2 and "| EDIT |" in outcome
    memory = "".join(p.read_text() for p in example.memory_dir.glob("*.md"))
    assert "yesterday" not in memory.lower()
