"""The gather agents' definitions: `agents/<name>.md`, Markdown with frontmatter.

The same files are Claude Code plugin agents and, loaded here, the SDK's `AgentDefinition`s and the
anthropic engine's system prompts. Loading refuses a definition that could write (a write-capable tool,
unrestricted Bash) or that would stop early (maxTurns below 30: a truncated report looks like a
finished one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from memory_layout import parse_document

from ..errors import ConsolidateError

MIN_TURNS = 30
READ_ONLY_TOOLS = frozenset({"Read", "Grep", "Glob", "LS"})
WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "KillShell", "Agent", "Task"})
# `Bash(git …)` rules: git with a fixed first word, never a wildcard for the whole command line.
_GIT_RULE = re.compile(r"^Bash\(git(?: [a-z-]+)?(?::\*| \*)?\)$")
_RULE = re.compile(r"^(?P<tool>\w+)(?:\((?P<rule>.*)\))?$")


class AgentDefinitionError(ConsolidateError):
    """An agent definition that is missing, malformed, write-capable or under the turn budget."""


@dataclass(frozen=True)
class AgentSpec:
    name: str
    description: str
    tools: tuple[str, ...]  # as written: "Read", "Bash(git:*)"
    model: str
    max_turns: int
    prompt: str

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The base tool names (`Bash(git:*)` → `Bash`), each once, in order."""
        names = (_RULE.match(tool)["tool"] for tool in self.tools)  # type: ignore[index]
        return tuple(dict.fromkeys(names))

    def to_definition(self, extra_tools: tuple[str, ...] = ()) -> Any:
        """This agent as a claude_agent_sdk `AgentDefinition` (the SDK is imported here, lazily)."""
        from claude_agent_sdk import AgentDefinition

        return AgentDefinition(
            description=self.description,
            prompt=self.prompt,
            tools=[*self.tools, *extra_tools],
            model=self.model or None,
            maxTurns=self.max_turns,
        )


def load_agent(name: str) -> AgentSpec:
    """Load and check `agents/<name>.md` from the package data."""
    source = resources.files("consolidate") / "data" / "agents" / f"{name}.md"
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AgentDefinitionError(f"agent definition {name}.md not found in the package: {exc}") from None
    return parse_agent(text, f"{name}.md")


def parse_agent(text: str, source: str = "agent") -> AgentSpec:
    document = parse_document(text)
    matter = document.frontmatter
    if matter is None or matter.error:
        reason = matter.error if matter is not None else "no frontmatter"
        raise AgentDefinitionError(f"{source}: {reason}")
    data = matter.data
    name = _required(data, "name", source)
    spec = AgentSpec(
        name=name,
        description=_required(data, "description", source),
        tools=_tools(data.get("tools"), source),
        model=str(data.get("model") or ""),
        max_turns=_max_turns(data.get("maxTurns"), source),
        prompt=text[len(matter.raw) :].strip() + "\n",
    )
    if not spec.prompt.strip():
        raise AgentDefinitionError(f"{source}: the system prompt (the body after the frontmatter) is empty")
    return spec


def _required(data: dict[str, Any], key: str, source: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise AgentDefinitionError(f"{source}: frontmatter needs a `{key}`")
    return value.strip()


def _max_turns(value: Any, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AgentDefinitionError(f"{source}: maxTurns must be an integer of at least {MIN_TURNS}")
    if value < MIN_TURNS:
        raise AgentDefinitionError(
            f"{source}: maxTurns is {value}; gather agents need at least {MIN_TURNS} "
            "(an agent that runs out of turns returns a truncated report that looks finished)"
        )
    return value


def _tools(value: Any, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        tools = [t.strip() for t in value.split(",") if t.strip()]
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        tools = [t.strip() for t in value]
    else:
        raise AgentDefinitionError(f"{source}: `tools` must list the agent's read-only tools explicitly")
    for tool in tools:
        check_tool(tool, source)
    return tuple(tools)


def check_tool(tool: str, source: str = "agent") -> None:
    """Accept read-only tools and `Bash(git …)` rules; refuse everything that could write."""
    if tool in READ_ONLY_TOOLS or _GIT_RULE.match(tool):
        return
    match = _RULE.match(tool)
    base = match["tool"] if match else tool
    if base == "Bash":
        reason = "is unrestricted Bash" if not match or not match["rule"] else "runs more than read-only git"
    elif base in WRITE_TOOLS:
        reason = "can write files"
    else:
        reason = "is not a read-only tool"
    allowed = ", ".join(sorted(READ_ONLY_TOOLS)) + ", Bash(git:*)"
    raise AgentDefinitionError(f"{source}: tool {tool!r} {reason}; gather agents may only use {allowed}")
