"""`consolidate doctor`: the self-audit of a memory setup, one small check per function.

Each check reads what it needs through `DoctorContext` and returns one `Check` (pass / warn / fail,
with a one-line fix). A warn is advice: it counts against `passed` but not against the exit code.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime

from ..settings import Settings
from .context import DoctorContext
from .hooks_check import hooks_installed_once, hooks_runnable
from .memory_checks import (
    imports_exist,
    imports_on_demand,
    memory_index_budget,
    memory_pointers,
    memory_readable,
    no_secrets,
    orphan_topics,
    project_claude_md_size,
    user_claude_md_size,
)
from .report import Check, DoctorReport
from .setup_checks import (
    config_valid,
    consolidation_recent,
    gitignore_secrets,
    guard_lessons,
    handoff_fresh,
    queue_not_stuck,
    recall_index,
)

CheckFunction = Callable[[DoctorContext], Check]
CHECKS: tuple[CheckFunction, ...] = (
    user_claude_md_size,
    project_claude_md_size,
    memory_index_budget,
    memory_pointers,
    orphan_topics,
    memory_readable,
    no_secrets,
    imports_exist,
    imports_on_demand,
    gitignore_secrets,
    hooks_installed_once,
    hooks_runnable,
    guard_lessons,
    queue_not_stuck,
    consolidation_recent,
    handoff_fresh,
    config_valid,
    recall_index,
)


def run_doctor(
    settings: Settings, now: datetime | None = None, checks: tuple[CheckFunction, ...] = CHECKS
) -> DoctorReport:
    ctx = DoctorContext(settings, now or datetime.now(UTC), dict(os.environ))
    report = DoctorReport(str(settings.layout.project), str(settings.memory_dir))
    for check in checks:
        try:
            report.checks.append(check(ctx))
        except Exception as exc:  # one broken check must not hide the others
            name = check.__name__.replace("_", "-")
            report.checks.append(Check(name, "fail", f"the check could not run: {type(exc).__name__}: {exc}",
                                       "a bug in consolidate: please report it with CONSOLIDATE_DEBUG=1 output"))  # fmt: skip
            if os.environ.get("CONSOLIDATE_DEBUG"):
                raise
    return report


__all__ = ["CHECKS", "Check", "DoctorContext", "DoctorReport", "run_doctor"]
