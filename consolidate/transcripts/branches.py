"""Which records are on the active branch of a conversation.

Records form a tree by `parentUuid`. A rewind or an edited prompt leaves the old branch in the file;
the conversation that continued is the chain from the last record back to the root, crossing each
compaction boundary through its `logicalParentUuid` (the records before a compaction stay history).
Records hanging off that chain without continuing it - parallel tool results, progress, the other
blocks of the same API response - belong to it too; a typed prompt or a reply on a side branch does not.
"""

from __future__ import annotations

from .records import Record, human_text

_SIDE_TYPES = frozenset({"progress", "attachment", "system"})


def active_records(records: list[Record]) -> list[Record]:
    """The records of the active branches, in file order (records without a uuid are dropped)."""
    by_uuid = {r.uuid: r for r in records if r.uuid}
    if not by_uuid:
        return []
    chain = _chain_members(records, by_uuid)
    active: set[str] = set()
    result = []
    for record in records:
        if not record.uuid:
            continue
        if record.uuid in chain or _hangs_off(record, active, by_uuid):
            active.add(record.uuid)
            result.append(record)
    return result


def active_uuids(records: list[Record]) -> set[str]:
    return {r.uuid for r in active_records(records)}


def _chain_members(records: list[Record], by_uuid: dict[str, Record]) -> set[str]:
    """Walk back from the leaf of the main conversation and from the leaf of each side chain."""
    leaves: dict[str, Record] = {}
    roots: dict[str, str] = {}
    for record in records:
        if record.uuid:
            leaves["side:" + _root(record, by_uuid, roots) if record.sidechain else "main"] = record
    chain: set[str] = set()
    predecessors = _predecessors(records)
    for leaf in leaves.values():
        _walk_back(leaf, by_uuid, predecessors, chain)
    return chain


def _root(record: Record, by_uuid: dict[str, Record], roots: dict[str, str]) -> str:
    """The uuid at the top of the record's tree (memoised: records arrive parents first)."""
    path: list[str] = []
    visited: set[str] = set()
    current: Record | None = record
    while current is not None and current.uuid not in roots and current.uuid not in visited:
        path.append(current.uuid)
        visited.add(current.uuid)
        current = by_uuid.get(current.parent) if current.parent else None
    top = roots[current.uuid] if current is not None and current.uuid in roots else path[-1]
    for uuid in path:
        roots[uuid] = top
    return top


def _predecessors(records: list[Record]) -> dict[str, str]:
    """Each main-conversation record's predecessor in file order: where the chain resumes when a
    parent is missing from the file (a lost line, a compaction whose logical parent is gone)."""
    result: dict[str, str] = {}
    previous = ""
    for record in records:
        if not record.uuid or record.sidechain:
            continue
        if previous:
            result[record.uuid] = previous
        previous = record.uuid
    return result


def _walk_back(
    leaf: Record, by_uuid: dict[str, Record], predecessors: dict[str, str], chain: set[str]
) -> None:
    """Follow parents up to the root; a parentless typed prompt is a true root (a rewind to the start)."""
    record: Record | None = leaf
    while record is not None and record.uuid not in chain:
        chain.add(record.uuid)
        link = record.parent or record.logical_parent
        if link is None and record.subtype != "compact_boundary":
            return
        record = by_uuid.get(link or "") or by_uuid.get(predecessors.get(record.uuid, ""))


def _hangs_off(record: Record, active: set[str], by_uuid: dict[str, Record]) -> bool:
    """A record off the chain that belongs to it: it answers or annotates an active record."""
    if record.parent is None or record.parent not in active:
        return False
    if record.type in _SIDE_TYPES:
        return True
    if record.type == "user":
        return bool(record.tool_results) and not human_text(record)
    if record.type == "assistant":
        parent = by_uuid[record.parent]
        return bool(record.message_id) and record.message_id == parent.message_id
    return False
