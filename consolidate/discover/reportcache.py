"""The last report built from the signals, kept beside the scan state: a scan with nothing new (the same
signals, the same memory, the same code) answers from it without loading the quality filter, the
dedupe or the comparison with memory, nor compiling their patterns.

The key is a digest of the signals, the memory texts and the code that builds the report (size and
mtime of every module of the discoverer and of the few others it calls): any change to one of them
builds the report again. A missing or unreadable cache is simply rebuilt.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..fsutil import atomic_write, blake2b, code_fingerprint
from .echopool import Echo
from .report import Evidence, Learning, ScanReport
from .signals import Signal

REPORT_FILE = "report.json"
_CHUNK = 1000  # signals serialised at a time for the key
_HERE = Path(__file__).resolve().parent
# what building a report runs: the discoverer's modules, and the few others they call
_SOURCES = (
    _HERE.parent / "lazyre.py", _HERE.parent / "secrets.py", _HERE.parent / "secret_rules.py",
    _HERE.parents[1] / "memory_layout" / "pointers.py",
)  # fmt: skip


def cached_report(
    directory: Path,
    signals: Sequence[Signal | Echo],
    memory: Mapping[str, str] | list[str],
    build: Callable[[Sequence[Signal | Echo], Mapping[str, str] | list[str]], ScanReport],
    *,
    save: bool = True,
) -> ScanReport:
    """`build(signals, memory)`, or the same report saved by the last scan when nothing it depends on
    changed. `save=False` (a dry run) reads the saved report but writes none, so without one it
    needs no key."""
    path = directory / REPORT_FILE
    if not save and not path.is_file():
        return build(signals, memory)
    key = _key(signals, memory)
    saved = _load(path, key)
    if saved is not None:
        return saved
    report = build(signals, memory)
    if not save:
        return report
    try:
        document = {"key": key, "report": report.to_dict()}
        atomic_write(path, json.dumps(document, ensure_ascii=False).encode())
    except OSError:
        pass  # a cache that cannot be written costs the next scan its time, nothing else
    return report


def _key(signals: Sequence[Signal | Echo], memory: Mapping[str, str] | list[str]) -> str:
    digest = blake2b(digest_size=32)
    for start in range(0, len(signals), _CHUNK):  # in chunks: never one text of all the signals at once
        chunk = [s if isinstance(s, tuple) else vars(s) for s in signals[start : start + _CHUNK]]
        digest.update(json.dumps(chunk, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n")
    items = sorted(memory.items()) if isinstance(memory, Mapping) else [("", t) for t in memory]
    for name, text in items:
        digest.update(
            b"\0m" + name.encode("utf-8", "surrogatepass") + b"\0" + text.encode("utf-8", "surrogatepass")
        )
    digest.update(_code_fingerprint().encode())
    return digest.hexdigest()


def _code_fingerprint() -> str:
    """Size and mtime of every module of the discoverer and of the few others it calls."""
    return code_fingerprint((_HERE,), _SOURCES)


def _load(path: Path, key: str) -> ScanReport | None:
    try:
        document = json.loads(path.read_bytes())
        if not isinstance(document, dict) or document.get("key") != key:
            return None
        return _from_dict(document["report"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _from_dict(data: dict[str, Any]) -> ScanReport:
    candidates = []
    for item in data["candidates"]:
        fields = dict(item)
        fields["evidence"] = [Evidence(**e) for e in fields.get("evidence", [])]
        candidates.append(Learning(**fields))
    return ScanReport(
        candidates=candidates,
        sessions_scanned=int(data["sessions_scanned"]),
        notes=list(data["notes"]),
        dropped_queue_ids=list(data["dropped_queue_ids"]),
        stats={str(k): int(v) for k, v in data["stats"].items()},
    )
