"""Topic-file frontmatter in both styles: flat `type:` and nested `metadata: {type, ...}`.

The raw text is kept as it was; values are read through YAML. Unknown keys are never dropped because
rewrites start from the raw text, and new files get their frontmatter from `render_frontmatter`.
"""

from __future__ import annotations

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


def parse_frontmatter(raw: str, inner: str) -> Frontmatter:
    """Parse the YAML between the fences; a problem is recorded, never raised."""
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
