"""The echoes a report can use, kept while the transcripts are scanned (see `echoes`).

A short user turn is kept as an echo in case it says a lesson again, and every such turn of every
transcript would be held until the report is built. Most cannot matter: away from the exchange
that taught a rule, an echo joins the one candidate its words point at, and a candidate cites at
most `MAX_EVIDENCE` moments, so of the echoes that say the same words only the first
`MAX_EVIDENCE` distinct turns can ever be cited. The pool keeps those; every echo said within an
exchange — in a session with signals, from five minutes before its first signal's moment to its
last — where its time decides which candidate it joins; every echo of a turn that a signal cites
as well (the report passes over those, so they count for nothing); and no echo that carried a
secret, which the report never uses. What it keeps grows with the distinct short turns and the
exchanges, not with the transcripts' size.

The report it gives is the one all the echoes give but in one case: a *later* transcript of the
same session (a copy of it) or a queue item whose signal cites a turn or widens an exchange that
an echo dropped already would have joined.

An echo kept is an `Echo` tuple of the six texts the report reads from it (its quote the same
string as its words when they are equal), not a `Signal`, and it is not held in memory: `SignalList`
writes it to an unlinked temporary file and reads it back whenever the list is read, so what the
pool holds per echo kept is its place in the file (8 bytes), whatever the transcripts' size.
"""

from __future__ import annotations

import marshal
import weakref
from array import array
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import IO, NamedTuple, overload

from .signals import Signal

ECHO_KIND = "echo"
MAX_EVIDENCE = 8  # moments a candidate cites at most, echoes included
EXCHANGE = timedelta(minutes=5)  # an echo this soon before a candidate's first moment is of its exchange

Turn = tuple[str, str]  # (session, uuid)


class Echo(NamedTuple):
    """An echo signal as the report reads it (`echoes.attach_echoes`): a kept echo never carried a secret."""

    session: str
    uuid: str
    timestamp: str
    principle: str
    quote: str
    file: str

    @property
    def kind(self) -> str:  # read like a signal's
        return ECHO_KIND

    @property
    def redacted(self) -> bool:
        return False

    @classmethod
    def of(cls, signal: Signal) -> Echo:
        quote = signal.principle if signal.quote == signal.principle else signal.quote  # one string, not two
        return cls(signal.session, signal.uuid, signal.timestamp, signal.principle, quote, signal.file)


class SignalList(Sequence["Signal | Echo"]):
    """Signals and echoes in the order they came; the signals in memory, the echoes in an unlinked
    temporary file, read back (a chunk at a time) each time the list is read; `full` is the signals
    alone, read without the file."""

    def __init__(self) -> None:
        self._signals: list[Signal] = []
        self._order = array("q")  # >= 0: echo n; < 0: signal -(n + 1)
        self._starts = array("q")  # where each echo begins in the file
        self._file: IO[bytes] | None = None
        self._end = 0
        self._moved = False  # read since the last write: the next write seeks back to the end first

    def append(self, item: Signal | Echo) -> None:
        if isinstance(item, Echo):
            if self._file is None:
                import tempfile  # only when an echo is kept

                self._file = tempfile.TemporaryFile()  # noqa: SIM115 - open while the list lives
                weakref.finalize(self, self._file.close)
            data = marshal.dumps(tuple(item))
            if self._moved:  # a seek flushes the buffer: only after a read, not before every write
                self._file.seek(self._end)
                self._moved = False
            self._file.write(data)
            self._order.append(len(self._starts))
            self._starts.append(self._end)
            self._end += len(data)
        else:
            self._signals.append(item)
            self._order.append(-len(self._signals))

    def extend(self, items: Iterable[Signal | Echo]) -> None:
        for item in list(items):  # read whole first: the items may come from this list
            self.append(item)

    def full(self) -> list[Signal]:
        """The signals, without the echoes."""
        return list(self._signals)

    def __len__(self) -> int:
        return len(self._order)

    @overload
    def __getitem__(self, index: int) -> Signal | Echo: ...
    @overload
    def __getitem__(self, index: slice) -> list[Signal | Echo]: ...
    def __getitem__(self, index: int | slice) -> Signal | Echo | list[Signal | Echo]:
        positions = range(len(self._order))[index]
        if isinstance(positions, range):
            return list(self._read(positions))
        return next(self._read(range(positions, positions + 1)))

    def __iter__(self) -> Iterator[Signal | Echo]:
        return self._read(range(len(self._order)))

    def _read(self, positions: range) -> Iterator[Signal | Echo]:
        chunk, chunk_start = b"", 0
        starts, count = self._starts, len(self._starts)
        for position in positions:
            where = self._order[position]
            if where < 0:
                yield self._signals[-where - 1]
                continue
            start = starts[where]
            end = starts[where + 1] if where + 1 < count else self._end
            if start < chunk_start or end > chunk_start + len(chunk):
                assert self._file is not None
                self._moved = True  # each read seeks: two readers of the list never get in each other's way
                self._file.seek(start)
                chunk, chunk_start = self._file.read(max(_READ, end - start)), start
            yield Echo(*marshal.loads(memoryview(chunk)[start - chunk_start : end - chunk_start]))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


_READ = 256 * 1024


class EchoPool:
    """Signals in the order they came, with only the echoes a report can use (see the module), those
    as `Echo` tuples."""

    def __init__(self) -> None:
        self.signals = SignalList()
        self._cited: set[Turn] = set()  # turns a signal (not an echo) cites
        self._spans: dict[str, tuple[str, str]] = {}  # session -> first and last moment its signals cite
        self._turns: dict[str, set[Turn]] = {}  # an echo's words -> the turns kept that say them

    def add_file(self, signals: Iterable[Signal]) -> None:
        """The signals of one transcript, in order."""
        found = list(signals)
        for signal in found:
            if signal.kind != ECHO_KIND:
                self._cite(signal.session, signal.uuid, signal.timestamp)
                for item in signal.also:
                    self._cite(signal.session, item.get("uuid", ""), item.get("timestamp", ""))
        starts: dict[str, datetime | None] = {}  # the spans do not move while the file's echoes are judged
        for signal in found:
            if signal.kind != ECHO_KIND:
                self.signals.append(signal)
            elif self._usable(signal, starts):
                self.signals.append(Echo.of(signal))

    def _cite(self, session: str, uuid: str, timestamp: str) -> None:
        self._cited.add((session, uuid))
        if timestamp:
            first, last = self._spans.get(session, (timestamp, timestamp))
            self._spans[session] = (min(first, timestamp), max(last, timestamp))

    def _usable(self, echo: Signal, starts: dict[str, datetime | None]) -> bool:
        if echo.redacted:
            return False
        turn = (echo.session, echo.uuid)
        if turn in self._cited or self._in_exchange(echo, starts):
            return True
        kept = self._turns.setdefault(echo.principle, set())
        if turn in kept or len(kept) >= MAX_EVIDENCE:
            return False
        kept.add(turn)
        return True

    def _in_exchange(self, echo: Signal, starts: dict[str, datetime | None]) -> bool:
        """Said where `echoes` may tie it to a candidate by its time: within its session's signals'
        span, or in the minutes before it (every candidate's span of a session lies within that)."""
        if echo.session not in self._spans:
            return False
        first, last = self._spans[echo.session]
        if not echo.timestamp < last:
            return False
        if echo.session not in starts:
            starts[echo.session] = _time(first)
        said, start = _time(echo.timestamp), starts[echo.session]
        return said is not None and start is not None and said >= start - EXCHANGE


def _time(stamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
