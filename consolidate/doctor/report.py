"""What the doctor reports: one result per check, and the tally."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["pass", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    """One check's verdict: `detail` says what was found, `fix` (for warn/fail) what to do, in one line."""

    id: str
    status: Status
    detail: str
    fix: str = ""

    @classmethod
    def ok(cls, id: str, detail: str) -> Check:
        return cls(id, "pass", detail)


@dataclass
class DoctorReport:
    project: str
    memory_dir: str
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(1 for c in self.checks if c.status == "pass")

    @property
    def failed(self) -> bool:
        return any(c.status == "fail" for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "memory_dir": self.memory_dir,
            "checks": [asdict(c) for c in self.checks],
            "passed": self.passed,
            "total": len(self.checks),
        }
