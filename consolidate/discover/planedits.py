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
from .phrasing import remember_principle
from .text import mask_code
from .turns import is_accusation, rule_sentence

EDITED_MARK = "## Approved Plan (edited by user):"
LINE_LIMIT = 300  # a rule is a line; a longer one is a paragraph of the plan
LEAD_LIMIT = 40  # a lead-in before a colon, "Before merging:"
_LGENERALIZER = lexicon.lowered(lexicon.GENERALIZER)
# What leads a plan's line and is no part of the rule: list markers, headings, emphasis, a step's number.
_LEAD = lazy(
    r"^(?:\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,3}[.)]\s+|\*\*|__))*"
    r"(?:(?:step|шаг|adım|步骤|第)\s*\d{1,3}\s*(?:步)?\s*(?:\*\*)?\s*[:.)\-–—：]\s*(?:\*\*)?\s*)?",
    re.IGNORECASE,
)
_NON_WORD = lazy(r"[\W_]+")
_CONDITION = lazy(
    r"\s*(?:before|after|when|whenever|once|перед|после|когда|при)\b|\s*(?:在|每当|之前|之后)|.*\b(?:önce(?:si)?|sonra(?:sı)?)\s*$",
    re.IGNORECASE,
)
_PLAN_POINTER = lazy(
    r"\b(?:this|these|that|the plan|the steps|first of all|important|note)\b|\b(?:это|этого|этим|план)|这些|这个|计划|"
    r"\b(?:bu|bunlar|plan)\b",
    re.IGNORECASE,
)
# A standing order about how work is done, said at the start of the line: "Always …", "Never …", "From now
# on, …", "Whenever the schema changes, …", "We always …", "… before every commit". A line that only says
# how the code will behave ("By default the CLI prints JSON", "The cache is invalidated whenever a rate
# changes", "Make the parser always return a Result") is this plan, not a rule.
_NOT_A_VERB = (
    r"(?:the|a|an|this|that|these|those|it|its|it's|there|they|he|she|our|their|my|on|off|in|of|to|be|is|"
    r"are|was|were|will|would|can|could|may|might|true|false|null|none|zero|one|empty|possible|available)\b"
)
_EN_ORDER = lazy(
    r"^(?:(?:before|after|when|once)\b[^,;:]{1,60},\s*)?(?:please\s+)?(?:(?:we|you)\s+(?:should\s+|must\s+)?)?"
    r"(?:always|never)\s+(?!" + _NOT_A_VERB + r")[a-z]|"
    r"^(?:from now on|going forward|in (?:the )?future|every ?time\b[^,;]{0,80}|each time\b[^,;]{0,80}|"
    r"whenever\b[^,;]{0,80}),\s*(?:(?:always|please)\s+)?(?!" + _NOT_A_VERB + r")[a-z]|"
    r"^(?:don'?t|do not)\b[^.]*,\s*ever\b|"
    r"^(?!" + _NOT_A_VERB + r")[a-z]+\b[^.;]{0,120}\b(?:before|after|with|in|on) (?:every|each) "
    r"(?:commit|push|merge|release|pr|pull request|change|deploy\w*|build|session|task|feature|version)\b"
)
_RU_IMPERATIVE = (
    r"(?:не\s+)?(?:\w{2,}(?:ай|яй|уй|юй|айте|яйте|уйте|ите)|пиши|жди|иди|проверь|создай|удали|коммить|ставь|"
    r"оставь|запусти|обнови|добавь|спроси|сохрани|помни|делай|сделай)\b"
)
_RU_ORDER = lazy(
    r"^(?:(?:перед|после|когда|при)\b[^,;:]{1,60},\s*)?(?:всегда|никогда|каждый раз|впредь|с этого момента|в будущем)\b[^.;]{0,80}?(?<!\w)"
    + _RU_IMPERATIVE
)
_ZH_ORDER = lazy(
    r"(?:总是|永远|每次|以后|今后|从现在开始|一律|始终)[^。；]*?(?:都要|必须|要|请|不要|别|务必|一定要|应该)"
)
_TR_ORDER = lazy(
    r"^(?:her zaman|asla|hiçbir zaman|her seferinde|bundan sonra|her \w+ (?:öncesi|sonrası))\b.*?"
    r"(?:\b\w+(?:malı|meli|malıyız|meliyiz|mayın|meyin)|\b(?:kullan|çalıştır|ekle|yaz|yap|koy|bırak|aç|"
    r"gönder|sor|bekle|oluştur|güncelle|et|al|ver|sil|çek|kullanma|yapma|açma|gönderme)|\bgerek\w*|\blazım)"
    r"[.!]?$"
)
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


def standing_order(masked: str) -> bool:
    """Whether a lower-cased line (code masked) orders how work is done from now on, in any of our languages;
    the order may follow a short lead-in ("before merging: always …")."""
    head, colon, rest = masked.partition(":")
    return any(
        _EN_ORDER.search(text) or _RU_ORDER.search(text) or _ZH_ORDER.search(text) or _TR_ORDER.search(text)
        for text in ([masked, rest.strip()] if colon and len(head) <= LEAD_LIMIT else [masked])
    )


def _without_lead(said: str) -> str:
    """The line without a lead-in that only points at this plan or names a step ("Before any of this: …",
    "Setup: …"); a condition stays ("Before merging: always run X" -> "Always run X before merging", "Перед
    коммитом: всегда …" -> "Перед коммитом, всегда …")."""
    head, colon, rest = said.partition(":")
    rest = rest.strip()
    if not colon or len(head) > LEAD_LIMIT or not rest or not standing_order(mask_code(rest).lower()):
        return said
    head = head.strip()
    if _CONDITION.match(head) and not _PLAN_POINTER.search(head):
        if head.isascii():  # "Before merging: always run X" -> "Always run X before merging"
            return f"{rest.rstrip('.')} {head[:1].lower()}{head[1:]}"
        return f"{head}, {rest[:1].lower()}{rest[1:]}"
    return rest[:1].upper() + rest[1:]


def plan_rules(proposed: str, approved: str) -> list[tuple[str, str]]:
    """(the user's line, the rule it states) for each added line of the plan that holds beyond it."""
    rules = []
    for line, replaced in added_lines(proposed, approved):
        said = _without_lead(_EMPHASIS.sub("", _LEAD.sub("", line.strip())).strip())
        if not said or len(said) > LINE_LIMIT or said.endswith(("?", "？")):
            continue
        masked = mask_code(said).lower()
        if not standing_order(masked) or is_accusation(said):
            continue
        general = _LGENERALIZER.search(masked)
        word = general.group().strip(" .!;:,") if general else "every"  # "… before every commit"
        if word in mask_code(replaced).lower():  # the assistant's own rule, reworded
            continue
        lead = lexicon.REMEMBER.match(
            said
        )  # "From now on, …", "Впредь …": the rule without its command words
        principle = rule_sentence(remember_principle(said) if lead else said)
        if principle:
            rules.append((line.strip(), principle))
    return rules
