"""`--since WHEN`: an ISO date or time, or an age back from now such as `7d`, `12h`, `2w`, `30m`."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from .errors import UsageError

_AGE = re.compile(r"^\s*(\d+)\s*(m|min|h|d|w)\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "min": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(value: str, now: datetime | None = None) -> datetime:
    """An aware UTC datetime (a date alone means its midnight UTC); ValueError for anything else."""
    now = now or datetime.now(UTC)
    age = _AGE.match(value)
    if age:
        return now - timedelta(**{_UNITS[age.group(2).lower()]: int(age.group(1))})
    parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def since_option(value: str) -> datetime:
    """`parse_since` for a command-line option: a usage error that says what is accepted."""
    try:
        return parse_since(value)
    except ValueError:
        raise UsageError(
            f"--since: cannot read {value!r} (use an ISO date like 2026-11-01, or 7d, 12h, 2w)"
        ) from None
