"""Versions as memories state them ("2.x", "v18", "3.11") and as manifests constrain them
(">=2.10,<3", "^18.2.0", "~=3.11", "1.22"), and whether the two can both be true."""

from __future__ import annotations

import re
from dataclasses import dataclass

Version = tuple[int, ...]
_NUMBER = re.compile(r"\d+(?:\.\d+)*")


def parse_version(text: str) -> Version | None:
    """`2.x` → (2,); `v18` → (18,); `3.11.2` → (3, 11, 2); None when there is no number."""
    match = re.match(r"^\s*v?(\d+(?:\.\d+)*)", text.strip())
    return tuple(int(p) for p in match.group(1).split(".")) if match else None


@dataclass(frozen=True)
class Range:
    """Allowed versions: `lower <= v < upper` (either bound may be open)."""

    lower: Version | None = None
    upper: Version | None = None
    source: str = ""  # the spec as written in the manifest

    def representative(self) -> Version | None:
        """The version to write in a corrected memory: the lower bound, else nothing."""
        return self.lower


def parse_spec(spec: str, *, bare: str = "exact") -> Range:
    """A manifest constraint as a range. `bare` says what a bare version means: `exact` (pip, npm,
    .nvmrc), `caret` (Cargo, Poetry) or `minimum` (go.mod, `go` directive)."""
    lower: Version | None = None
    upper: Version | None = None
    for part in re.split(r"\s*(?:,|\s)\s*", spec.strip()):
        if not part or part in ("*", "x", "latest"):
            continue
        op_match = re.match(r"^(===|==|>=|<=|~=|!=|>|<|\^|~|=)?\s*v?(.*)$", part)
        if not op_match:
            continue
        op, rest = op_match.group(1) or "", op_match.group(2)
        version = parse_version(rest)
        if version is None or op == "!=":
            continue
        op = op or {"exact": "==", "caret": "^", "minimum": ">="}[bare]
        low, high = _bounds(op, version, wildcard=bool(re.search(r"\.[x*]", rest)))
        lower = low if low is not None and (lower is None or _cmp(low, lower) > 0) else lower
        upper = high if high is not None and (upper is None or _cmp(high, upper) < 0) else upper
    return Range(lower, upper, spec.strip())


def _bounds(op: str, version: Version, *, wildcard: bool) -> tuple[Version | None, Version | None]:
    if op in ("==", "===", "="):
        return version, _bump(version, len(version) - 1)
    if op in (">=", ">"):
        return version, None
    if op in ("<", "<="):
        return None, version if op == "<" else _bump(version, len(version) - 1)
    if op == "^":
        position = next((i for i, part in enumerate(version) if part), len(version) - 1)
        return version, _bump(version, position)
    if op == "~":
        return version, _bump(version, min(1, len(version) - 1))
    if op == "~=":
        return version, _bump(version, max(0, len(version) - 2))
    return version, None


def _bump(version: Version, position: int) -> Version:
    return (*version[:position], version[position] + 1)


def _cmp(a: Version, b: Version) -> int:
    width = max(len(a), len(b))
    left, right = a + (0,) * (width - len(a)), b + (0,) * (width - len(b))
    return (left > right) - (left < right)


def compatible(stated: str, allowed: Range) -> bool | None:
    """Whether a stated version ("2.x" = every 2.*) overlaps the allowed range; None if unknowable."""
    version = parse_version(stated)
    if version is None or (allowed.lower is None and allowed.upper is None):
        return None
    low, high = version, _bump(version, len(version) - 1)
    if allowed.upper is not None and _cmp(low, allowed.upper) >= 0:
        return False
    return not (allowed.lower is not None and _cmp(high, allowed.lower) <= 0)


def conflicting(a: str, b: str) -> bool:
    """Two stated versions of the same thing that cannot both hold (2.x vs 1.9; not 2 vs 2.4)."""
    left, right = parse_version(a), parse_version(b)
    if left is None or right is None:
        return False
    width = min(len(left), len(right))
    return left[:width] != right[:width]


def restate(stated: str, allowed: Range) -> str | None:
    """`stated` rewritten to agree with `allowed`, in the same style ("1.x" → "2.x", "v16" → "v20")."""
    target = allowed.representative()
    if target is None:
        return None
    precision = len(parse_version(stated) or (0,))
    prefix = "v" if stated.strip().startswith("v") else ""
    numbers = ".".join(str(part) for part in (target + (0,) * precision)[:precision])
    suffix = ".x" if re.search(r"\.[x*]$", stated) else ""
    return f"{prefix}{numbers}{suffix}"
