"""Where a new CLAUDE.md rule goes: beside the block it is about, not at the end of a default section.

The blocks of the file (`units.markdown_blocks`: each list item, each paragraph with its code) are
compared with the rule by the stems they share, rare stems weighing more (a word every block says —
the project's name — tells nothing of where a rule belongs). The block that shares the most with it,
when it shares enough, is its neighbour: a rule after a bullet is a sibling item, a rule after a step
of a numbered procedure is the procedure's next step (its lead-in says when, so no trigger of its
own), a rule about a paragraph is an item after it — or at the end of the list that follows it, never
between a paragraph (or its code) and its list. When no block is close enough, the caller falls
back to the section the learning names.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from memory_layout.pointers import LIST_MARKER

from ..discover.text import stems
from ..discover.units import FENCE_LINE, markdown_blocks
from .edits import orders_under_ban, rule_after

NEAR = 0.3  # the weighted share of the rule's stems a block must say to be its neighbour
NEAR_MANY = 0.25  # enough when they share this many stems or more
MANY = 4
MIN_SHARED = 2
_TABLE = re.compile(r"^\s*\|")


@dataclass(frozen=True)
class Place:
    section: str
    old: str  # the block the rule follows (found once in the file)
    new: str  # that block and the rule after it


def beside(text: str, rule: str, principle: str) -> Place | None:
    """The place beside the block of `text` most about `principle`, for `rule` (a `rule_block`), or
    None when no block is close enough or the block is not unique in the file."""
    blocks = markdown_blocks(text)
    said = [stems(f"{heading} {block}") for heading, block in blocks]
    wanted = stems(principle)
    if len(wanted) < 3 or not blocks:
        return None
    count: dict[str, int] = {}
    for found in said:
        for stem in found:
            count[stem] = count.get(stem, 0) + 1

    def weight(stem: str) -> float:
        return math.log(1 + len(blocks) / count.get(stem, 0.5))

    total = sum(weight(s) for s in wanted)
    best: tuple[float, int, int] | None = None  # (score, shared, position)
    for position, (heading, block) in enumerate(blocks):
        if not heading or not _prose(block) or orders_under_ban(heading, principle):
            continue  # never an order in a list of what must not be done
        shared = wanted & said[position]
        score = sum(weight(s) for s in shared) / total
        near = score >= NEAR and len(shared) >= MIN_SHARED or score >= NEAR_MANY and len(shared) >= MANY
        if near and (best is None or (score, len(shared)) > best[:2]):
            best = (score, len(shared), position)
    if best is None:
        return None
    position = best[2]
    if (
        LIST_MARKER.match(blocks[position][1]) is None
        and position + 1 < len(blocks)
        and blocks[position + 1][0] == blocks[position][0]
        and LIST_MARKER.match(blocks[position + 1][1]) is not None
    ):  # a paragraph (or its code) and the list after it stay together: the rule ends that list
        position += 1
    position = _end_of_list(blocks, position)
    section, anchor = blocks[position]
    if text.count(anchor) != 1:
        return None
    return Place(section, anchor, anchor + _after(anchor, rule))


def _prose(block: str) -> bool:
    """A block a rule can sit beside: not a table, not code alone."""
    first = block.lstrip().splitlines()[0] if block.strip() else ""
    return bool(first) and not _TABLE.match(first) and not FENCE_LINE.match(first)


def _end_of_list(blocks: list[tuple[str, str]], position: int) -> int:
    """The last item of the list the block belongs to (the block itself when it is no list item)."""
    if LIST_MARKER.match(blocks[position][1]) is None:
        return position
    section = blocks[position][0]
    while (
        position + 1 < len(blocks)
        and blocks[position + 1][0] == section
        and LIST_MARKER.match(blocks[position + 1][1]) is not None
    ):
        position += 1
    return position


def _after(anchor: str, rule: str) -> str:
    """The rule written after `anchor`: the next step of a numbered list, else as `rule_after` writes it."""
    marker = LIST_MARKER.match(anchor)
    if marker is not None and marker["marker"][0].isdigit() and "```" not in anchor:
        number = int(re.sub(r"\D", "", marker["marker"]) or "0") + 1
        lead = f"{number}. "
        step = re.sub(r"^\*\*[^*\n]+:\*\*\s+", "", rule, count=1)  # the procedure's lead-in says when
        step = step[:1].upper() + step[1:]
        return f"\n{marker['indent']}{lead}" + step.replace("\n  ", "\n" + marker["indent"] + " " * len(lead))
    return rule_after(anchor, rule)


SECTION_NEAR = 0.25  # the weighted share of the rule's stems a whole section must say to take it


def fitting_section(text: str, principle: str) -> str | None:
    """The heading of the section of `text` most about `principle` — its heading and its blocks
    together sharing the most of the rule's stems, rare stems weighing more — when it shares at least
    `MIN_SHARED` of them and `SECTION_NEAR` of their weight; never a section that lists what must not
    be done for a rule that orders something. None when no section fits."""
    wanted = stems(principle)
    sections: dict[str, set[str]] = {}
    for heading, block in markdown_blocks(text):
        if heading:
            sections.setdefault(heading, set(stems(heading))).update(stems(block))
    if len(wanted) < 2 or not sections:
        return None
    count: dict[str, int] = {}
    for found in sections.values():
        for stem in found:
            count[stem] = count.get(stem, 0) + 1

    def weight(stem: str) -> float:
        return math.log(1 + len(sections) / count.get(stem, 0.5))

    total = sum(weight(s) for s in wanted)
    best: tuple[float, str] | None = None
    for heading, said in sections.items():
        shared = wanted & said
        score = sum(weight(s) for s in shared) / total
        if len(shared) < MIN_SHARED or score < SECTION_NEAR or orders_under_ban(heading, principle):
            continue
        if best is None or score > best[0]:
            best = (score, heading)
    return best[1] if best is not None else None
