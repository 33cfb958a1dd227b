"""Episodes and the append-only log that records them.

The log is JSONL. A line without `op` is an episode as captured (the seed engine's format, so its
files read as they are); a line with `op` is a later event about one episode: `bump` (seen again) or
`status` (promoted, archived, active). Reading folds the events onto the episodes in file order.
"""

from __future__ import annotations

import re

from ..plain import Frozen, Plain, asdict

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

IMPACT = {"critical": 1.0, "high": 0.7, "medium": 0.4, "low": 0.1}
TYPES = ("correction", "insight", "knowledge_gap")
STATUSES = ("active", "promoted", "archived")
_EPISODE_KEYS = {
    "id", "ts", "type", "source", "context", "error", "rule", "why", "impact", "tags", "freq", "status",
    "last_seen", "trigger", "origin", "confirmed",
}  # fmt: skip


_PROBE_COMMANDS = ("", "ls", "git status", "echo hello", "make test", "cd /tmp && ls -la", "python3 -V")


class Trigger(Frozen):
    """When a lesson is injected before a tool call; every field given must match."""

    __slots__ = FIELDS = ("tool", "command", "path", "project", "guard")
    tool: str  # regex on the tool name, e.g. "Bash" or "Edit|Write"
    command: str  # regex searched in tool_input.command
    path: str  # glob on tool_input.file_path / path / notebook_path
    project: str  # the call's cwd must be inside this directory
    guard: bool  # deny the call instead of advising

    def __init__(
        self, tool: str = "", command: str = "", path: str = "", project: str = "", guard: bool = False
    ) -> None:
        self._set(tool=tool, command=command, path=path, project=project, guard=guard)

    @property
    def is_empty(self) -> bool:
        return not (self.tool or self.command or self.path)

    @property
    def fields(self) -> tuple[str, str, str, str]:
        """What a call must match, as the lesson manifest keeps it: (tool, command, path, project)."""
        return (self.tool, self.command, self.path, self.project)

    def problem(self) -> str | None:
        """Why this trigger cannot work (a regex that does not compile, a guard that would deny
        everything), or None."""
        for name, pattern in (("tool", self.tool), ("command", self.command)):
            if pattern:
                try:
                    re.compile(pattern)
                except re.error as exc:
                    return f"trigger {name} {pattern!r} is not a valid regex: {exc}"
        if self.guard and self.matches_everything():
            return (
                "a guard lesson must name the command or path it stops; this one would deny every "
                f"{self.tool or 'tool'} call"
            )
        return None

    def matches_everything(self) -> bool:
        """Whether the trigger fires on any call of its tool: no command or path to tell calls apart,
        a command regex that every probe command matches, or a path glob of wildcards only."""
        if self.path:
            return not re.sub(r"[*?/.\[\]!]", "", self.path)
        if not self.command:
            return True
        pattern = re.compile(self.command)
        return all(pattern.search(probe) for probe in _PROBE_COMMANDS)

    @classmethod
    def from_record(cls, raw: object) -> Trigger | None:
        if not isinstance(raw, dict):
            return None
        values = {key: str(raw.get(key) or "") for key in ("tool", "command", "path", "project")}
        trigger = cls(**values, guard=_truthy(raw.get("guard")))
        return None if trigger.is_empty and not trigger.project else trigger

    def to_record(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if value}


