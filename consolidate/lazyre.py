"""Regexes compiled on first use. Compiling the discoverer's and the secret layer's patterns takes longer
than a scan with nothing new or a hook call needs in all: a module declares its patterns with `lazy`,
and each one is compiled the first time it runs. Standard library only (the hooks use it).

A case-sensitive pattern declared with `prefilter=True` also works out, from its parsed form, the
literal strings one of which every match must contain (`required_literals`): a text holding none of
them is answered without running the regex (`search`, `match` and `fullmatch` give None), so a rule of
many branches costs a few substring tests on most texts. The literals are derived from the pattern
itself, never listed by hand, so they stay right whatever the pattern becomes.

A process that compiles many of them (a scan that reads new records) can `keep_compiled` them: what
compiling a pattern gives the regex engine (its code, groups and prefilter literals) is kept in a file
beside the package's bytecode, written at exit when something new was compiled, and read back by the
next such process, which then builds each pattern from it without parsing or compiling its source.
The file is keyed by the interpreter's version and the engine's; an entry the engine refuses (or a
file that cannot be read) is compiled from the source as usual.
"""

from __future__ import annotations

import re
import sys
from re import _casefix, _parser  # type: ignore[attr-defined]  # the stdlib's own parser of patterns

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any

_METHODS = ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer")


class _LazyPattern:
    """Stands in for a `re.Pattern` until first used; then its methods are the compiled pattern's own
    (set on the instance, so later calls cost no more than on the pattern itself)."""

    def __init__(self, source: str, flags: int, prefilter: bool = False) -> None:
        self.pattern = source
        self.flags = flags
        self._prefilter = prefilter

    def __getattr__(self, name: str) -> Any:
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            compiled, literals = _compile(self.pattern, self.flags, self._prefilter)
            self.__dict__["_compiled"] = compiled
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
            if literals:
                caseless = bool(compiled.flags & re.IGNORECASE)
                for method in ("search", "match", "fullmatch"):
                    setattr(self, method, _prefiltered(getattr(compiled, method), literals, caseless))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(source: str, flags: int | re.RegexFlag = 0, *, prefilter: bool = False) -> re.Pattern[str]:
    """A pattern compiled the first time one of its methods is called (typed as the pattern it becomes).
    With `prefilter`, a text without any of its required literals is not searched at all."""
    pattern: re.Pattern[str] = _LazyPattern(source, int(flags), prefilter)  # type: ignore[assignment]
    return pattern


_Entry = tuple[int, bytes, int, dict[str, int], tuple["str | None", ...], "tuple[str, ...] | None"]


_CODE_TYPE = "I"  # the engine's code units (`_sre.CODESIZE` bytes each)


class _Kept:
    """The compiled patterns kept between processes (see the module): `entries` by (source, flags, prefilter)."""

    path: str | None = None  # None until `keep_compiled`: every pattern is compiled as usual
    entries: dict[tuple[str, int, bool], _Entry] = {}
    new = 0  # entries compiled by this process
    used: set[tuple[str, int, bool]] = set()  # entries this process built a pattern from


KEPT_LIMIT = 2000  # beyond this many entries (patterns since edited), a save keeps only those used


def keep_compiled() -> None:
    """From now on, build lazy patterns from the file of compiled patterns, and save what is compiled
    anew into it at exit (not when the interpreter writes no bytecode)."""
    if _Kept.path is not None:
        return
    import _sre
    import os
    from array import array

    if array(_CODE_TYPE).itemsize != _sre.CODESIZE:
        return

    key = f"{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}-{sys.hexversion:x}"
    _Kept.path = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "__pycache__", f"patterns.{key}.marshal"
    )
    _Kept.entries = _read_kept(_Kept.path)
    if not sys.dont_write_bytecode:
        import atexit

        atexit.register(_save_kept)


def _read_kept(path: str) -> dict[tuple[str, int, bool], _Entry]:
    import marshal

    try:
        with open(path, "rb") as handle:
            entries = marshal.load(handle)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return entries if isinstance(entries, dict) else {}


