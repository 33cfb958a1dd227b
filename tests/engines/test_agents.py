"""Agent definitions: both ship, load as SDK AgentDefinitions, and unsafe ones are refused."""

from __future__ import annotations

import pytest

from consolidate.engines.agents import AgentDefinitionError, load_agent, parse_agent

BODY = "You audit memory.\n"


def _definition(tools: str = "Read, Grep", max_turns: object = 40, name: str = "x") -> str:
    return f"---\nname: {name}\ndescription: d\ntools: {tools}\nmodel: sonnet\nmaxTurns: {max_turns}\n---\n{BODY}"


@pytest.mark.parametrize("name", ["memory-auditor", "signal-discoverer"])
def test_shipped_definitions_load_read_only_with_enough_turns(name: str) -> None:
    spec = load_agent(name)
    assert spec.name == name and spec.max_turns >= 30
    assert spec.tool_names == ("Read", "Grep", "Glob", "Bash")
    assert "Bash(git:*)" in spec.tools
    assert "JSON" in spec.prompt and not spec.prompt.startswith("---")
    definition = spec.to_definition(extra_tools=("StructuredOutput",))
    assert definition.maxTurns == spec.max_turns and definition.prompt == spec.prompt
    assert definition.tools[-1] == "StructuredOutput" and definition.model == "sonnet"


def test_body_after_frontmatter_is_the_prompt() -> None:
    spec = parse_agent(_definition())
    assert spec.prompt == BODY and spec.tools == ("Read", "Grep")


@pytest.mark.parametrize(
    ("tools", "reason"),
    [
        ("Read, Write", "'Write' can write files"),
        ("Read, Edit", "'Edit' can write files"),
        ("MultiEdit", "'MultiEdit' can write files"),
        ("NotebookEdit", "'NotebookEdit' can write files"),
        ("Read, Bash", "'Bash' is unrestricted Bash"),
        ("Bash(*)", "runs more than read-only git"),
        ("Bash(rm:*)", "runs more than read-only git"),
        ("Bash(git:*; rm -rf /)", "runs more than read-only git"),
        ("WebFetch", "'WebFetch' is not a read-only tool"),
    ],
)
def test_write_capable_tools_are_refused(tools: str, reason: str) -> None:
    with pytest.raises(AgentDefinitionError, match="gather agents may only use") as caught:
        parse_agent(_definition(tools=tools))
    assert reason in str(caught.value)


@pytest.mark.parametrize("turns", [29, 1, 0, "many", "true"])
def test_a_turn_budget_under_30_is_refused(turns: object) -> None:
    with pytest.raises(AgentDefinitionError, match="maxTurns"):
        parse_agent(_definition(max_turns=turns))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no frontmatter at all\n", "no frontmatter"),
        ("---\nname: [unclosed\n---\nbody\n", "broken frontmatter"),
        ("---\ndescription: d\ntools: Read\nmaxTurns: 40\n---\nbody\n", "needs a `name`"),
        ("---\nname: x\ndescription: d\nmaxTurns: 40\n---\nbody\n", "`tools` must list"),
        ("---\nname: x\ndescription: d\ntools: Read\nmaxTurns: 40\n---\n\n", "system prompt"),
    ],
)
def test_malformed_definitions_give_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(AgentDefinitionError, match=message) as caught:
        parse_agent(text, "bad.md")
    assert str(caught.value).startswith("bad.md: ") and "\n" not in str(caught.value)
