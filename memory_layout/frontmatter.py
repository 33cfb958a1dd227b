"""Topic-file frontmatter in both styles: flat `type:` and nested `metadata: {type, ...}`.

The raw text is kept as it was; values are read as YAML reads them. Unknown keys are never dropped
because rewrites start from the raw text, and new files get their frontmatter from `render_frontmatter`.

Most frontmatter is a few flat `key: plain text` lines (ours and Claude Code's): those are read
without the YAML parser, which costs about a millisecond a file; anything else (quotes, nesting,
lists, comments, a value YAML would read as a number, date, boolean or null) goes to `yaml.safe_load`,
so the result is the same either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

MEMORY_TYPES = ("user", "feedback", "project", "reference")


@dataclass
class Frontmatter:
    raw: str
    data: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def name(self) -> str | None:
        return _text(self.data.get("name"))

    @property
    def description(self) -> str | None:
        return _text(self.data.get("description"))

    @property
    def type(self) -> str | None:
        """The memory type from `type:` or `metadata.type`."""
        direct = _text(self.data.get("type"))
        if direct:
            return direct
        metadata = self.data.get("metadata")
        return _text(metadata.get("type")) if isinstance(metadata, dict) else None


def _text(value: object) -> str | None:
    return None if value is None else str(value)


_FLAT_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*): +([^\s\-?:,\[\]{}#&*!|>'\"%@`][^\t]*)")
# What PyYAML's reader refuses (a control character) and the line breaks it knows besides \n.
_NOT_PLAIN = re.compile("[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")
_RESOLVERS = yaml.SafeLoader.yaml_implicit_resolvers


def _plain_string(text: str) -> bool:
    """Whether YAML reads `text`, a plain scalar on one line, as that very string (not a number, date,
    boolean, null, merge key, or the end of a mapping)."""
    if text.endswith(":") or ": " in text or " #" in text:
        return False
    return not any(pattern.match(text) for _, pattern in _RESOLVERS.get(text[0], ()))


def flat_frontmatter(inner: str) -> dict[str, str] | None:
    """The frontmatter as a dict when every line is `key: plain text` (distinct keys), else None —
    exactly what `yaml.safe_load` gives for such text."""
    data: dict[str, str] = {}
    for line in inner.split("\n"):
        if not line:
            continue
        match = _FLAT_LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match[1], match[2].rstrip(" ")
        if key in data or _NOT_PLAIN.search(value) or not _plain_string(key) or not _plain_string(value):
            return None
        data[key] = value
    return data if data else None


def parse_frontmatter(raw: str, inner: str) -> Frontmatter:
    """Parse the YAML between the fences; a problem is recorded, never raised."""
    flat = flat_frontmatter(inner)
    if flat is not None:
        return Frontmatter(raw, flat)
    return yaml_frontmatter(raw, inner)


def yaml_frontmatter(raw: str, inner: str) -> Frontmatter:
    """`parse_frontmatter` through the YAML parser alone."""
    try:
        data = yaml.safe_load(inner) if inner.strip() else {}
    except RecursionError:
        return Frontmatter(raw, {}, "broken frontmatter: nested too deeply to read")
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        return Frontmatter(raw, {}, f"broken frontmatter{where}: {problem}")
    if not isinstance(data, dict):
        return Frontmatter(raw, {}, "broken frontmatter: expected key: value pairs")
    return Frontmatter(raw, data)


def render_frontmatter(data: dict[str, Any], newline: str = "\n") -> str:
    """Frontmatter text for a new file, keys in the given order."""
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return newline.join(["---", *body.rstrip("\n").split("\n"), "---", ""])