def _save_kept() -> None:
    """Write the kept patterns (through a temporary file and a rename, so a reader never sees half)."""
    import contextlib
    import marshal
    import os

    path = _Kept.path
    if path is None or not _Kept.new:
        return
    if len(_Kept.entries) > KEPT_LIMIT:
        _Kept.entries = {key: _Kept.entries[key] for key in _Kept.used if key in _Kept.entries}
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temp, "wb") as handle:
            marshal.dump(_Kept.entries, handle)
        os.replace(temp, path)
    except (OSError, ValueError):  # a package dir that cannot be written to: compiled again next time
        with contextlib.suppress(OSError):
            os.unlink(temp)
    _Kept.new = 0


def _compile(source: str, flags: int, prefilter: bool) -> tuple[re.Pattern[str], tuple[str, ...] | None]:
    """The compiled pattern and, with `prefilter`, its required literals: from the kept entry when there
    is one the engine takes, else compiled from the source (and kept, when patterns are kept)."""
    if _Kept.path is None:
        return re.compile(source, flags), required_literals(source, flags) if prefilter else None
    import _sre
    from array import array  # loaded only where patterns are kept: not on the hooks' path

    key = (source, flags, prefilter)
    _Kept.used.add(key)
    entry = _Kept.entries.get(key)
    if entry is not None:
        try:
            final_flags, code, groups, groupindex, indexgroup, literals = entry
            ops = array(_CODE_TYPE, code).tolist()
            return _sre.compile(source, final_flags, ops, groups, groupindex, indexgroup), literals
        except (TypeError, ValueError, RuntimeError):  # not an entry of this engine: compiled again below
            pass
    from re import _compiler  # type: ignore[attr-defined]

    parsed = _parser.parse(source, flags)
    code = _compiler._code(parsed, flags)
    state = parsed.state
    names: list[str | None] = [None] * state.groups
    for name, index in state.groupdict.items():
        names[index] = name
    final_flags, groups, groupindex = flags | state.flags, state.groups - 1, dict(state.groupdict)
    compiled = _sre.compile(source, final_flags, code, groups, groupindex, tuple(names))
    literals = _literals(parsed, flags) if prefilter else None
    packed = array(_CODE_TYPE, code).tobytes()  # read back far faster than a list of ints
    _Kept.entries[key] = (final_flags, packed, groups, groupindex, tuple(names), literals)
    _Kept.new += 1
    return compiled, literals


