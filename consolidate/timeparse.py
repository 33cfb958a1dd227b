"""`--since WHEN`: an ISO date or time, or a span back from now such as `7d`, `12h`, `2w`."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from .errors import UsageError

_SPAN = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$", re.IGNORECASE)
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(value: str, now: datetime | None = None) -> datetime:
    """An aware UTC datetime; a date alone means its midnight UTC."""
    now = now or datetime.now(UTC)
    span = _SPAN.match(value)
    if span:
        return now - timedelta(**{_UNITS[span.group(2).lower()]: int(span.group(1))})
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(
            f"--since: cannot read {value!r} (use an ISO date like 2026-11-01, or 7d, 12h, 2w)"
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
