"""How a learning is written: the index pointer (from its title), the topic file that holds it whole,
and the rule block of a CLAUDE.md. Nothing of the principle, detail or why is ever left out.

Agent text is mended before it is written (a code span left open at the end of a line is closed), and
every line written is checked afterwards (`memory_layout.wellformed`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from memory_layout import render_frontmatter
from memory_layout.pointers import always_on_pointer, trigger_pointer
from memory_layout.wellformed import code_spans, line_problems

from ..discover.candidates import OWN_CONDITION as _OWN_CONDITION
from ..discover.spelling import common_word
from ..models import Candidate
from .drafts import plain
from .similarity import coverage, words
from .titles import first_sentence, flat, mend, title_of
from .topics import DESCRIPTION_CHARS, is_rule, when_it_matters

KIND_TYPE = {
    "correction": "feedback",
    "rejection": "feedback",
    "preference": "feedback",
    "remember": "project",
    "decision": "project",
    "error-fix": "reference",
    "marker": "feedback",
    "queue": "feedback",
}


def condition(candidate: Candidate) -> str:
    """The trigger as a condition, without a leading "when"."""
    text = flat(candidate.trigger).rstrip(":").strip()
    return text[5:] if text.lower().startswith("when ") else text


MAX_LINE = 150  # an index line should stay under this (memory_layout.health's long-entry)


def pointer_line(candidate: Candidate, file: str | None, takeaway: str | None = None) -> str:
    """`**When <trigger>:** <title>. → [detail](file)` (always-on form without a trigger); a title
    written offline gets what room the trigger and the link leave; one that would still be over
    `MAX_LINE` (a title whose first clause is long) drops its trigger — the topic file says when it
    applies — rather than cut the title mid-clause."""
    if takeaway is not None:
        return _render(candidate, mend(takeaway), file)
    line = ""
    for shaped in (candidate, candidate.model_copy(update={"trigger": ""})):
        room = MAX_LINE - len("- ") - (len(_render(shaped, "x", file)) - 1)
        rendered = _render(shaped, mend(title_of(candidate, max(50, min(90, room)))), file)
        line = line or rendered
        if len("- " + rendered) <= MAX_LINE or not candidate.trigger.strip():
            return rendered
    return line


def _render(candidate: Candidate, takeaway: str, file: str | None) -> str:
    if candidate.trigger.strip() and not _OWN_CONDITION.match(takeaway):
        return trigger_pointer(condition(candidate), takeaway, file)
    return always_on_pointer(begun(takeaway), file)


_LOWER_OPENING = re.compile(r"[a-z]+(?:'[a-z]+)?(?![\w.`/-])")


def begun(rule: str) -> str:
    """A rule that begins a line: its first word capitalised when it is a common word left in lower
    case after a trigger's colon ("use make smoke" → "Use make smoke"), never a name or a command
    ("pnpm is …", `make`)."""
    opening = _LOWER_OPENING.match(rule)
    if opening is None or not common_word(opening.group(0)):
        return rule
    return rule[:1].upper() + rule[1:]


def topic_type(candidate: Candidate) -> str:
    if candidate.kind == "remember":
        return "feedback" if is_rule(candidate.principle) else "project"
    return KIND_TYPE.get(candidate.kind, "feedback")


def body_lines(candidate: Candidate) -> list[str]:
    """The learning whole: principle, detail, why (or the evidence when no why was given), how to apply."""
    principle = mend(candidate.principle)
    lines = [principle, ""]
    if candidate.detail.strip():
        lines += [mend(candidate.detail), ""]
    if candidate.why.strip() and coverage(words(candidate.why), words(principle)) < 1.0:
        lines += [f"**Why:** {mend(flat(candidate.why))}", ""]
    quote = next((flat(e.quote) for e in candidate.evidence if e.quote.strip()), "")
    if quote and coverage(words(quote), words(principle + " " + candidate.detail)) < 0.75:
        lines += [f"**Evidence:** “{_plain_quote(quote)}”", ""]
    if candidate.trigger.strip():
        lines += [f"**How to apply:** when {condition(candidate)}.", ""]
    return lines


def topic_file(candidate: Candidate, kind: str | None = None) -> str:
    """A new topic file for the learning, with `name`, `description` and `metadata` frontmatter (of
    type `kind`, else the candidate's own)."""
    session = next((e.session for e in candidate.evidence if e.session), "")
    learned = min((e.timestamp[:10] for e in candidate.evidence if e.timestamp[:4].isdigit()), default="")
    metadata: dict[str, Any] = {"type": kind or topic_type(candidate), "signal": candidate.kind}  # `share`
    if learned:
        metadata["learned"] = learned
    if session:
        metadata["originSessionId"] = session
    # A short name, and a description that says when the learning matters — never the name again: a
    # reader deciding whether to open the file learns nothing from a repeat. The whole rule follows the
    # moment only when the name had to leave part of it out, and only when it fits whole (never a cut).
    name = begun(plain(title_of(candidate, 50), 10_000))
    rule = readable(candidate.principle)
    description = when_it_matters(candidate.trigger, rule, candidate.layer == "L0")
    if coverage(words(rule), words(name)) < 1.0:
        for said in (rule, readable(first_sentence(flat(mend(candidate.principle))))):
            if (
                coverage(words(said), words(name)) < 1.0
                and len(f"{description}: {said}") <= DESCRIPTION_CHARS
            ):
                description = f"{description}: {continued(said)}"
                break
    matter = render_frontmatter({"name": name, "description": description, "metadata": metadata})
    return matter + "\n".join(body_lines(candidate)).rstrip("\n") + "\n"


_SENTENCE_STOP = re.compile(r"(?<=[\w`)\]\"'”])[.。]$")
_DECORATION = re.compile(r"\*\*|__|\s*(?:→|->)\s*$")
_LINKED = re.compile(r"\[([^\]]*)\]\([^)]*\)")


_OPENING = re.compile(r"[A-Z][a-z]+(?:'[a-z]+)?(?![\w.`-])")


def continued(rule: str) -> str:
    """A rule said after the colon of a sentence ("When bumping the version: always …"): its first
    word in lower case when that is a common word capitalised only because the rule began a sentence
    ("Always", "Don't"), never a name or a code span ("CLAUDE.md", "Python", `Makefile`)."""
    opening = _OPENING.match(rule)
    if opening is None or not common_word(opening.group(0)):
        return rule
    return rule[:1].lower() + rule[1:]


def readable(text: str) -> str:
    """A rule on one line as a description says it: whole, code spans kept, bold, links and the
    closing full stop of its last sentence gone (never the `.` of a code span or an argument)."""
    said = _DECORATION.sub("", _LINKED.sub(r"\1", flat(mend(text)))).strip()
    return _SENTENCE_STOP.sub("", said)


def updated_topic(old: str, candidate: Candidate, *, today: str | None = None) -> str:
    """UPDATE: the topic file keeps everything it says and gains the new part, dated."""
    day = today or _today()
    added = "\n".join(body_lines(candidate)).rstrip("\n")
    return f"{old.rstrip()}\n\n## Update {day}\n\n{added}\n"


def contradicted_topic(
    old_matter: str, old_body: str, candidate: Candidate, *, today: str | None = None
) -> str:
    """CONTRADICT: the learning replaces what the file said; its History section keeps the old text
    whole under the date it was replaced (earlier history kept too), so a reviewer sees what changed."""
    day = today or _today()
    body, _, history = old_body.partition("\n## History\n")
    lines = [*body_lines(candidate), "## History", ""]
    if history.strip():
        lines += [history.strip(), ""]
    if body.strip():
        lines += [f"### Until {day}, contradicted by the sessions", "", body.strip(), ""]
    else:
        lines.append(f"- {day}: rewritten.")
    return old_matter + "\n".join(lines).rstrip("\n") + "\n"


def rule_block(candidate: Candidate) -> str:
    """The learning as a CLAUDE.md rule: the whole principle (trigger first), its why, and the detail
    indented under it so the list item holds all of it."""
    principle = mend(flat(candidate.principle))
    rule = (
        trigger_pointer(condition(candidate), principle)
        if candidate.trigger.strip() and not _OWN_CONDITION.match(principle)
        else always_on_pointer(principle)  # "When X, do Y" needs no "**When X:**" before it
    )
    why = mend(flat(candidate.why))
    extra: list[str] = []
    if why and coverage(words(why), words(principle)) < 1.0:
        sentence = f"{why[0].upper() + why[1:]}{'' if why.endswith(('.', '!', '?')) else '.'}"
        if line_problems(f"- {rule} {sentence}", entry=True):
            extra.append(f"Why: {why}")  # not a whole sentence: on a line of its own, under the rule
        else:
            rule = f"{rule} {sentence}"
    extra += mend(candidate.detail).splitlines()
    if extra:
        rule += "\n" + "\n".join(f"  {line}" if line.strip() else "" for line in extra)
    return rule


def _plain_quote(text: str) -> str:
    """A quote on one line that breaks nothing (an unbalanced backtick becomes a quote mark); a quote
    cut short keeps its closing "…", so that it never reads as whole."""
    line = flat(text)
    cut = _CUT_SHORT.search(line)  # kept apart: `mend` would end the sentence there
    line = line[: cut.start()] if cut else line
    _, closed = code_spans(line)
    return mend(line if closed else line.replace("`", "'")) + (" …" if cut else "")


_CUT_SHORT = re.compile(r"\s*(?:…|\.\.\.)+\s*$")


def _today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")
