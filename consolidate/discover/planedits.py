"""What the user changed in a plan before approving it: a line they added or reworded that states a
standing rule ("Step 0: always create the branch first") is a lesson, worded from their line.

In plan mode the assistant proposes a plan (the ExitPlanMode input's `plan`); when the user edits it
before approving, the approval holds the plan as they left it under "## Approved Plan (edited by user):".
The lines of the approved plan that are not in the proposed one are the user's; of those, only a line
that holds beyond this plan (always, never, every time, from now on … in any of our languages) counts:
a step of this plan ("3. Rename foo to bar") is the plan, not a rule.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from ..lazyre import lazy
from ..transcripts.records import TEXT_CAP
from . import lexicon
from .text import mask_code
from .turns import is_accusation, rule_sentence

EDITED_MARK = "## Approved Plan (edited by user):"
LINE_LIMIT = 300  # a rule is a line; a longer one is a paragraph of the plan
_LGENERALIZER = lexicon.lowered(lexicon.GENERALIZER)
# What leads a plan's line and is no part of the rule: list markers, headings, emphasis, a step's number.
_LEAD = lazy(
    r"^(?:\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,3}[.)]\s+|\*\*|__))*"
    r"(?:(?:step|шаг|adım|步骤|第)\s*\d{1,3}\s*(?:步)?\s*(?:\*\*)?\s*[:.)\-–—：]\s*(?:\*\*)?\s*)?",
    re.IGNORECASE,
)
_NON_WORD = lazy(r"[\W_]+")
_EMPHASIS = lazy(r"\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)")


def edited_plan(result_text: str) -> str:
    """The plan as the user approved it after editing it, "" when the approval is of the plan unedited."""
    head, mark, plan = result_text.partition(EDITED_MARK)
    return plan.strip("\n") if mark else ""


def added_lines(proposed: str, approved: str) -> list[tuple[str, str]]:
    """(line, the proposed lines it replaced) for each line of the approved plan the user added or
    reworded, in order; lines only moved, re-cased or re-indented are not. A line that either text may
    have had cut off at its cap is left out."""
    old, new = _lines(proposed), _lines(approved)
    old_keys, new_keys = [_key(line) for line in old], [_key(line) for line in new]
    matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    present = set(old_keys)
    added = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("insert", "replace"):
            replaced = "\n".join(old[i1:i2])
            added += [(new[j], replaced) for j in range(j1, j2) if new_keys[j] and new_keys[j] not in present]
    return added


def _key(line: str) -> str:
    return " ".join(_NON_WORD.sub(" ", line.casefold()).split())


def _lines(text: str) -> list[str]:
    lines = text.splitlines()
    if len(text) >= TEXT_CAP - len(EDITED_MARK) - 400 and lines:  # near the cap: the last line may be cut
        lines.pop()
    in_fence, kept = False, []
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        kept.append("" if in_fence else line)  # code in a plan is the plan's, never a rule
    return kept


def plan_rules(proposed: str, approved: str) -> list[tuple[str, str]]:
    """(the user's line, the rule it states) for each added line of the plan that holds beyond it."""
    rules = []
    for line, replaced in added_lines(proposed, approved):
        said = _EMPHASIS.sub("", _LEAD.sub("", line.strip())).strip()
        if not said or len(said) > LINE_LIMIT or said.endswith(("?", "？")):
            continue
        masked = mask_code(said).lower()
        general = _LGENERALIZER.search(masked)
        if not general or is_accusation(said):
            continue
        if general.group().strip(" .!;:,") in mask_code(replaced).lower():  # the assistant's rule, reworded
            continue
        principle = rule_sentence(said)
        if principle:
            rules.append((line.strip(), principle))
    return rules
