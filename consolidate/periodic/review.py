"""`consolidate review`: the pending plan, reviewed exactly as `consolidate dream` reviews its own.

A plan whose files changed since it was made is rebuilt first (a fresh `--prepare`, saying so). Once a
person decided — approved all, some, or none — the pending plan is gone: what was applied is journaled,
what was not comes back from the sessions, the auditor or the backlog on the next run, as after a dream.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TextIO

from ..dream.run import DreamOptions, DreamResult, MadePlan, make_plan, settle_plan
from ..engines import get_engine
from ..errors import ConsolidateError
from ..progress import Progress
from ..review import Ask
from ..runs import writing_run
from ..settings import Settings
from .pending import PendingPlan, load_pending, staleness, to_decide, total_usage
from .prepare import keep_pending
from .store import recorded_part

NO_PLAN = (
    "no pending plan for {memory}: `consolidate dream --prepare` makes one (or run `consolidate dream`)\n"
)


def review_pending(
    settings: Settings,
    options: DreamOptions,
    *,
    out: TextIO,
    err: TextIO,
    stdin: TextIO,
    ask: Ask | None = None,
    reject: bool = False,
) -> DreamResult | None:
    """Show and settle the pending plan (`reject`: reject all of it); None when there is none."""
    shown = err if options.json else out
    with writing_run(settings, dry=options.dry_run):
        pending = load_pending(settings)
        if pending is None:
            err.write(NO_PLAN.format(memory=settings.memory_dir))
            return None
        made = _current(settings, pending, options, out=out, err=err)
        rebuilt = made.plan is not pending.plan
        shown.write(header(made) + "\n\n")
        if rebuilt and (options.yes or options.only is not None or options.retire or reject):
            # ids and "all" were chosen on the old plan: never apply them to proposals nobody has seen
            settle_plan(
                settings, made, replace(options, yes=False, only=None, dry_run=True), out=shown, stdin=stdin
            )
            raise ConsolidateError(
                "the pending plan was rebuilt, so nothing was applied: its proposals may differ from the ones "
                "--yes/--only/--retire/--reject was chosen on; read them above and run `consolidate review` again"
            )
        if reject:  # a decision like any other: nothing applied, the learnings rejected
            options, ask = replace(options, json=False, retire=options.retire or []), lambda _: "r"
        result = settle_plan(settings, made, options, out=shown, stdin=stdin, ask=ask)
        if not result.decided and not options.dry_run:
            shown.write("the pending plan is kept: `consolidate review` shows it again\n")
        return result


def _current(
    settings: Settings, pending: PendingPlan, options: DreamOptions, *, out: TextIO, err: TextIO
) -> MadePlan:
    """The pending plan, or a fresh one in its place when the files it was made from changed."""
    stale = staleness(pending, settings)
    if not stale:
        if options.json:
            out.write(pending.plan.to_json())
        settled = [str(key) for key in pending.extra.get("settled") or []]
        return MadePlan(pending.plan, None, pending.settle_queue, settled=settled)
    engine_spec = options.engine or pending.extra.get("engine_spec")
    engine = get_engine(engine_spec)
    err.write(
        f"the pending plan of {pending.plan.created_at} is out of date ({stale.describe()}); "
        f"preparing a new one with the {engine.name} engine…\n"
    )
    made = make_plan(settings, replace(options, engine=engine_spec), engine, Progress(err), out=out)
    if not options.dry_run:  # a dry run writes nothing, not even a pending plan
        keep_pending(settings, made, out=err, engine=engine_spec)
    return made


def header(made: MadePlan) -> str:
    """Where the plan comes from: when, which engine, what it cost."""
    plan = made.plan
    usage = total_usage(plan)
    cost = (
        f"; {usage['input_tokens']} input + {usage['output_tokens']} output tokens, ${usage['cost_usd']:.4f}"
        if usage
        else ""
    )
    deciding, recorded = to_decide(plan)
    aside = recorded_part({"already_recorded": len(recorded)})
    return (
        f"## Pending plan of {plan.created_at} ({plan.engine} engine{cost}): "
        f"{len(deciding)} proposal(s) to decide{aside}"
    )
