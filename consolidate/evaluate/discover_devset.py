"""A labeled dev set for the discoverer: synthetic sessions with planted signals and look-alike noise.

`generate_devset(directory, pool=..., seed=...)` writes the sessions and returns the labels;
`evaluate(report, devset)` scores a `DiscoveryReport` against them (precision and recall per kind,
recall per language, layer hits, repeated lessons merged, false positives by noise kind).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import discover_pools as pools
from .synthetic_sessions import SessionWriter, write_session

KINDS = ("marker", "remember", "correction", "error-fix", "rejection", "decision")


@dataclass
class Planted:
    kind: str
    language: str
    session: str
    anchor: str  # uuid of the record the signal must be anchored at
    key: str  # a word the principle must keep
    layer: str = ""
    group: str = ""  # planted items of one group are the same lesson repeated across sessions


@dataclass
class Noise:
    kind: str
    session: str
    uuid: str = ""
    forbidden: str = ""  # a word no candidate may carry (for noise with no single record to point at)


@dataclass
class DevSet:
    directory: Path
    planted: list[Planted] = field(default_factory=list)
    noise: list[Noise] = field(default_factory=list)


class _Builder:
    """Writes sessions for one dev set, keeping the labels."""

    def __init__(self, directory: Path, pool: str, seed: int) -> None:
        self.devset = DevSet(directory)
        self.pool = pool
        self.rng = random.Random(seed)
        self.count = 0

    def session(self) -> SessionWriter:
        self.count += 1
        session_id = f"{self.rng.getrandbits(32):08x}-{self.pool}-{self.count:03d}"
        style = "new" if self.count % 2 else "old"
        return SessionWriter(session_id, style=style, rng=self.rng)

    def plant(self, writer: SessionWriter, kind: str, language: str, anchor: str, key: str, layer: str = "",
              group: str = "") -> None:  # fmt: skip
        self.devset.planted.append(Planted(kind, language, writer.session_id, anchor, key, layer, group))

    def noise(self, writer: SessionWriter, kind: str, uuid: str = "", forbidden: str = "") -> None:
        self.devset.noise.append(Noise(kind, writer.session_id, uuid, forbidden))


def generate_devset(directory: Path, *, pool: str = "dev", seed: int = 7, sessions: int = 16) -> DevSet:
    """Write the sessions of one pool ("dev" or "holdout") under `directory`; the labels come back."""
    builder = _Builder(directory, pool, seed)
    items = _planted_items(pool)
    builder.rng.shuffle(items)
    per_session = max(1, -(-len(items) // sessions))
    for start in range(0, len(items), per_session):
        writer = builder.session()
        _opening(builder, writer)
        for item in items[start : start + per_session]:
            item(builder, writer)
            _noise_turn(builder, writer)
        _structural_noise(builder, writer)
        write_session(directory, writer)
    _repeats(builder)
    _subagent_session(builder)
    return builder.devset


def _planted_items(pool: str) -> list[Any]:
    items: list[Any] = []
    items += [lambda b, w, x=x: _correction(b, w, x) for x in pools.CORRECTIONS[pool]]
    items += [lambda b, w, x=x: _remember(b, w, x) for x in pools.REMEMBERS[pool]]
    items += [lambda b, w, x=x: _decision(b, w, x) for x in pools.DECISIONS[pool]]
    items += [lambda b, w, x=x: _rejection(b, w, x) for x in pools.REJECTIONS[pool]]
    items += [lambda b, w, x=x: _error_fix(b, w, x) for x in pools.ERROR_FIXES[pool]]
    items += [lambda b, w, x=x: _marker(b, w, x) for x in pools.MARKERS[pool]]
    return items


def _opening(builder: _Builder, writer: SessionWriter) -> None:
    writer.meta_line("permission-mode", permissionMode="default")
    writer.snapshot()
    language, text = builder.rng.choice(_noise_pool(builder.pool))
    uuid = writer.user(text)
    builder.noise(writer, "chat", uuid)
    writer.assistant("Sure, let me look.")
    writer.tool_call("Read", {"file_path": "/work/project/README.md"}, "# Project\nA small service.")
    writer.assistant("Here is what I found.")
    writer.system("turn_duration", durationMs=1200)


def _noise_pool(pool: str) -> list[tuple[str, str]]:
    return pools.HOLDOUT_NOISE_TEXTS + pools.NOISE_TEXTS if pool == "holdout" else pools.NOISE_TEXTS


def _noise_turn(builder: _Builder, writer: SessionWriter) -> None:
    language, text = builder.rng.choice(_noise_pool(builder.pool))
    builder.noise(writer, "chat", writer.user(text))
    writer.assistant("Okay.")
    writer.tool_call(
        "Edit", {"file_path": "/work/project/src/app.py", "old_string": "a", "new_string": "b"}, "ok"
    )


def _correction(builder: _Builder, writer: SessionWriter, item: tuple[Any, ...]) -> None:
    language, tool, tool_input, text, key, layer = item
    writer.tool_call(tool, tool_input, "done")
    writer.assistant("Done.")
    builder.plant(writer, "correction", language, writer.user(text), key, layer)
    writer.assistant("Understood, fixing it.")


def _remember(builder: _Builder, writer: SessionWriter, item: tuple[Any, ...]) -> None:
    language, text, key, layer = item
    builder.plant(writer, "remember", language, writer.user(text), key, layer)
    writer.assistant("Noted.")


def _decision(builder: _Builder, writer: SessionWriter, item: tuple[Any, ...]) -> None:
    language, text, key = item
    writer.assistant("We could use either option; both work here.")
    builder.plant(writer, "decision", language, writer.user(text), key, "L1")
    writer.assistant("Agreed, going with that.")


def _rejection(builder: _Builder, writer: SessionWriter, item: tuple[Any, ...]) -> None:
    language, tool, tool_input, reason, follow_up, key = item
    _, ids = writer.assistant("Running it now.", tools=[(tool, tool_input)])
    if reason:
        builder.plant(writer, "rejection", language, writer.reject(ids[0], reason), key)
    else:
        writer.reject(ids[0])
        writer.interrupt()
        builder.plant(writer, "rejection", language, writer.user(follow_up), key)
    writer.assistant("Understood.")


def _error_fix(builder: _Builder, writer: SessionWriter, item: tuple[Any, ...]) -> None:
    failed, error, fixed, key = item
    writer.tool_call("Bash", {"command": failed}, f"Exit code 1\n{error}", is_error=True)
    writer.assistant("That flag is wrong; retrying.")
    _, anchor = writer.tool_call("Bash", {"command": fixed}, "ok")
    builder.plant(writer, "error-fix", "en", anchor, key)


def _marker(builder: _Builder, writer: SessionWriter, item: tuple[Any, ...]) -> None:
    language, text, key = item
    writer.tool_call("Bash", {"command": "make check"}, "all good")
    anchor, _ = writer.assistant(text)
    builder.plant(writer, "marker", language, anchor, key)


def _structural_noise(builder: _Builder, writer: SessionWriter) -> None:
    """Machine-written text with cue words, failures that teach nothing, a rewound branch, a secret."""
    choice = builder.rng.sample(_STRUCTURAL, k=3)
    for make in choice:
        make(builder, writer)


def _slash_command(builder: _Builder, writer: SessionWriter) -> None:
    writer.slash_command("status", "wrong branch? no, remember to always pull first")
    builder.noise(writer, "local-command", forbidden="pull first")


def _system_reminder(builder: _Builder, writer: SessionWriter) -> None:
    uuid = writer.user("<system-reminder>Remember: never use emojis in commit messages.</system-reminder>")
    builder.noise(writer, "system-reminder", uuid, forbidden="emojis")


def _meta_prompt(builder: _Builder, writer: SessionWriter) -> None:
    uuid = writer.user("No, don't use the cache; always rebuild from scratch instead.", meta=True)
    builder.noise(writer, "meta", uuid, forbidden="rebuild from scratch")


def _tool_output(builder: _Builder, writer: SessionWriter) -> None:
    _, uuid = writer.tool_call("Bash", {"command": "cat CONTRIBUTING.md"},
                               "No, don't use tabs. Always use spaces instead of tabs. Remember that!")  # fmt: skip
    builder.noise(writer, "tool-output", uuid, forbidden="tabs")


def _compaction(builder: _Builder, writer: SessionWriter) -> None:
    writer.compact("1. The user said: no, use yarn instead of npm. Remember to run lint.\n2. Work continued.")
    builder.noise(writer, "compaction-summary", forbidden="yarn")
    writer.assistant("Continuing where we left off.")


def _rewind(builder: _Builder, writer: SessionWriter) -> None:
    fork = writer.leaf
    uuid = writer.user("no, always use gitflow branches instead of trunk-based development")
    writer.assistant("Okay, switching to gitflow.")
    builder.noise(writer, "rewound-branch", uuid, forbidden="gitflow")
    writer.leaf = fork
    writer.user("let's look at the API handlers next")
    writer.assistant("Looking at them.")


def _failing_tests(builder: _Builder, writer: SessionWriter) -> None:
    writer.tool_call(
        "Bash",
        {"command": "make test"},
        "Exit code 2\nFAILED tests/test_api.py::test_get - assert 1 == 2",
        is_error=True,
    )
    writer.tool_call("Edit", {"file_path": "/work/project/api.py", "old_string": "x", "new_string": "y"},
                     "<tool_use_error>String to replace not found in file.</tool_use_error>", is_error=True)  # fmt: skip
    writer.tool_call(
        "Edit", {"file_path": "/work/project/api.py", "old_string": "1", "new_string": "2"}, "ok"
    )
    _, uuid = writer.tool_call("Bash", {"command": "make test 2>&1 | tail -5"}, "12 passed")
    builder.noise(writer, "retry-after-code-fix", uuid)


def _exploration(builder: _Builder, writer: SessionWriter) -> None:
    writer.tool_call(
        "Bash",
        {"command": "cat docs/setup.md"},
        "cat: docs/setup.md: No such file or directory",
        is_error=True,
    )
    _, uuid = writer.tool_call("Bash", {"command": "cat docs/install.md"}, "# Install")
    builder.noise(writer, "exploration", uuid)


def _secret(builder: _Builder, writer: SessionWriter) -> None:
    token = "ghp_" + "".join(builder.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(36))
    uuid = writer.user(f"remember that the deploy token is {token}")
    writer.assistant("Noted.")
    builder.noise(writer, "secret", uuid, forbidden=token)


def _interrupt(builder: _Builder, writer: SessionWriter) -> None:
    writer.assistant("Let me refactor everything.", tools=[("Bash", {"command": "make refactor"})])
    builder.noise(writer, "interrupt", writer.interrupt(for_tool=False))


def _task_notification(builder: _Builder, writer: SessionWriter) -> None:
    uuid = writer.user(
        "<task-notification>\n<summary>Build wrong: never use cached layers</summary>\n</task-notification>"
    )
    builder.noise(writer, "task-notification", uuid, forbidden="cached layers")


_STRUCTURAL = [_slash_command, _system_reminder, _meta_prompt, _tool_output, _compaction, _rewind, _failing_tests,
               _exploration, _secret, _interrupt, _task_notification]  # fmt: skip


def _repeats(builder: _Builder) -> None:
    """The same lesson in other sessions (differently worded), plus its first statement."""
    language, tool, tool_input, texts, key = pools.REPEATS[builder.pool]
    for planted in builder.devset.planted:
        if planted.kind == "correction" and planted.key == key:
            planted.group = "repeat"
    for text in texts:
        writer = builder.session()
        _opening(builder, writer)
        writer.tool_call(tool, tool_input, "done")
        builder.plant(writer, "correction", language, writer.user(text), key, group="repeat")
        writer.assistant("Right, switching.")
        write_session(builder.devset.directory, writer)


def _subagent_session(builder: _Builder) -> None:
    """A session with a subagent: its prompt is the main agent's words; its marker is a real signal."""
    writer = builder.session()
    _opening(builder, writer)
    _, ids = writer.assistant(
        "Delegating.", tools=[("Agent", {"prompt": "explore", "subagent_type": "Explore"})]
    )
    writer.tool_result(ids[0], "[Subagent hand-back] done")
    write_session(builder.devset.directory, writer)
    agent = SessionWriter(writer.session_id, style=writer.style, rng=builder.rng, agent_id="a1b2c3d")
    uuid = agent.user("No, don't read the vendored code; always skip the vendor/ directory instead.")
    builder.noise(agent, "subagent-prompt", uuid, forbidden="vendor")
    agent.tool_call("Grep", {"pattern": "retry"}, "src/net.py:12")
    anchor, _ = agent.assistant(
        "<!-- learning: Retries live in src/net.py; the backoff base is read from RETRY_BASE_MS. -->"
    )
    builder.plant(agent, "marker", "en", anchor, "RETRY_BASE_MS")
    write_session(builder.devset.directory, agent)
