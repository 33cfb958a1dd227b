"""The JSON schemas the LLM agents must answer in, generated from the report models.

`usage` is ours to fill, so it is left out, and so is a candidate's `layer` (the older reports' form of
`layers`). The schemas are shaped for structured output on the API: every object closes with
`additionalProperties: false`, and the keywords structured output does not enforce (length and range
bounds, defaults, titles) are dropped — the report models still validate them.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..models import AuditReport, DiscoveryReport
from .base import AUDITOR, AgentName

_UNENFORCED = frozenset(
    {
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "default",
        "title",
    }
)


@cache
def _schema(agent: AgentName) -> str:
    model = AuditReport if agent == AUDITOR else DiscoveryReport
    schema = model.model_json_schema()
    schema["properties"].pop("usage", None)
    schema.get("$defs", {}).pop("Usage", None)
    # `layer` is kept for reports written before `layers`; agents answer with `layers` alone.
    schema.get("$defs", {}).get("Candidate", {}).get("properties", {}).pop("layer", None)
    return json.dumps(_strict(schema), sort_keys=True)


def report_schema(agent: AgentName) -> dict[str, Any]:
    """A fresh copy of the schema of `agent`'s report."""
    schema: dict[str, Any] = json.loads(_schema(agent))
    return schema


def schema_text(agent: AgentName) -> str:
    """The schema as compact JSON, for a prompt."""
    return _schema(agent)


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    shaped = {key: _strict(value) for key, value in node.items() if key not in _UNENFORCED}
    if "properties" in node:
        shaped["properties"] = {name: _strict(value) for name, value in node["properties"].items()}
        shaped["additionalProperties"] = False
    return shaped