def _prefiltered(method: Any, literals: tuple[str, ...], caseless: bool) -> Any:
    """`method` (the compiled pattern's search, match or fullmatch), run only on a text holding one of
    the literals; None at once for any other (the regex cannot match it). Called with a start or end
    position, it runs as it is; so it does, for a pattern ignoring case, on a text beyond ASCII (whose
    fold would cost more than the search saves)."""

    def run(string: str, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:
            return method(string, *args, **kwargs)
        if caseless:
            if not string.isascii():
                return method(string)
            string_ = string.lower()
        else:
            string_ = string
        for literal in literals:  # a plain loop: faster than any() over a map or a generator here
            if literal in string_:
                return method(string)
        return None

    return run


_EXACT_LIMIT = 64  # strings kept in an exact set before a part of the pattern counts as open-ended
_CLASS_LIMIT = 8  # the characters of a class, such as [.,;], spelt out as literals
_ZERO_WIDTH = (_parser.AT, _parser.ASSERT, _parser.ASSERT_NOT)
_REPEATS = (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT)

_Info = tuple[
    "frozenset[str] | None", "frozenset[str] | None"
]  # (every string it matches, one of which it holds)


def required_literals(source: str, flags: int = 0) -> tuple[str, ...] | None:
    """Strings one of which occurs in every match of the pattern, or None when there is no such set (a
    match may hold no fixed text). Zero-width parts (anchors, look-arounds) only narrow the matches, so
    they are passed over; classes of a few characters count as those characters; anything else
    open-ended breaks the literal text around it. For a pattern that ignores case the literals are
    folded (`fold`): one of them is then in the folded form of every match."""
    try:
        parsed = _parser.parse(source, flags)
    except (re.error, RecursionError):
        return None
    return _literals(parsed, flags)


def _literals(parsed: Any, flags: int) -> tuple[str, ...] | None:
    """`required_literals` of a parsed pattern."""
    exact, required = _sequence(list(parsed))
    literals = _requirement(exact) if exact is not None else required
    if literals and (flags | parsed.state.flags) & re.IGNORECASE:
        literals = frozenset(map(fold, literals))
    return _shortest_form(literals) if literals else None


# The characters the regex engine takes for one another when it ignores case beyond their lower case
# ("ı" and "i", "ſ" and "s", …), each mapped to the smallest of its kind (an ASCII letter stays itself).
_FOLD = {
    code: min(code, *others) for code, others in _casefix._EXTRA_CASES.items() if min(code, *others) != code
}


def fold(text: str) -> str:
    """The text as the engine compares it when ignoring case: lower case as it lowers one character
    ("İ" is "i", not "i̇"), each look-alike as the smallest of its kind. An ASCII text's fold is its
    lower case."""
    return text.replace("İ", "i").lower().translate(_FOLD)


def _requirement(strings: frozenset[str] | None) -> frozenset[str] | None:
    """The strings as a requirement (one of them is in every match): None when one of them is empty."""
    return None if not strings or "" in strings else strings


def _shortest_form(strings: frozenset[str]) -> tuple[str, ...]:
    """The literals, shortest first, without those holding a shorter one (a text holding the longer
    holds the shorter)."""
    kept: list[str] = []
    for literal in sorted(strings, key=lambda s: (len(s), s)):
        if not any(shorter in literal for shorter in kept):
            kept.append(literal)
    return tuple(kept)


def _better(first: frozenset[str] | None, second: frozenset[str] | None) -> frozenset[str] | None:
    """The more selective requirement: the longer shortest literal, then fewer literals."""
    if first is None or second is None:
        return first if second is None else second
    rank = (min(map(len, first)), -len(first)), (min(map(len, second)), -len(second))
    return first if rank[0] >= rank[1] else second


def _sequence(items: list[Any]) -> _Info:
    run: frozenset[str] = frozenset({""})  # the exact strings of the literal run being built
    tail = ""  # literal characters still to append to each of them
    best: frozenset[str] | None = None
    exact = True
    for op, av in items:
        if op is _parser.LITERAL:
            tail += chr(av)
            continue
        if op in _ZERO_WIDTH:
            continue
        if tail:
            run, tail = frozenset(a + tail for a in run), ""
        strings, required = _node(op, av)
        if strings is not None and len(run) * len(strings) <= _EXACT_LIMIT:
            run = frozenset(a + b for a in run for b in strings)
            continue
        exact = False
        best = _better(best, _requirement(run))
        if strings is not None:
            run = strings
        else:
            best, run = _better(best, required), frozenset({""})
    if tail:
        run = frozenset(a + tail for a in run)
    if exact:
        return run, _requirement(run)
    return None, _better(best, _requirement(run))


def _branch(infos: list[_Info]) -> _Info:
    """Alternatives: exact when each is (and they are few), else one literal of any of them."""
    every: set[str] = set()
    for exact, _ in infos:
        if exact is None:
            break
        every |= exact
    else:
        if len(every) <= _EXACT_LIMIT:
            return frozenset(every), _requirement(frozenset(every))
    union: set[str] = set()
    for exact, required in infos:
        one = _requirement(exact) if exact is not None else required
        if one is None:
            return None, None
        union |= one
    return None, frozenset(union)


def _node(op: Any, av: Any) -> _Info:
    if op is _parser.LITERAL:
        return frozenset({chr(av)}), frozenset({chr(av)})
    if op in _ZERO_WIDTH:
        return frozenset({""}), None
    if op is _parser.IN:
        if len(av) <= _CLASS_LIMIT and all(kind is _parser.LITERAL for kind, _ in av):
            chars = frozenset(chr(code) for _, code in av)
            return chars, chars
        return None, None
    if op is _parser.SUBPATTERN:
        _, add_flags, _, body = av
        return (None, None) if add_flags & re.IGNORECASE else _sequence(list(body))
    if op is _parser.ATOMIC_GROUP:
        return _sequence(list(av))
    if op is _parser.BRANCH:
        return _branch([_sequence(list(branch)) for branch in av[1]])
    if op in _REPEATS:
        low, high, body = av
        exact, required = _sequence(list(body))
        if low == 0:
            return (exact | {""}, None) if high == 1 and exact is not None else (None, None)
        if low == high == 1:
            return exact, required
        return None, required if exact is None else _requirement(exact)
    return None, None
