"""Regexes compiled on first use. Compiling the discoverer's and the secret layer's patterns takes longer
than a scan with nothing new or a hook call needs in all: a module declares its patterns with `lazy`,
and each one is compiled the first time it runs. Standard library only (the hooks use it).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any

_METHODS = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer")


class _LazyPattern:
    """Stands in for a `re.Pattern` until first used; then its methods are the compiled pattern's own
    (set on the instance, so later calls cost no more than on the pattern itself)."""

    def __init__(self, source: str, flags: int) -> None:
        self.pattern = source
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = self.__dict__["_compiled"] = re.compile(self.pattern, self.flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """A pattern compiled the first time one of its methods is called (typed as the pattern it becomes)."""
    pattern: re.Pattern[str] = _LazyPattern(source, int(flags))  # type: ignore[assignment]
    return pattern
