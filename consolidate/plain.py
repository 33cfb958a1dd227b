"""Value classes for the modules every hook loads, without `dataclasses`.

Importing `dataclasses` (it brings `inspect`, `ast`, `dis`, `tokenize`) costs a hook process about 30 ms
on a 2-core machine, and generating each class's methods about 1 ms more a class: for the two dozen
classes a tick loads, more than the interpreter's whole start. These classes write their own
`__init__` and name their fields in `FIELDS`; `Plain` gives them the equality and repr a dataclass
would, `Frozen` the immutability and hash of a frozen one, and `replace` / `asdict` work on both.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: every import here is paid on each hook call
if TYPE_CHECKING:
    from typing import Any, TypeVar

    P = TypeVar("P", bound="Plain")


class Plain:
    """Equality and repr over `FIELDS`, in order; not hashable (a mutable value)."""

    __slots__ = ()
    FIELDS: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Plain)
        return self._values() == other._values()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled slot by slot, whatever `__init__` takes (and frozen or not)."""
        names = [n for c in type(self).__mro__ for n in getattr(c, "__slots__", ()) if hasattr(self, n)]
        return (_rebuild, (type(self), {name: getattr(self, name) for name in names}))


def _rebuild(cls: type[P], state: dict[str, Any]) -> P:
    value = object.__new__(cls)
    for name, item in state.items():
        object.__setattr__(value, name, item)
    return value


class Frozen(Plain):
    """A value that cannot change once made (its `__init__` sets fields with `_set`), hashable."""

    __slots__ = ()

    def _set(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name}")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._values())


def replace(value: P, **changes: Any) -> P:
    """A copy of `value` with some fields changed (as `dataclasses.replace`)."""
    unknown = set(changes) - set(value.FIELDS)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    current = {name: getattr(value, name) for name in value.FIELDS}
    return type(value)(**{**current, **changes})


def asdict(value: Plain) -> dict[str, Any]:
    """The fields as a dict, nested values copied as `dataclasses.asdict` does."""
    return {name: _copy(getattr(value, name)) for name in value.FIELDS}


def _copy(value: Any) -> Any:
    if isinstance(value, Plain):
        return asdict(value)
    if isinstance(value, list | tuple):
        return type(value)(_copy(v) for v in value)
    if isinstance(value, dict):
        return {_copy(k): _copy(v) for k, v in value.items()}
    return value