class Episode(Plain):
    __slots__ = FIELDS = (
        "id", "ts", "rule", "type", "source", "context", "error", "why", "impact", "tags", "freq", "status",
        "last_seen", "trigger", "origin", "confirmed", "extra",
    )  # fmt: skip

    def __init__(
        self,
        id: str,  # noqa: A002 - the episode's key
        ts: str,
        rule: str,
        type: str = "correction",  # noqa: A002 - the episode's key
        source: str = "owner",
        context: str = "",
        error: str = "",
        why: str = "",
        impact: str = "medium",
        tags: list[str] | None = None,
        freq: int = 1,
        status: str = "active",
        last_seen: str = "",
        trigger: Trigger | None = None,
        origin: str = "",  # the marker id a lesson block was captured from
        confirmed: bool = True,  # False for a lesson the assistant wrote: its guard waits for the user
        extra: dict[str, Any] | None = None,  # keys we do not know, kept as written
    ) -> None:
        self.id = id
        self.ts = ts
        self.rule = rule
        self.type = type
        self.source = source
        self.context = context
        self.error = error
        self.why = why
        self.impact = impact
        self.tags = [] if tags is None else tags
        self.freq = freq
        self.status = status
        self.last_seen = last_seen
        self.trigger = trigger
        self.origin = origin
        self.confirmed = confirmed
        self.extra = {} if extra is None else extra

    @property
    def guards(self) -> bool:
        """Whether the lesson denies the calls it matches: a guard trigger the user confirmed."""
        return self.trigger is not None and self.trigger.guard and self.confirmed

    @property
    def awaits_confirmation(self) -> bool:
        return self.trigger is not None and self.trigger.guard and not self.confirmed

    @property
    def seen(self) -> str:
        return self.last_seen or self.ts

    @classmethod
    def from_record(cls, raw: dict[str, Any]) -> Episode | None:
        identifier, rule = raw.get("id"), raw.get("rule")
        if not isinstance(identifier, str) or not identifier or not isinstance(rule, str) or not rule.strip():
            return None
        tags = raw.get("tags")
        return cls(
            id=identifier,
            ts=str(raw.get("ts") or ""),
            rule=rule.strip(),
            type=_text(raw, "type", "correction"),
            source=_text(raw, "source", "owner"),
            context=_text(raw, "context"),
            error=_text(raw, "error"),
            why=_text(raw, "why"),
            impact=_choice(raw.get("impact"), IMPACT, "medium"),
            tags=[str(t) for t in tags] if isinstance(tags, list) else [],
            freq=_count(raw.get("freq")),
            status=_choice(raw.get("status"), STATUSES, "active"),
            last_seen=_text(raw, "last_seen"),
            trigger=Trigger.from_record(raw.get("trigger")),
            origin=_text(raw, "origin"),
            confirmed=raw["confirmed"]
            if isinstance(raw.get("confirmed"), bool)
            else raw.get("source") != "marker",
            extra={k: v for k, v in raw.items() if k not in _EPISODE_KEYS and k != "op"},
        )

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "id": self.id, "ts": self.ts, "type": self.type, "source": self.source,
            "context": self.context, "error": self.error, "rule": self.rule, "impact": self.impact,
            "tags": self.tags, "freq": self.freq, "status": self.status,
        }  # fmt: skip
        for key in ("why", "last_seen", "origin"):
            if getattr(self, key):
                record[key] = getattr(self, key)
        if not self.confirmed:
            record["confirmed"] = False
        if self.trigger is not None:
            record["trigger"] = self.trigger.to_record()
        return {**self.extra, **record}


def fold(records: Iterable[dict[str, Any]]) -> dict[str, Episode]:
    """The current episodes, by id, with every event applied in order; bad lines are skipped."""
    episodes: dict[str, Episode] = {}
    for raw in records:
        op = raw.get("op")
        if op is None:
            episode = Episode.from_record(raw)
            if episode is not None and episode.id not in episodes:
                episodes[episode.id] = episode
            continue
        target = episodes.get(str(raw.get("id")))
        if target is None:
            continue
        if op == "bump":
            target.freq += 1
            target.last_seen = str(raw.get("ts") or target.last_seen)
        elif op == "status" and raw.get("status") in STATUSES:
            target.status = str(raw["status"])
        elif op == "confirm":
            target.confirmed = True
    return episodes


def bump_event(identifier: str, ts: str) -> dict[str, Any]:
    return {"op": "bump", "id": identifier, "ts": ts}


def confirm_event(identifier: str, ts: str) -> dict[str, Any]:
    return {"op": "confirm", "id": identifier, "ts": ts}


def status_event(identifier: str, status: str, ts: str) -> dict[str, Any]:
    return {"op": "status", "id": identifier, "status": status, "ts": ts}


def _text(raw: dict[str, Any], key: str, default: str = "") -> str:
    value = raw.get(key)
    return value.strip() if isinstance(value, str) and value.strip() else default


def _choice(value: object, allowed: Iterable[str], default: str) -> str:
    return value if isinstance(value, str) and value in allowed else default


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 1


def _truthy(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() in ("true", "yes", "1"))
