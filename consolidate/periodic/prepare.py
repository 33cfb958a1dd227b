"""`consolidate dream --prepare`: a dream that applies nothing and keeps its plan for `consolidate review`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from ..settings import Settings
from .pending import save_pending
from .store import REMOVALS, recorded_part

if TYPE_CHECKING:
    from ..dream.run import MadePlan


def keep_pending(settings: Settings, made: MadePlan, *, out: TextIO, engine: str | None) -> dict:
    """Save the plan as the memory dir's pending plan (replacing an older one) and say so in one line.
    `engine` is the engine as it was asked for: a stale plan is rebuilt with the same one."""
    extra = {"engine_spec": engine, "settled": made.settled}  # backlog learnings found recorded
    summary = save_pending(settings, made.plan, settle_queue=made.settle_queue, extra=extra)
    out.write(prepared_line(summary) + "\n")
    return summary


def prepared_line(summary: dict) -> str:
    total = summary["proposals"]
    if not total and summary.get("already_recorded"):
        return (
            f"pending plan saved: nothing to decide ({recorded_part(summary)[2:]}); "
            "`consolidate review` records the run"
        )
    if not total:
        return "pending plan saved: no proposals (memory is consistent); `consolidate review` records the run"
    by_action = summary["by_action"]
    actions = ", ".join(f"{n} {action}" for action, n in by_action.items())
    removals = sum(by_action.get(a, 0) for a in REMOVALS)
    usage = summary.get("usage")
    cost = (
        f"; {usage['input_tokens']} input + {usage['output_tokens']} output tokens, ${usage['cost_usd']:.4f}"
        if usage
        else ""
    )
    return (
        f"pending plan saved: {total} proposal(s) to decide ({actions}; {removals} removal(s)"
        f"{recorded_part(summary)}){cost} — "
        "nothing was applied; see it with `consolidate review`"
    )
