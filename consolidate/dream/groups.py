"""Review at a human scale: proposals of one kind and reason (30 duplicates of CLAUDE.md lines, 200
merges of near-copies) become one group — one decision, each item still selectable by its id — and a
run shows at most `MAX_DECISIONS` of them. What does not fit waits for the next run: every retirement
comes from an audit that runs again, so nothing is lost by waiting; learnings and the changes that
bring the index within budget never wait."""

from __future__ import annotations

from collections import Counter

from ..plan import Plan, Proposal, ProposalGroup

MAX_DECISIONS = 10
MAX_GROUP_ITEMS = 200
# Which decisions wait first when there are too many: the last of this order.
_PRIORITY = ["SECRET", "STALE", "CONTRADICT", "SUPERSEDED", "REDUNDANT", "MERGE", "LOW-VALUE", "DATE_FIX"]
_WORDS = {
    ("REMOVE", "REDUNDANT", "in-claude-md"): (
        "entries a CLAUDE.md already says",
        "each is said by a line of a CLAUDE.md, which every session loads; each item names the line",
    ),
    ("REMOVE", "REDUNDANT", "exact-duplicate"): (
        "exact duplicates of other entries",
        "each repeats another entry word for word; the first copy stays",
    ),
    ("MERGE", "MERGE", "near-copy"): (
        "pairs of near-copies, each merged into one entry",
        "each pair says the same thing twice; the merged text keeps every distinct clause",
    ),
    ("MERGE", "MERGE", "topic-files"): (
        "topic files merged into the file they repeat",
        "each file says much of what another says; its new parts move into that file",
    ),
    ("REMOVE", "STALE", "deleted"): (
        "entries about files git deleted",
        "each names a file a commit deleted, and nothing else in it still holds",
    ),
    ("EDIT", "STALE", "renamed"): (
        "names git renamed, fixed in every file that names them",
        "each names a file or symbol a commit renamed; the new name replaces it everywhere",
    ),
    ("EDIT", "DATE_FIX", "relative-date"): (
        "relative dates written as the dates they meant",
        "“yesterday” or “last week” in memory means nothing a month later",
    ),
    ("REMOVE", "LOW-VALUE", "generic"): (
        "entries of generic advice",
        "each is advice every session already follows, with nothing about this project",
    ),
    ("ADD", "FILL_GAP", ""): (
        "new learnings",
        "each is a lesson the sessions taught that memory does not hold yet; its evidence says where",
    ),
    ("CLUSTER", "HYGIENE", "over-budget"): (
        "sections and long entries moved to topic files to fit the index",
        "",
    ),
    ("REMOVE", "SUPERSEDED", "replaced"): (
        "entries a newer entry replaced",
        "a newer entry says what each one described was replaced",
    ),
}


_LEARNING_NOUNS = {  # learnings that edit an entry, by category
    "UPDATE": "learnings added to the entries they update",
    "CONTRADICT": "learnings that replace what an entry got wrong",
}


def decisions(plan: Plan) -> list[list[Proposal]]:
    """What a reviewer decides on, in plan order: each group once, each ungrouped proposal alone."""
    by_id = {p.id: p for p in plan.proposals}
    units: list[list[Proposal]] = []
    seen: set[str] = set()
    group_of = {item: g for g in plan.groups for item in g.items}
    for proposal in plan.proposals:
        if proposal.id in seen:
            continue
        group = group_of.get(proposal.id)
        members = [by_id[i] for i in group.items] if group else [proposal]
        seen.update(p.id for p in members)
        units.append(members)
    return units


