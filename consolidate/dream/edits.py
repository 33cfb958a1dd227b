"""EDIT merges: a learning that UPDATEs or CONTRADICTs what is remembered changes that entry in place.

UPDATE keeps the entry's link and topic file: the topic file gains the new part (dated), the pointer
is rewritten to cover both when that fits, and nothing of the old entry is deleted — a pointer with no
topic file gets one holding the old text and the new. In a CLAUDE.md the new rule joins the old one
(or replaces it when it restates all of it). CONTRADICT replaces the wrong statement: the pointer gets
the new takeaway, and the topic file the new rule plus a History line saying what it replaced and
when; in a CLAUDE.md the contradicted line is replaced (a command inside a code block is taken out of
it and the rule follows the block). No EDIT ever leaves a topic file without its pointer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from memory_layout import INDEX
from memory_layout.pointers import LIST_MARKER, classify, strip_marker

from ..discover.existing import same_subject
from ..discover.samerule import opens_with_ban
from ..discover.text import stems
from ..discover.units import ruled
from ..models import Candidate
from .learning import contradicted_topic, pointer_line, rule_block, topic_file, updated_topic
from .orient import Snapshot
from .remembered import Remembered
from .similarity import coverage, words
from .titles import flat, title_of

MAX_POINTER = 150
RESTATES, RESTATE_WORDS = (
    0.9,
    5,
)  # a new rule that says this much of an old one (of at least 5 words) replaces it
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FORBIDDING = re.compile(
    r"\b(?:cannot|can'?t|never|don'?t|do not|must not|forbidden|avoid|not allowed)\b", re.I
)


@dataclass(frozen=True)
class Edit:
    """The changes of one EDIT, where they go and why, before they become a draft."""

    file: str
    section: str
    layer: str
    changes: list[dict[str, Any]]
    rationale: str


def find_target(
    candidate: Candidate, entries: list[Remembered], taken: set[tuple[str, str]]
) -> Remembered | None:
    """The remembered entry an UPDATE or CONTRADICT quotes in `related` (exactly, inside a longer
    entry, by its topic file, or closely enough), unless another proposal already changes it."""
    if candidate.category not in ("UPDATE", "CONTRADICT") or len(flat(candidate.related)) < 4:
        return None
    wanted = _comparable(candidate.related)
    free = [e for e in entries if key_of(e) not in taken]
    for test in (
        lambda e: _comparable(e.text) == wanted,
        lambda e: len(wanted) >= 12 and wanted in _comparable(e.text),
        lambda e: any(wanted in (t.casefold(), t.rsplit("/", 1)[-1].casefold()) for t in e.topics),
        lambda e: len(wanted) >= 24 and e.layer == "L3" and wanted in _comparable(e.text),
    ):
        found = next((e for e in free if e.layer != "L3" and test(e)), None) or next(
            (e for e in free if test(e)), None
        )
        if found is not None:
            return found if found.layer != "L3" else None  # a topic file alone has no pointer to rewrite
    if len(wanted) < 20:
        return None
    texts = [_comparable(e.text) for e in free]
    best = process.extractOne(wanted, texts, scorer=fuzz.partial_ratio, score_cutoff=90)
    return free[best[2]] if best is not None and free[best[2]].layer != "L3" else None


def key_of(entry: Remembered) -> tuple[str, str]:
    """The claim key of an entry, as retirements record theirs."""
    return entry.file, " ".join(entry.text.split()).lstrip("-*+ ")


def editable(target: Remembered, snapshot: Snapshot) -> bool:
    """Can an EDIT change this entry? Not one in a file a CLAUDE.md imports (outside what we write),
    nor a CLAUDE.md block that does not occur exactly once in its file."""
    if target.layer not in ("L0", "L1"):
        return True
    layout = snapshot.settings.layout
    text = {
        str(layout.user_claude_md): snapshot.user_claude_md,
        str(layout.project_claude_md): snapshot.project_claude_md,
    }.get(target.file)
    return text is not None and text.count(target.text) == 1


def replaces_a_rule(candidate: Candidate, target: Remembered) -> bool:
    """May a CONTRADICT of this CLAUDE.md block replace the line it quotes? Only a line about what the
    candidate is about (a good part of its words said by the candidate), never a heading, never a
    project description that merely shares a few words with it, and never a line of prose inside a
    fence (`quotes_a_template`)."""
    if quotes_a_template(candidate, target):
        return False
    line, _ = _quoted_line(target.text, candidate.related)
    text = flat(strip_marker(line))
    return bool(text) and not text.startswith("#") and same_subject(candidate.principle, text)


def quotes_a_template(candidate: Candidate, target: Remembered) -> bool:
    """Is the line the candidate quotes prose inside a fence of the block (a message template, an
    example of output)? Such a line quotes text; it states no rule to contradict."""
    line, fenced = _quoted_line(target.text, candidate.related)
    return fenced and ruled(f"```\n{line}\n```") == ""


def joins(candidate: Candidate, target: Remembered) -> bool:
    """May an UPDATE of this CLAUDE.md block be written beside it? Beside a bullet (a sibling item), or
    nested under a numbered step whose action is the rule's own ("Bump …" under "2. Bump the version");
    a rule that restates the whole block replaces it, keeping its list marker — unless the block is a
    numbered step: a step is never replaced (the list keeps its numbering and its shape). Never an
    order under a heading that forbids what it lists ("Operations Claude Cannot Perform"). Never a loose
    item after a paragraph or a code block, where it would split the text from what follows; never
    under an unrelated step."""
    if candidate.category != "UPDATE" or target.layer not in ("L0", "L1"):
        return True
    if orders_under_ban(target.section, candidate.principle):
        return False  # a list of what the assistant must not do never gains a rule that orders something
    if numbered(target.text):  # a step of a procedure is never replaced, only added to
        step = _action(strip_marker(target.text.splitlines()[0]))
        return bool(step) and step == _action(candidate.principle)
    if _restates(target.text, candidate):
        return True
    return LIST_MARKER.match(target.text) is not None


def orders_under_ban(heading: str, principle: str) -> bool:
    """Would this rule order something under a heading that lists what must not be done
    ("Git Operations Claude Cannot Perform")? A ban ("Never …") may join such a list; an order may not."""
    return bool(_FORBIDDING.search(heading)) and not opens_with_ban(flat(principle))


def numbered(block: str) -> bool:
    """Is the block a step of a numbered list?"""
    marker = LIST_MARKER.match(block)
    return marker is not None and marker["marker"][0].isdigit()


_ACTOR = frozenset(
    {"user", "users", "claude", "you", "we", "then", "always", "first", "also", "please", "the"}
)


def _action(text: str) -> str:
    """The first word that says what to do (after who does it): "User merges the branch" → merg."""
    for word in re.findall(r"[a-z][a-z'-]*", flat(text).lower().replace("*", "")):
        if word not in _ACTOR:
            return min(
                stems(word),
                default=word.removesuffix("es") if word.endswith("ses") else word.removesuffix("s"),
            )
    return ""


_EXAMPLE = re.compile(r"[—–(,;]?\s*\b(?:e\.g\.|for example|for instance)\s*,?\s*`[^`\n]+`\)?", re.I)


def _restates(block: str, candidate: Candidate) -> bool:
    """Does the rule say all of the block, its examples aside? An example in code ("— e.g. `feat: Add
    glob support, v0.11.3`") illustrates the rule; a rule that gives its own example restates it."""
    said = words(_EXAMPLE.sub(" ", block))
    return (
        len(said) >= RESTATE_WORDS
        and coverage(said, words(candidate.principle + " " + candidate.detail)) >= RESTATES
    )


def edit(candidate: Candidate, target: Remembered, snapshot: Snapshot, names: set[str], day: str) -> Edit:
    if target.layer in ("L0", "L1"):
        return _claude_md_edit(candidate, target, snapshot)
    return _index_edit(candidate, target, snapshot, names, day)


def _index_edit(
    candidate: Candidate, target: Remembered, snapshot: Snapshot, names: set[str], day: str
) -> Edit:
    pointer = classify(strip_marker(target.text.splitlines()[0]))
    old_takeaway = flat(pointer.takeaway).rstrip(". ")
    extra = "\n".join(target.text.splitlines()[1:]).strip()  # continuation lines of a multi-line entry
    trigger = pointer.trigger or candidate.trigger
    shaped = candidate.model_copy(update={"trigger": trigger})
    changes: list[dict[str, Any]] = []
    topic = target.topics[0] if target.topics else ""
    if candidate.category == "UPDATE":
        takeaway = _covering_takeaway(old_takeaway, title_of(candidate), shaped, topic or "x.md")
        if topic:
            kept = _text(snapshot, topic).rstrip() + (f"\n\n{extra}\n" if extra else "\n")
            changes.append(
                {"op": "write_file", "file": topic, "content": updated_topic(kept, candidate, today=day)}
            )
        else:
            topic = _new_topic(candidate, names)
            old = "\n\n".join(p for p in (old_takeaway + ".", extra) if p.strip(". "))
            content = topic_file(
                candidate.model_copy(update={"principle": old, "detail": "", "why": "", "evidence": []})
            )
            changes.append(
                {
                    "op": "write_file",
                    "file": topic,
                    "content": updated_topic(content, candidate, today=day),
                    "create_only": True,
                }
            )
            extra = ""
        rationale = f"UPDATE: adds to “{old_takeaway}” (kept, with its topic file)"
    else:
        takeaway = None  # the new title, within what room the line leaves
        if topic:
            matter, body = _split_matter(_text(snapshot, topic))
            body = body.rstrip() + (f"\n\n{extra}\n" if extra else "\n")  # the history keeps it
            changes.append(
                {
                    "op": "write_file",
                    "file": topic,
                    "content": contradicted_topic(matter, body, candidate, today=day),
                }
            )
        else:
            topic = _new_topic(candidate, names)
            matter, _ = _split_matter(topic_file(candidate))
            stated = f"{old_takeaway}.\n\n{extra}".strip() if extra else old_takeaway
            content = contradicted_topic(matter, stated, candidate, today=day)
            changes.append({"op": "write_file", "file": topic, "content": content, "create_only": True})
            extra = ""
        rationale = f"CONTRADICT: replaces “{old_takeaway}”; the topic file records the change"
    link = _relative(target.file, topic)
    new = "- " + pointer_line(shaped, link, takeaway)  # one line: continuation lines moved to the topic
    if _comparable(new) != _comparable(target.text):
        changes.append({"op": "replace_entry", "file": target.file, "old": target.text, "new": new})
    return Edit(target.file, target.section, target.layer, changes, rationale)


def _covering_takeaway(old: str, new: str, candidate: Candidate, topic: str) -> str:
    """The pointer's takeaway after an UPDATE: the new title when it says the old one too; both
    joined when that still fits one index line; else the old one (the topic file holds the rest)."""
    if not old or coverage(words(old), words(new)) >= 0.8:
        return new
    joined = f"{old}; {new[0].lower() + new[1:] if new[:2].isalpha() and not new[:2].isupper() else new}"
    if len(pointer_line(candidate, topic, joined)) + 2 <= MAX_POINTER:
        return joined
    return old


def _claude_md_edit(candidate: Candidate, target: Remembered, snapshot: Snapshot) -> Edit:
    block = target.text
    rule = rule_block(candidate)
    listed = bool(LIST_MARKER.match(block))
    if candidate.category == "UPDATE":
        if _restates(block, candidate) and not numbered(block):
            new = _in_place_of(block, rule) if listed else rule  # the item keeps its own marker
            rationale = f"UPDATE: restates “{_first_line(block)}” with what is new"
        else:
            new = block + rule_after(block, rule)
            rationale = f"UPDATE: adds to “{_first_line(block)}” (kept)"
    else:
        line, fenced = _quoted_line(block, candidate.related)
        if fenced:
            kept = _drop_code_line(block, line)
            new = kept + rule_after(kept, rule)
        else:
            new = block.replace(line, _in_place_of(line, _as_step(rule) if numbered(line) else rule), 1)
        rationale = f"CONTRADICT: replaces “{flat(strip_marker(line))}”"
    change = {"op": "replace_text", "file": target.file, "old": block, "new": new}
    return Edit(target.file, target.section, target.layer, [change], rationale)


_LABEL = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\*\*([^*\n]+?):\*\*\s")


def _in_place_of(line: str, rule: str) -> str:
    """`rule` written where `line` was: with its list marker, continuation lines indented under it.
    A line led by a bold label ("- **Commit style:** …") keeps it when the rule opens with that label
    ("Commit style: Conventional commits …"), instead of a trigger before the label's words."""
    label = _LABEL.match(line)
    if label is not None:
        bare = _as_step(rule)
        if bare.casefold().startswith(f"{label[1].casefold()}:"):
            rule = f"**{label[1]}:**{bare[len(label[1]) + 1 :]}"
    marker = LIST_MARKER.match(line)
    if marker is None:
        return rule
    return marker.group(0) + rule.replace("\n  ", "\n" + " " * len(marker.group(0)))


def _as_step(rule: str) -> str:
    """A rule written as a step of a procedure: the procedure's lead-in says when, so no bold
    `**When …:**` of its own."""
    return re.sub(r"^\*\*[^*\n]+:\*\*\s+", "", rule, count=1)


def rule_after(block: str, rule: str) -> str:
    """A new rule right after `block`: a sibling item after a bullet, a nested item under a numbered
    step (so the numbering goes on), a new list item after a paragraph or code."""
    marker = LIST_MARKER.match(block)
    if marker is not None and not _ends_in_fence(block):
        if marker["marker"][0].isdigit():
            indent = " " * len(marker.group(0))
            return f"\n{indent}- " + rule.replace("\n  ", f"\n{indent}  ")
        return "\n" + marker["indent"] + "- " + rule
    return "\n\n- " + rule


def _ends_in_fence(block: str) -> bool:
    return bool(_FENCE.match(block.splitlines()[-1])) if block.strip() else False


def _quoted_line(block: str, related: str) -> tuple[str, bool]:
    """The line of `block` that `related` quotes, and whether it sits inside a code fence."""
    wanted = _comparable(related)
    fence = False
    scored: list[tuple[float, str, bool]] = []
    for line in block.splitlines():
        if _FENCE.match(line):
            fence = not fence
            continue
        score = (
            100.0 if wanted and wanted in _comparable(line) else fuzz.partial_ratio(wanted, _comparable(line))
        )
        scored.append((score, line, fence))
    best = max(scored, key=lambda s: s[0], default=(0.0, block.splitlines()[0], False))
    return best[1], best[2]


def _drop_code_line(block: str, line: str) -> str:
    """`block` without one line of its code fence; a fence left empty goes too."""
    lines = block.splitlines()
    index = lines.index(line)
    del lines[index]
    opened = [i for i, text in enumerate(lines) if _FENCE.match(text)]
    for start, end in zip(opened[::2], opened[1::2], strict=False):
        if end == start + 1:
            del lines[start : end + 1]
            break
    return "\n".join(lines).rstrip()


def _new_topic(candidate: Candidate, names: set[str]) -> str:
    from .additions import topic_name

    name = topic_name(candidate, names)
    names.add(name)
    return name


def _text(snapshot: Snapshot, name: str) -> str:
    file = snapshot.tree.files.get(name)
    return file.document.render() if file is not None and file.document is not None else ""


def _split_matter(text: str) -> tuple[str, str]:
    """(frontmatter block with its fences, the rest)."""
    match = re.match(r"^(---\r?\n.*?\r?\n---\r?\n)(.*)$", text, re.DOTALL)
    return (match[1], match[2].lstrip("\n")) if match else ("", text)


def _relative(index_file: str, topic: str) -> str:
    """A link to `topic` as written in `index_file` (a cluster file links one level up)."""
    return f"../{topic}" if index_file != INDEX and "/" in index_file and "/" not in topic else topic


def _comparable(text: str) -> str:
    lines = [strip_marker(line) for line in text.strip().splitlines()]
    return " ".join(" ".join(lines).split()).strip(" “”\"'").casefold()


def _first_line(block: str) -> str:
    return flat(strip_marker(block.strip().splitlines()[0])) if block.strip() else ""
