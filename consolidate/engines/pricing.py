"""List prices for the model ids the anthropic engine supports, and usage accounting.

USD per million tokens. The table mirrors what the Claude Code CLI 2.1.332 charges for the same ids, so
both LLM engines report the same cost for the same tokens. Cache reads cost 0.1× the input price and
cache writes (5-minute) 1.25×. A model id not in the table (nor a dated variant of one, such as
`claude-sonnet-4-5-20250929`) is reported with cost 0 — the tokens are still counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import Usage

ALIASES = {"opus": "claude-opus-5-5", "sonnet": "claude-sonnet-5-5", "haiku": "claude-haiku-5-5"}


@dataclass(frozen=True)
class Price:
    input: float
    output: float

    @property
    def cache_read(self) -> float:
        return self.input * 0.1

    @property
    def cache_write(self) -> float:
        return self.input * 1.25


PRICES = {
    "claude-opus-5-5": Price(4.0, 20.0),
    "claude-sonnet-5-5": Price(2.0, 10.0),
    "claude-haiku-5-5": Price(0.5, 0.5),
    "claude-opus-4-5": Price(5.0, 25.0),
    "claude-sonnet-4-5": Price(3.0, 15.0),
    "claude-haiku-4-5": Price(1.0, 5.0),
}


def model_id(name: str) -> str:
    """A full model id for an alias (`sonnet` → `claude-sonnet-5-5`); full ids pass through."""
    return ALIASES.get(name, name)


def price_of(model: str) -> Price | None:
    model = model_id(model)
    if model in PRICES:
        return PRICES[model]
    for known, price in PRICES.items():
        if model.startswith(known + "-"):
            return price
    return None


def cost_usd(usage: Usage) -> float:
    price = price_of(usage.model)
    if price is None:
        return 0.0
    total = (
        usage.input_tokens * price.input
        + usage.output_tokens * price.output
        + usage.cache_read_tokens * price.cache_read
        + usage.cache_write_tokens * price.cache_write
    )
    return round(total / 1_000_000, 6)


def add_response_usage(usage: Usage, response_usage: Any, model: str) -> None:
    """Add one Messages API response's `usage` to the running total (tokens, turns, model, cost)."""
    usage.input_tokens += getattr(response_usage, "input_tokens", 0) or 0
    usage.output_tokens += getattr(response_usage, "output_tokens", 0) or 0
    usage.cache_read_tokens += getattr(response_usage, "cache_read_input_tokens", 0) or 0
    usage.cache_write_tokens += getattr(response_usage, "cache_creation_input_tokens", 0) or 0
    usage.turns += 1
    usage.model = model or usage.model
    usage.cost_usd = cost_usd(usage)