def group_proposals(plan: Plan, *, max_decisions: int = MAX_DECISIONS) -> None:
    """Group the plan's proposals by kind and reason, keep at most `max_decisions` decisions (and
    `MAX_GROUP_ITEMS` items a group), renumber, and record how many wait for the next run."""
    keyed: dict[tuple[str, str, str], list[Proposal]] = {}
    for proposal in plan.proposals:
        # a learning set aside as already recorded is one line of its own, kept only when named
        key = ("set aside", str(id(proposal)), "") if proposal.skipped is not None else _key(proposal)
        keyed.setdefault(key, []).append(proposal)
    waiting: list[Proposal] = []
    units: list[list[Proposal]] = []
    for members in keyed.values():
        if len(members) > 1:
            kept = [m for m in members if not _may_wait(m)] + [m for m in members if _may_wait(m)]
            units.append(kept[:MAX_GROUP_ITEMS])
            waiting += kept[MAX_GROUP_ITEMS:]
        else:
            units.extend([m] for m in members)
    # each proposal's place in the plan, looked up by identity: `list.index` compares the models field
    # by field, once per proposal before it, for every proposal of every unit
    place = {id(p): number for number, p in enumerate(plan.proposals)}
    first = {id(unit): min(place[id(p)] for p in unit) for unit in units}
    units.sort(key=lambda unit: first[id(unit)])
    if len(units) > max_decisions:
        # the units that may wait go last first, by priority, then by place in the plan: one sort,
        # not a search of every unit for each one that waits
        movable = [u for u in units if all(_may_wait(p) for p in u)]
        movable.sort(key=lambda u: (_rank(u[0]), first[id(u)]), reverse=True)
        gone = movable[: len(units) - max_decisions]
        waiting += [p for unit in gone for p in unit]
        left = {id(u) for u in gone}
        units = [u for u in units if id(u) not in left]
    _renumber(plan, units)
    plan.waiting += len(waiting)
    if waiting:
        kinds = Counter(f"{p.action} {p.category}".strip() for p in waiting)
        listed = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
        plan.notes.append(
            f"{len(waiting)} more proposal(s) wait for the next run ({listed}): one review shows at most "
            f"{max_decisions} decisions; the audit finds them again"
        )


def _key(proposal: Proposal) -> tuple[str, str, str]:
    if proposal.action == "ADD":
        return "ADD", proposal.category, ""  # new learnings of one category, whatever their source
    return proposal.action, proposal.category, proposal.reason


def _may_wait(proposal: Proposal) -> bool:
    """Only retirements the audit will find again wait; learnings, secrets and budget moves never."""
    return proposal.sources == ["auditor"] and proposal.category != "SECRET"


def _rank(proposal: Proposal) -> int:
    return _PRIORITY.index(proposal.category) if proposal.category in _PRIORITY else len(_PRIORITY)


def _renumber(plan: Plan, units: list[list[Proposal]]) -> None:
    kept = {id(p) for unit in units for p in unit}
    plan.proposals = [p for p in plan.proposals if id(p) in kept]
    for number, proposal in enumerate(plan.proposals, start=1):
        proposal.id, proposal.group = f"P{number}", None
    plan.groups = []
    for unit in units:
        if len(unit) < 2:
            continue
        group = _group(f"G{len(plan.groups) + 1}", unit)
        for proposal in unit:
            proposal.group = group.id
        plan.groups.append(group)


def _group(gid: str, members: list[Proposal]) -> ProposalGroup:
    first = members[0]
    noun, why = _WORDS.get((first.action, first.category, first.reason), ("", ""))
    if not noun:
        noun = _LEARNING_NOUNS.get(first.category, "") if first.sources == ["discoverer"] else ""
    if not noun:
        noun = "new learnings" if first.action == "ADD" else f"{first.category.lower()} changes"
    if not why and all(m.rationale == first.rationale for m in members):
        why = first.rationale
    files = Counter(m.target.file for m in members)
    return ProposalGroup(
        id=gid,
        action=first.action,
        category=first.category,
        reason=first.reason,
        summary=f"{len(members)} {noun}",
        rationale=why or _rationales(members),
        items=sorted((m.id for m in members), key=lambda i: int(i[1:])),
        targets=dict(files),
    )


def _rationales(members: list[Proposal], shown: int = 3) -> str:
    """The items' distinct rationales, the first `shown` of them and how many more there are."""
    distinct = list(dict.fromkeys(m.rationale for m in members))
    more = len(distinct) - shown
    return "; ".join(distinct[:shown]) + (f"; and {more} more" if more > 0 else "")
