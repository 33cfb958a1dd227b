"""`consolidate remember "X"`: the early exit — no agents, no marker. Resolve the memory, check for a
duplicate, pick the layer, propose one change and apply it once confirmed."""

from __future__ import annotations

import re
from typing import Literal, TextIO

from ..apply import ApplyReport, apply_plan, l0_proposals
from ..applying import print_summary
from ..console import ask_on_terminal
from ..discover.text import capitalised, clip
from ..errors import ConsolidateError, NoAnswer, UsageError
from ..models import Candidate
from ..review import Ask, ask_approval, show_proposal
from ..runs import journal_dir, write_scope, writing_run
from ..secrets import has_secret
from ..settings import Settings
from .additions import additions
from .gather import GatherResult
from .orient import orient
from .synthesize import build_plan
from .topics import without_command_words

_CONSOLIDATION = re.compile(
    r"^\W*(?:please\s+)?(?:consolidate|dream|extract[ -]learnings|clean\s*up\s+(?:the\s+)?memor(?:y|ies))\b",
    re.IGNORECASE,
)
_CONDITION = re.compile(
    r"^(?P<cond>(?:when|whenever|before|after|if)\s+.+?)\s*[,:]\s+(?P<rule>.+)$", re.IGNORECASE | re.DOTALL
)
_UNIVERSAL = re.compile(
    r"\b(?:in (?:all|every) projects?|everywhere|in every session|globally|all my projects)\b", re.IGNORECASE
)
LayerChoice = Literal["L0", "L1", "L2", "L3"]


def candidate_from_text(text: str, layer: LayerChoice | None, section: str | None) -> Candidate:
    text = " ".join(text.split())
    if _CONSOLIDATION.match(text):
        raise UsageError(f"{text!r} is a consolidation request, not a fact: run `consolidate dream`")
    if has_secret(text):
        raise UsageError(
            "refusing to remember a secret (token, password or key); store it in a secret manager"
        )
    universal = bool(_UNIVERSAL.search(text))
    text = (
        _UNIVERSAL.sub("", without_command_words(text)).strip(" ,;:—-")
        if universal
        else without_command_words(text)
    )
    text = capitalised(text)
    if len(text) < 5:
        raise UsageError("nothing to remember: give the fact or rule as text")
    match = _CONDITION.match(text)
    trigger, rule = (match["cond"], match["rule"]) if match else ("", text)
    chosen = layer or ("L0" if universal else "L2")
    return Candidate(
        kind="remember",
        category="FILL_GAP",
        principle=rule,
        trigger=trigger,
        layer=chosen,
        section=section or "",
        confidence=0.95,
        impact=0.6,
    )


def remember(
    settings: Settings,
    text: str,
    *,
    layer: LayerChoice | None = None,
    section: str | None = None,
    yes: bool = False,
    out: TextIO,
    ask: Ask | None = None,
    confirmable: bool = True,
) -> ApplyReport | None:
    """Remember `text`: say it is remembered already, or show the one change and apply it once
    confirmed (`yes`, or a person answering `ask`). Without --yes and with no one to ask
    (`confirmable` false: no terminal) the change is shown and the run says why nothing was applied."""
    candidate = candidate_from_text(text, layer, section)
    with writing_run(settings):
        snapshot = orient(settings)
        found = additions([candidate], snapshot, claimed=set(), max_add=1)
        fresh = [d for d in found.drafts if d.skipped is None]
        if not fresh and found.waiting:  # set aside: it says the opposite of an entry, or negates one
            reason = found.waiting[0][1]
            lead = "it " if reason.startswith(("says", "negates", "would")) else ""
            raise ConsolidateError(
                f"not remembered: {lead}{reason}; if the new rule is right, change or remove that entry "
                "first, then remember it again"
            )
        if not fresh and not found.drafts and found.notes and found.notes[0].startswith("dropped ("):
            # a quality rule turned it down: nothing is remembered, and nothing was remembered before
            reason = found.notes[0].removeprefix("dropped (").split("): ", 1)[0]
            raise ConsolidateError(f"not remembered: {reason}; say the whole rule (what to do, and when)")
        if not fresh:
            matched = (
                found.drafts[0].skipped["matched"]["entry"]
                if found.drafts and found.drafts[0].skipped
                else ""
            )
            note = found.notes[0] if found.notes else text
            said = matched or note.removeprefix("already recorded: ")
            prose = said.split("```")[0].strip() or said  # the entry's words, not the code after them
            out.write(f"already remembered: {clip(prose, 240)}\n")
            return None
        plan = build_plan(snapshot, GatherResult(), "remember", fresh[:1], [])
        if not plan.proposals:
            out.write(f"nothing to remember: {plan.notes[0] if plan.notes else 'the change was dropped'}\n")
            return None
        proposal = plan.proposals[0]
        l0 = l0_proposals(plan, write_scope(settings))
        show_proposal(proposal, proposal.diff, out, l0=proposal.id in l0)
        if yes and proposal.id in l0:
            out.write(
                "nothing remembered: this changes ~/.claude/CLAUDE.md, loaded by every session of every "
                "project: confirm it in a terminal, without --yes\n"
            )
            return None
        if not yes and not confirmable:
            how = (
                "run it in a terminal to confirm it"
                if proposal.id in l0
                else "run it again with --yes to apply it, or in a terminal to confirm it"
            )
            raise NoAnswer(f"nothing remembered: no terminal to confirm on; {how}", exit_code=2)
        approved = [proposal.id] if yes else ask_approval(plan.proposals, ask or ask_on_terminal, l0)
        if not approved:
            out.write("nothing remembered\n")
            return None
        report = apply_plan(
            plan, write_scope(settings), only=approved, confirm_l0=True, journal_dir=journal_dir(settings)
        )
    print_summary(report, out)
    return report
