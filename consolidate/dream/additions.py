"""Synthesis (c): discovered learnings become ADDs, or EDITs of the entry they update or contradict.

Learnings waiting in the backlog come first, then the new ones ranked by impact. Each is placed on
every layer it names (L0 / L1 / the memory dir); each placement is compared by meaning with what that
layer already remembers (an entry's pointer and its topic file, a CLAUDE.md rule), and one that is
already recorded is still proposed — set aside, shown with the entry it matched, applied only when
kept. Past the ADD cap a learning waits in the backlog; nothing found is ever silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from memory_layout import INDEX
from memory_layout.pointers import quoted_links
from memory_layout.wellformed import code_spans, line_problems

from ..discover.dedupe import DEGREE, one_sequence, orders_the_same, unsaid_words
from ..discover.existing import contradicts
from ..discover.matcher import Matcher, Verdict
from ..discover.samerule import said_in_part, shared_content
from ..fsutil import is_regular
from ..models import Candidate, EvidenceRef, Layer
from ..plan import CONTRADICT_WARNING
from ..secrets import has_secret, redact, without_secrets
from .backlog import Backlog, learning_id
from .drafts import TYPE_SECTIONS, Draft, plain
from .edits import edit as edit_changes
from .edits import (
    editable,
    find_target,
    joins,
    key_of,
    orders_under_ban,
    quotes_a_template,
    replaces_a_rule,
    rule_after,
)
from .learning import pointer_line, rule_block, topic_file, topic_type
from .orient import Snapshot
from .paths import real_names
from .placement import Place, beside, fitting_section
from .remembered import Remembered, remembered
from .reserved import around_the_user
from .similarity import ALIKE, STOP, Index, coverage, words
from .titles import flat, mend, title_of
from .topics import section_type, subject_slug, whole_words
from .wording import impersonal

MAX_ADD = 7
_GENERIC = re.compile(
    r"\b(?:clean code|best practices?|be careful|double[- ]check|write (?:good|more) tests|tests are important|"
    r"keep (?:it|things) simple|read the docs|communicate clearly)\b",
    re.IGNORECASE,
)
_TRANSIENT = re.compile(
    r"\b(?:right now|for now|at the moment|this session|temporarily|wip)\b", re.IGNORECASE
)
_SLUG = re.compile(r"[^a-z0-9]+")
_CONDITION = re.compile(
    r"^\*{0,2}(?:when|whenever|before|after)\s+(?P<cond>[^:*]{3,80}?)\*{0,2}:\*{0,2}\s+(?P<rule>.{3,})$",
    re.IGNORECASE | re.DOTALL,
)
_VACUOUS = re.compile(
    r"^(?:when\s+)?(?:working|anything|doing anything|coding)?\s*(?:in|on)?\s*(?:this|the)\s+(?:project|repo|repository|codebase)$",
    re.IGNORECASE,
)
MEMORY_LAYERS = ("L2", "L2c", "L3")
SAME_SESSION_ALIKE = 0.6  # in one session, this much said of each other is one learning told twice


@dataclass
class Additions:
    drafts: list[Draft] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    recorded_queue_ids: list[str] = field(default_factory=list)  # items already in memory: safe to ack
    meta: list[str] = field(default_factory=list)  # repeatable workflows: suggest a skill or command
    waiting: list[tuple[Candidate, str]] = field(default_factory=list)  # left for the backlog, and why
    settled: list[str] = field(default_factory=list)  # learnings dropped for good (quality, rejected before)
    taken_up: list[str] = field(default_factory=list)  # ids of the backlog's learnings this run took up


def rank(candidate: Candidate) -> float:
    return 0.5 * candidate.impact + 0.3 * candidate.confidence + 0.2 * min(candidate.frequency, 3) / 3


def quality_problem(candidate: Candidate) -> str | None:
    """Why a candidate fails the content-quality rules, or None when it passes. Length is never one:
    a long principle is written whole into its topic file, its title leads to it."""
    text = candidate.principle.strip()
    if len(text.split()) < 3 and not re.search(r"[\u3040-\u9fff]", text):
        return "too short to be a principle"
    if _GENERIC.search(text) and not re.search(r"`[^`]+`|\w+\.\w+|/", text):
        return "generic best practice"
    if _TRANSIENT.search(text) and len(words(text)) < 12:
        return "transient state"
    if has_secret(
        " ".join([candidate.title, candidate.principle, candidate.trigger, candidate.detail, candidate.why])
    ):
        return "contains a secret"
    if re.match(r"(?:…|\.\.\.)", flat(mend(text))):
        return "not a complete rule: it begins mid-sentence"
    fragment = [p for p in line_problems(flat(mend(text)), entry=True) if p.startswith("ends")]
    if fragment:
        return f"not a complete rule: it {fragment[0]}"
    return None


def normalize(candidate: Candidate) -> Candidate:
    """A principle written as `When X: Y` gives its condition to the trigger; a trigger that holds for
    every task ("working in this project") is no trigger, so the pointer becomes always-on; a sentence
    of the detail that speaks to the reviewer of this run ("check … before applying") is a note, shown
    in the review and never written; the rule says no "we" or "you" of its conversation
    (`wording.impersonal`)."""
    kept, notes = reviewer_sentences(candidate.detail)
    principle, told = session_story(candidate.principle, keep_first=True)
    why, told_why = session_story(candidate.why)
    notes += told + told_why
    if notes:
        note = " ".join(part for part in (candidate.note.strip(), *notes) if part)
        candidate = candidate.model_copy(
            update={"detail": kept, "note": note, "principle": principle, "why": why}
        )
    match = _CONDITION.match(candidate.principle.strip())
    if match and not _MAIN_CLAUSE.search(match["cond"]):  # "When X, make Y: …" is the rule, not its condition
        candidate = candidate.model_copy(
            update={"trigger": match["cond"], "principle": match["rule"].strip()}
        )
    if _VACUOUS.match(candidate.trigger.strip()):
        candidate = candidate.model_copy(update={"trigger": ""})
    alone = impersonal(candidate.principle)  # "before we start": "before starting"
    if alone != candidate.principle:
        candidate = candidate.model_copy(update={"principle": alone})
    return candidate


def spelt_as_the_project(snapshot: Snapshot, candidate: Candidate) -> Candidate:
    """The numbered files the learning names (`notes/chore-N`) spelt as the project's files, its
    CLAUDE.md and the learning's evidence spell them (`paths.real_names`); a link to a Markdown file
    found neither beside CLAUDE.md nor in the memory dir is a quote of another file's line, written as
    code (`pointers.quoted_links`), so the rule applies and points nowhere it cannot lead."""
    memory = [snapshot.project_claude_md, *(text for _, _, text in snapshot.imports)]
    evidence = [e.quote for e in candidate.evidence]
    root = snapshot.settings.layout.project_claude_md.parent
    memory_dir = snapshot.settings.layout.memory_dir

    def leads_somewhere(target: str) -> bool:
        file = unquote(target.split("#", 1)[0])
        return any(is_regular(folder / file) for folder in (root, memory_dir))

    texts = {name: getattr(candidate, name) for name in ("principle", "title", "detail", "why", "note")}
    update = {}
    for name in ("principle", "title", "detail", "why"):
        own = [text for other, text in texts.items() if other != name]
        spelt = quoted_links(real_names(texts[name], memory, evidence, root=root, own=own), leads_somewhere)
        if spelt != texts[name]:
            update[name] = spelt
    return candidate.model_copy(update=update) if update else candidate


_MAIN_CLAUSE = re.compile(
    r",\s+(?:then\s+)?(?:make|run|use|add|do|don't|do not|never|always|keep|write|ask|check|commit|put|"
    r"stop|wait|bump|set|call|create|update|tell|say)\b",
    re.IGNORECASE,
)
_FOR_REVIEWER = re.compile(
    r"\b(?:this run|before applying|(?:removed from|not in|not visible in) the transcripts?)\b", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


_STORY = re.compile(
    r"^(?:(?:the|this|our)\s+)?(?:user|users|reviewer|assistant|claude)\s+(?:\w+\s+){0,2}?"
    r"(?:rejected|asked|corrected|pointed\s+out|had\s+to|complained|objected|interrupted|reminded|stopped|"
    r"queued|noticed|approved|wanted)\b"
    r"|\b(?:was|were|got)\s+(?:rejected|interrupted|corrected)\b"
    r"|\bin\s+(?:one|two|three|both|several|these|those|the)\s+sessions?\b",
    re.IGNORECASE,
)


_STORY_WORD = re.compile(
    r"\b(?:user|users|reviewer|assistant|claude|rejected|interrupted|corrected|sessions?)\b", re.I
)


def session_story(text: str, *, keep_first: bool = False) -> tuple[str, list[str]]:
    """`text` without the sentences (or `;` clauses) that tell what happened in the sessions ("The
    user rejected a subject-only commit.") — memory states the rule and why it holds; the evidence
    tells the story — and those parts. With `keep_first`, the first sentence (the rule itself) always
    stays. Text of several lines (a list, code) is left whole; code spans are never split."""
    if "\n" in text.strip() or not _STORY_WORD.search(text):
        return text, []
    spans = [text[a:b] for a, b in code_spans(text)[0]]
    masked = text
    for number, span in enumerate(spans):
        masked = masked.replace(span, f"\x00{number}\x00", 1)

    def unmask(part: str) -> str:
        return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m[1])], part)

    kept: list[str] = []
    told: list[str] = []
    for index, sentence in enumerate(_SENTENCE_END.split(masked.strip())):
        clauses = sentence.split("; ")
        first = keep_first and index == 0  # the rule itself (the first clause) always stays
        stays = [c for n, c in enumerate(clauses) if (first and n == 0) or not _STORY.search(c)]
        told += [unmask(c) for n, c in enumerate(clauses) if not (first and n == 0) and _STORY.search(c)]
        if stays:
            joined = "; ".join(stays)
            kept.append(joined if joined.rstrip().endswith((".", "!", "?")) else joined.rstrip() + ".")
    if not told:
        return text, []
    return unmask(" ".join(kept)), told


def reviewer_sentences(detail: str) -> tuple[str, list[str]]:
    """The detail without the sentences addressed to the reviewer of this run (outside code), and
    those sentences."""
    kept: list[str] = []
    notes: list[str] = []
    fence = False
    for line in detail.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence or not _FOR_REVIEWER.search(line):
            kept.append(line)
            continue
        parts = _SENTENCE_END.split(line)
        notes += [p.strip() for p in parts if _FOR_REVIEWER.search(p)]
        rest = " ".join(p for p in parts if not _FOR_REVIEWER.search(p)).strip()
        if rest:
            kept.append(line[: len(line) - len(line.lstrip())] + rest)
    return "\n".join(kept).strip("\n"), notes


def additions(
    candidates: list[Candidate],
    snapshot: Snapshot,
    *,
    claimed: set[tuple[str, str]],
    max_add: int = MAX_ADD,
    backlog: Backlog | None = None,
) -> Additions:
    """Drafts for the learnings: backlog first (`backlog.pending()`), then `candidates` by rank."""
    state = _State(snapshot, claimed, backlog)
    waiting = backlog.pending() if backlog is not None else []
    state.result.taken_up = list(backlog.waiting) if backlog is not None else []
    streams = ([c for c in map(normalize, found) if state.admits(c)] for found in (waiting, candidates))
    for candidate, queue_ids in merge_alike(*streams, recorded=state.records_also):
        state.take(spelt_as_the_project(snapshot, candidate), queue_ids, max_add)
    return state.result


class _State:
    """What one synthesis of learnings has decided so far."""

    def __init__(self, snapshot: Snapshot, claimed: set[tuple[str, str]], backlog: Backlog | None) -> None:
        self.snapshot = snapshot
        self.backlog = backlog
        self.result = Additions()
        self.entries = remembered(snapshot)
        self.matchers: dict[str, tuple[list[Remembered], Matcher]] = {}  # by pool: built once a run
        self.names = set(snapshot.tree.files)
        self.taken = set(claimed)
        self.added = 0
        self.anchored: list[str] = []  # CLAUDE.md blocks a new rule of this run already follows

    def admits(self, candidate: Candidate) -> bool:
        """Does the candidate pass the quality rules (else a note says why)? Checked before alike
        candidates merge, so a fragment never takes a whole learning down with it."""
        if candidate.category == "NOISE":
            return False
        subject = redact(plain(candidate.principle, 70))
        problem = quality_problem(candidate)
        if problem is None and self.backlog is not None and self.backlog.was_rejected(candidate):
            problem = "rejected in an earlier review"
        if problem:
            self.result.notes.append(f"dropped ({problem}): {subject}")
            self.result.settled.append(learning_id(candidate))
        return problem is None

    def take(self, candidate: Candidate, queue_ids: list[str], max_add: int) -> None:
        if "meta" in candidate.layers:
            self.result.meta.append(candidate.principle)
        places = placements(candidate)
        if not places:
            return
        target = find_target(candidate, self.entries, self.taken)
        if target is not None and not editable(target, self.snapshot):
            target = None  # added next to it instead
        if target is not None and candidate.category == "CONTRADICT" and quotes_a_template(candidate, target):
            target = None  # no ground to replace a quoted message: judged as a learning of its own
            candidate = candidate.model_copy(update={"category": "FILL_GAP", "related": ""})
            places = placements(candidate)
        if target is not None and not joins(candidate, target):
            # no update of that block: a rule of its own, at a clean place of a fitting section
            candidate = candidate.model_copy(update={"category": "FILL_GAP"})
            places, target = placements(candidate), None
        if (
            target is not None
            and candidate.category == "CONTRADICT"
            and not replaces_a_rule(candidate, target)
        ):  # a contradiction of a line about something else: when unsure, propose nothing
            self._set_aside(candidate, f"would replace a line about something else: “{_quote(target.text)}”")
            return
        drafts: list[Draft] = []
        left: list[str] = []  # places past the ADD cap
        for number, layer in enumerate(places):
            placed = candidate.on_layer(layer)
            verdict, matched = self._judge(placed, layer if len(places) > 1 else None)
            if verdict.category == "FORBIDDEN" and verdict.reserved and number == 0:
                # the user does what it orders: the lesson is to wait for, or remind, the user
                reworded = around_the_user(candidate.principle)
                if reworded is not None:
                    said = candidate.model_copy(update={"principle": reworded, "title": ""})
                    again, found = self._judge(said.on_layer(layer), layer if len(places) > 1 else None)
                    # new, or the rule the prohibition itself speaks of; a line elsewhere that speaks
                    # of it may state it already ("wait for the user to amend" said another way)
                    if again.category == "FILL_GAP" or (
                        again.category == "UPDATE" and again.members[:1] == verdict.members[:1]
                    ):
                        candidate, placed, verdict, matched = said, said.on_layer(layer), again, found
            if verdict.category == "FORBIDDEN":  # never proposed: the memory forbids what it orders
                assert matched is not None
                under = f" under “{matched.section}”" if matched.section else ""
                self._set_aside(
                    candidate, f"the memory forbids what it asks: “{verdict.quote}”{under} ({matched.file})"
                )
                return
            if verdict.category == "RECORDED":
                matched = self._recorded_before(candidate, matched) or matched
            if verdict.category in ("CONTRADICT", "UNSURE") and not (
                number == 0 and target is not None and candidate.category == "CONTRADICT"
            ):  # not "already recorded", and no ground to replace it: the reviewer weighs it later
                assert matched is not None
                why = "says the opposite of" if verdict.category == "CONTRADICT" else "negates a line about"
                self._set_aside(candidate, f"{why} “{_quote(matched.text)}” ({matched.file})")
                return
            if verdict.category == "RECORDED" and verdict.quote and matched is not None:
                matched = replace(
                    matched, text=verdict.quote
                )  # the items of a list that state it, not its lead-in
            if verdict.category != "RECORDED":
                matched = None
            elif candidate.category == "CONTRADICT":
                # the scan read a statement as its opposite (a fenced example line, say) where the dream's
                # matcher finds the learning stated as it is: recorded, so no contradiction either
                assert matched is not None
                candidate = candidate.model_copy(update={"category": "UPDATE", "related": matched.text})
                placed = candidate.on_layer(layer)
            if number == 0 and target is not None and matched is None:
                drafts.append(self._edit(placed, target))
            elif matched is not None:
                drafts.append(self._add(placed, skipped=matched))
            elif self.added >= max_add:
                left.append(layer)
            else:
                drafts.append(self._add(placed))
        for draft in drafts:
            draft.queue_ids = queue_ids
            draft.learning = candidate  # the whole learning, every layer: what the backlog keeps
        if left:
            self.result.waiting.append(
                (candidate.model_copy(update={"layers": left, "layer": left[0]}), f"ADD cap {max_add}")
            )
            self.result.notes.append(
                f"waits in the backlog (ADD cap {max_add}): {redact(plain(candidate.principle, 70))}"
            )
        if drafts and all(d.skipped for d in drafts) and not left:
            self.result.recorded_queue_ids.extend(queue_ids)
        if any(d.action == "ADD" and not d.skipped for d in drafts):
            self.added += 1
        self.result.drafts.extend(drafts)

    def _claude_md_change(self, candidate: Candidate, path: str, section: str) -> dict[str, Any] | None:
        """The change that adds the learning's rule to a CLAUDE.md: one entry line, or the whole block
        (rule, why, detail) after the text it follows."""
        rule = rule_block(candidate)
        if "\n" not in rule:
            return {"op": "add_entry", "file": path, "section": section, "text": rule}
        layout = self.snapshot.settings.layout
        text = (
            self.snapshot.user_claude_md
            if path == str(layout.user_claude_md)
            else self.snapshot.project_claude_md
        )
        found = _insert_rule(text, [e for e in self.entries if e.file == path], section, rule)
        return {"op": "replace_text", "file": path, **found} if found is not None else None

    def _beside(self, candidate: Candidate, path: str, proposed: bool = True) -> Place | None:
        """The place beside the CLAUDE.md block the rule is about (`placement`), or None; one new
        rule per block in a run (a set-aside one takes no place)."""
        layout = self.snapshot.settings.layout
        text = (
            self.snapshot.user_claude_md
            if path == str(layout.user_claude_md)
            else self.snapshot.project_claude_md
        )
        place = beside(text, rule_block(candidate), candidate.principle)
        if place is None or any(place.old in old for old in self.anchored):
            return None  # a second rule beside one block: the section's end instead
        if proposed:
            self.anchored.append(place.old)
        return place

    def _recorded_before(self, candidate: Candidate, matched: Remembered | None) -> Remembered | None:
        """The entry an earlier review found stating this learning, when it is still remembered and
        still states it: a set-aside learning keeps quoting the line that states it, not whichever
        entry a changed memory now scores a little higher (a rule added since for another learning)."""
        stored = self.backlog.recorded.get(learning_id(candidate)) if self.backlog is not None else None
        if not stored or matched is not None and flat(matched.text) == stored:
            return None
        entry = next((e for e in self.entries if flat(e.text) == stored), None)
        if entry is None:
            return None
        alone = Matcher.of_entries([(entry.file, entry.section, entry.whole)])
        return entry if alone.judge(candidate.principle).category == "RECORDED" else None

    def _set_aside(self, candidate: Candidate, reason: str) -> None:
        """A learning the plan does not propose, and does not settle either: it waits in the backlog,
        and the review says why."""
        self.result.waiting.append((candidate, reason))

    def records_also(self, principle: str) -> bool:
        """Does the memory, on any layer, already state `principle`, a wording said with another one?
        When it does, the wording is no "Also: …" of that learning, and the review says why."""
        if self.matcher_of(None).judge(principle).category != "RECORDED":
            return False
        note = f"already recorded: {plain(principle, 70)} (said with another learning of this run)"
        if note not in self.result.notes:
            self.result.notes.append(note)
        return True

    def matcher_of(self, layer: str | None) -> Matcher:
        return self._matched(layer)[1]

    def _matched(self, layer: str | None) -> tuple[list[Remembered], Matcher]:
        key = "all" if layer is None else "memory" if layer in MEMORY_LAYERS else layer
        if key not in self.matchers:  # the pool is read once too, not once per candidate
            pool = self._pool(layer)
            self.matchers[key] = pool, Matcher.of_entries([(e.file, e.section, e.whole) for e in pool])
        return self.matchers[key]

    def _judge(self, candidate: Candidate, layer: str | None) -> tuple[Verdict, Remembered | None]:
        """What the entries of `layer` (or of every layer) say of the candidate (`discover.matcher`),
        and the entry the verdict names."""
        pool, matcher = self._matched(layer)
        verdict = matcher.judge(candidate.principle)
        return verdict, pool[verdict.members[0]] if verdict.members else None

    def _pool(self, layer: str | None) -> list[Remembered]:
        if layer is None:
            return self.entries
        group = MEMORY_LAYERS if layer in MEMORY_LAYERS else (layer,)
        return [e for e in self.entries if e.layer in group]

    def _edit(self, candidate: Candidate, target: Remembered) -> Draft:
        self.taken.add(key_of(target))
        found = edit_changes(candidate, target, self.snapshot, self.names, day_of(candidate))
        draft = _draft(
            candidate,
            "EDIT",
            found.file,
            found.section,
            found.changes,
            found.layer,
            rationale=found.rationale,
        )
        if candidate.category == "CONTRADICT":  # the sessions say the entry is wrong: a person decides
            draft.warning = CONTRADICT_WARNING
        return draft

    def _add(self, candidate: Candidate, *, skipped: Remembered | None = None) -> Draft:
        layout = self.snapshot.settings.layout
        if candidate.layer in ("L0", "L1"):
            path = layout.user_claude_md if candidate.layer == "L0" else layout.project_claude_md
            place = self._beside(candidate, str(path), skipped is None)
            if place is not None:  # beside the block it is about
                section = place.section
                change: dict[str, Any] | None = {
                    "op": "replace_text",
                    "file": str(path),
                    "old": place.old,
                    "new": place.new,
                }
            else:
                section = claude_md_section(self.snapshot, candidate)
                change = self._claude_md_change(candidate, str(path), section)
            if change is None:  # nothing to anchor a rule of several lines to: the memory dir holds it
                self.result.notes.append(
                    f"written to the memory dir (its CLAUDE.md is empty): {redact(plain(candidate.principle, 70))}"
                )
                return self._add(candidate.on_layer("L2"), skipped=skipped)
            why = (
                "universal preference: every session of every project"
                if candidate.layer == "L0"
                else "project convention"
            )
            draft = _draft(candidate, "ADD", str(path), section, [change], candidate.layer, rationale=why)
        else:
            section = memory_section(candidate, self.snapshot)
            kind = section_type(section, topic_type(candidate))  # the type matches the section it lands in
            topic = topic_name(candidate, self.names, kind)
            self.names.add(topic)
            changes: list[dict[str, Any]] = [
                {
                    "op": "write_file",
                    "file": topic,
                    "content": topic_file(candidate, kind),
                    "create_only": True,
                },
                {
                    "op": "add_entry",
                    "file": INDEX,
                    "section": section,
                    "text": pointer_line(candidate, topic),
                },
            ]
            why = f"a new line in MEMORY.md → {section}; its whole text in the new topic file {topic}" + (
                ", read only when needed" if candidate.layer == "L3" else ""
            )
            draft = _draft(candidate, "ADD", INDEX, section, changes, candidate.layer, rationale=why)
        if skipped is not None:
            draft.skipped = {
                "reason": "already recorded",
                "matched": {"file": skipped.file, "layer": skipped.layer, "entry": flat(skipped.text)},
            }
        return draft


def _quote(text: str) -> str:
    return redact(plain(text, 60))


def _insert_rule(text: str, blocks: list[Remembered], section: str, rule: str) -> dict[str, str] | None:
    """A rule of several lines added under `section` of a CLAUDE.md as `replace_text` of the block it
    follows (entries are one line each; a rule with its detail is a block): after the section's last
    block, under its heading when it has none, or in a new section at the end. None when the file
    offers no unique anchor."""
    own = [b.text for b in blocks if b.section == section]
    heading = re.search(rf"^#{{1,6}}[ \t]+{re.escape(section)}[ \t]*#*[ \t]*$", text, re.MULTILINE)
    if own:
        anchor, new = own[-1], own[-1] + rule_after(own[-1], rule)
    elif heading is not None:
        anchor, new = heading.group(0), heading.group(0) + "\n\n- " + rule
    elif blocks:
        anchor, new = blocks[-1].text, blocks[-1].text + f"\n\n## {section}\n\n- " + rule
    else:
        return None
    return {"old": anchor, "new": new} if text.count(anchor) == 1 else None


def placements(candidate: Candidate) -> list[Layer]:
    """Where a learning goes: L0, L1 and/or the memory dir (its most specific memory layer), in the
    order the candidate names them; `meta` is a suggestion, not a place."""
    places: list[Layer] = []
    memory = [layer for layer in candidate.layers if layer in MEMORY_LAYERS]
    most: Layer = "L2c" if "L2c" in memory else "L3" if "L3" in memory else "L2"
    for layer in candidate.layers:
        place = most if layer in MEMORY_LAYERS else layer
        if place != "meta" and place not in places:
            places.append(place)
    return places


def merge_alike(
    *streams: Iterable[Candidate], recorded: Callable[[str], bool] | None = None
) -> list[tuple[Candidate, list[str]]]:
    """Candidates that say the same thing become one: the fullest text, the frequency of its distinct
    sightings (`sightings`: the same sessions read again count once), the strongest confidence and
    impact, the evidence (each record once) and queue ids, and the others' wording where it adds words
    ("Also: …" in the detail) — never a wording the memory already states (`recorded`): it would repeat
    the entry beside it. The first of several streams (the backlog) keeps its order and comes first;
    the rest is ranked by impact."""
    groups: list[tuple[int, list[Candidate]]] = []
    restated: set[int] = set()  # groups that took a wording the matcher found stating the same rule
    index = Index()
    alone = Statements()  # each wording's matcher built once, though every pair of them is compared
    for order, stream in enumerate(streams):
        for candidate in stream:
            score, position = index.most_alike(f"{candidate.trigger} {candidate.principle}")
            lead = groups[position][1][0] if position >= 0 else None
            needed = SAME_SESSION_ALIKE if lead is not None and _same_session(candidate, lead) else ALIKE
            if (
                lead is not None
                and score >= needed
                and set(candidate.layers) == set(lead.layers)
                and orders_the_same(candidate.principle, lead.principle)  # one command, two acts: two rules
            ):
                groups[position][1].append(candidate)
            elif (general := _case_of(candidate, [g for _, g in groups])) is not None:
                groups[general][1].append(candidate)  # one rule and its special case are one learning
            elif (same := _same_rule(candidate, [g[0] for _, g in groups], alone)) is not None:
                groups[same][1].append(candidate)  # the one rule, told twice in other words
                restated.add(same)
            else:  # the index holds one text per group, so positions match
                groups.append((order, [candidate]))
                index.add(f"{candidate.trigger} {candidate.principle}")
    merged = []
    for position, (order, group) in enumerate(groups):
        widest = [c for c in group if not any(special_case(c, o) for o in group if o is not c)]
        widest = _stating(widest, alone) if len(widest) > 1 else widest
        best = max(widest or group, key=_speaks_best)  # the general rule speaks for its special cases
        speaks = alone(best.principle) if position in restated else None
        others = [
            c.principle
            for c in group
            if c is not best
            and (
                coverage(words(c.principle), words(best.principle)) < 1.0
                or _negations(c.principle) - _negations(best.principle)  # a "never" is no filler
            )
            and (  # said by it, in the place it was meant for, unless it names more
                speaks is None
                or set(c.layers) != set(best.layers)
                or speaks.judge(c.principle).category != "RECORDED"
                or unsaid_words(
                    c.principle, f"{best.trigger} {best.principle}"
                )  # "the linter" beside `cargo clippy`
            )
        ]
        if recorded is not None:
            others = [o for o in others if not recorded(o)]
        # the reviewer sees every wording folded into this one, also those not written as "Also: …"
        folded = [c.principle for c in group if c is not best and c.principle not in others]
        folded = list(dict.fromkeys(p for p in folded if p != best.principle))
        note = " ".join(
            [best.note.strip(), *(f"Also said as “{plain(p, 120)}” (the same rule)." for p in folded)]
        ).strip()
        detail = "\n\n".join([best.detail.strip(), *(f"Also: {flat(o)}" for o in others)]).strip()
        layers = _holding(best, group) if others else best.layers
        combined = best.model_copy(
            update={
                "layers": layers,
                "layer": layers[0] if layers else best.layer,
                "frequency": sightings(group),
                "confidence": max(c.confidence for c in group),
                "impact": max(c.impact for c in group),
                "evidence": distinct_evidence(group)[:5],
                "sightings": sorted({k for c in group for k in _sightings_of(c)}),
                "detail": detail,
                "note": note,
            }
        )
        merged.append((order, combined, [c.queue_id for c in group if c.queue_id]))
    first = [m for m in merged if m[0] == 0 and len(streams) > 1]
    rest = sorted((m for m in merged if m not in first), key=lambda m: rank(m[1]), reverse=True)
    return [(c, q) for _, c, q in first + rest]


def _holding(best: Candidate, group: list[Candidate]) -> list[Layer]:
    """Where a learning told in several wordings goes when the others add words ("Also: …"): the
    speaker's layers, unless only a CLAUDE.md line would hold it while another wording belongs in
    the memory dir, whose topic file keeps every wording."""
    if any(layer in MEMORY_LAYERS for layer in best.layers):
        return list(best.layers)
    memory = [layer for c in group for layer in c.layers if layer in MEMORY_LAYERS]
    return [memory[0]] if memory else list(best.layers)


def _sighting(evidence: EvidenceRef) -> str:
    """What one sighting is: a record of a session (its text when the record has no id)."""
    if not (evidence.session or evidence.uuid):
        return f"\0{flat(evidence.quote)}" if evidence.quote.strip() else ""
    return f"{evidence.session}\0{evidence.uuid or flat(evidence.quote)}"


def _sightings_of(candidate: Candidate) -> set[str]:
    return set(candidate.sightings) | set(filter(None, map(_sighting, candidate.evidence)))


def distinct_evidence(group: list[Candidate]) -> list[EvidenceRef]:
    """The group's evidence, each sighting once (the backlog's copy of a learning and the same sessions
    read again cite the same records)."""
    found: dict[str, EvidenceRef] = {}
    for number, evidence in enumerate(e for c in group for e in c.evidence):
        found.setdefault(_sighting(evidence) or f"\1{number}", evidence)
    return list(found.values())


def sightings(group: list[Candidate]) -> int:
    """How often a learning told by several candidates was seen: candidates that cite a sighting in
    common counted the same sessions (a learning waiting in the backlog, and its sessions read again
    after an undo or with `--since`), so they count as the most any of them saw; candidates with no
    sighting in common add up."""
    counted: list[tuple[set[str], int]] = []  # sightings read together, and the most any candidate saw
    for candidate in group:
        keys, most = _sightings_of(candidate), candidate.frequency
        for shared in [c for c in counted if c[0] & keys]:
            counted.remove(shared)
            keys, most = keys | shared[0], max(most, shared[1])
        counted.append((keys, most))
    return sum(most for _, most in counted)


def _negations(text: str) -> set[str]:
    """The negation words of a text, which the content words leave out."""
    return set(_NEGATION.findall(text.lower()))


_NEGATION = re.compile(r"\b(?:never|not|no|don't|do not|nicht|не|нельзя|никогда|不|别|asla|değil)\b")


class Statements:
    """The matcher of each wording of one run alone (what a memory holding just that statement says
    of another), built once per wording: the candidates of a run are compared pair by pair, so a
    matcher per comparison would be built again for every other candidate."""

    def __init__(self) -> None:
        self._built: dict[str, Matcher] = {}

    def __call__(self, principle: str) -> Matcher:
        found = self._built.get(principle)
        if found is None:
            found = self._built[principle] = Matcher.of_entries([("", "", principle)])
        return found


def _stating(group: list[Candidate], alone: Statements) -> list[Candidate]:
    """Those of one learning's wordings that no other wording states more of: a rule another states
    only as part of itself ("Remind the user to amend … after each commit" of "Stop after all commits so
    the user can review the change, amend … and do tests") does not speak for the learning."""
    judged = [alone(c.principle) for c in group]

    def states(i: int, j: int) -> bool:
        return judged[i].judge(group[j].principle).category == "RECORDED"

    kept = [
        c
        for j, c in enumerate(group)
        if not any(i != j and states(i, j) and not states(j, i) for i in range(len(group)))
    ]
    return kept or group


def _same_rule(candidate: Candidate, leads: list[Candidate], alone: Statements) -> int | None:
    """The group whose lead states the candidate's rule, or whose rule the candidate states, by the
    matcher that says whether memory states a rule ("Don't install it until it passes its tests" is
    stated by "After the tests pass, install the new version"): one learning of the run, one proposal.
    Two wordings of which one says most of the other's rule (`said_in_part`) are one learning too.
    Never a contradiction, a rule stated only by several leads together, or a rule of every project
    (L0) with one of this project."""
    if candidate.category == "CONTRADICT":
        return None
    fitting = [
        i
        for i, lead in enumerate(leads)
        if ("L0" in lead.layers) == ("L0" in candidate.layers) and lead.category != "CONTRADICT"
    ]  # a rule of the project is one rule in CLAUDE.md or the memory dir; one of every project is not
    if not fitting:
        return None
    stating = alone(candidate.principle)

    def same(lead: Candidate) -> bool:
        if alone(lead.principle).judge(candidate.principle).category == "RECORDED":
            return True
        if stating.judge(lead.principle).category == "RECORDED":
            return True
        if one_sequence(candidate.principle, lead.principle):  # "don't X until Y" and "after Y, X"
            return True
        return (
            not contradicts(candidate.principle, lead.principle)
            and orders_the_same(candidate.principle, lead.principle)
        ) and (  # one practice, a step more
            said_in_part(candidate.principle, lead.principle)
            or said_in_part(lead.principle, candidate.principle)
        )

    found = [i for i in fitting if same(leads[i])]  # the one sharing most of its content speaks for it
    return max(
        found, key=lambda i: (shared_content(candidate.principle, leads[i].principle), -i), default=None
    )


def _case_of(candidate: Candidate, groups: list[list[Candidate]]) -> int | None:
    """The group whose lead is the general rule of `candidate`, or the special case of it."""
    for position, group in enumerate(groups):
        lead = group[0]
        if set(candidate.layers) == set(lead.layers) and (
            special_case(candidate, lead) or special_case(lead, candidate)
        ):
            return position
    return None


_SPAN = re.compile(r"`([^`\n]+)`")


def special_case(one: Candidate, other: Candidate) -> bool:
    """Is `one` a special case of `other`: every command it names in backticks is one of the programs
    `other` names, with arguments (`tspec clippy` instead of `cargo clippy` for `tspec` instead of
    `cargo`), and `other` says the rest of its words, with the same polarity?"""
    spans = [s.split() for s in _SPAN.findall(one.principle)]
    programs = {s.strip() for s in _SPAN.findall(other.principle) if len(s.split()) == 1}
    if not spans or not programs or not all(len(s) > 1 and s[0] in programs for s in spans):
        return False
    if {s[0] for s in spans} != programs or contradicts(one.principle, other.principle):
        return False
    rest = words(_SPAN.sub(" ", one.principle))
    return not rest or coverage(rest, words(other.principle)) >= 1.0


def _speaks_best(candidate: Candidate) -> tuple[bool, bool, float, int]:
    """Which wording of a learning told twice is kept: one written down on purpose (a marker, a queue
    item, a remember request) first, then one with a trigger, the most confident, the fullest."""
    written = candidate.kind in ("marker", "queue", "remember")
    return written, bool(candidate.trigger.strip()), candidate.confidence, len(words(candidate.principle))


def _same_session(a: Candidate, b: Candidate) -> bool:
    """Both were seen in one session (a correction and the marker that wrote it down, say)."""
    return bool({e.session for e in a.evidence if e.session} & {e.session for e in b.evidence if e.session})


def claude_md_section(snapshot: Snapshot, candidate: Candidate) -> str:
    """The CLAUDE.md heading the rule goes under: the one the candidate names when it exists (or
    starts it: "Build Commands" finds "Build Commands — Dogfood tspec"), else a default."""
    text = snapshot.user_claude_md if candidate.layer == "L0" else snapshot.project_claude_md
    headings = [m[1].strip() for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.MULTILINE)]
    named = [p.strip() for p in candidate.section.split("/") if p.strip()]
    for wanted in named:
        folded = wanted.casefold()
        found = next((h for h in headings if h.casefold() == folded), None) or next(
            (h for h in headings if h.casefold().startswith(folded)), None
        )
        if found and not orders_under_ban(found, candidate.principle):
            return found
    named = [n for n in named if not orders_under_ban(n, candidate.principle)]
    if named:
        return named[0]
    fitting = fitting_section(text, candidate.principle)  # the file's own section for it, when one fits
    return fitting or ("Preferences" if candidate.layer == "L0" else "Gotchas")


def memory_section(candidate: Candidate, snapshot: Snapshot) -> str:
    """An existing MEMORY.md section when one fits; else the section of the memory type."""
    kind = topic_type(candidate)
    index = snapshot.tree.index
    doc = index.document if index is not None else None
    for name in (candidate.section, TYPE_SECTIONS[kind]):
        found = doc.section(name) if doc is not None and name else None
        if found is not None:
            return found.name
    if candidate.kind == "remember" and candidate.section.strip():
        return candidate.section.strip()  # asked for by name: a new section
    return TYPE_SECTIONS[kind]


_NOT_A_NAME = STOP | DEGREE | {"when", "the", "and"}


def topic_name(candidate: Candidate, taken: set[str], kind: str | None = None) -> str:
    source = candidate.trigger if candidate.trigger.strip() else (candidate.title or candidate.principle)
    source = without_secrets(source)  # a file name is written too: redact before slugging
    words_ = [  # the words that say what it is about: no "the", "have", "no", "all", "definitely"
        w for w in _SLUG.sub(" ", source.lower()).split() if len(w) > 2 and w not in _NOT_A_NAME
    ]
    slug = whole_words(words_[:5], 40) or "learning"
    kind = kind or topic_type(candidate)
    if candidate.kind == "remember":
        slug = subject_slug(candidate.trigger, candidate.principle, taken, kind)
    name, number = f"{kind}_{slug}.md", 2
    while name in taken:
        name, number = f"{kind}_{slug}_{number}.md", number + 1
    return name


def _draft(
    candidate: Candidate,
    action: str,
    file: str,
    section: str,
    changes: list[dict[str, Any]],
    layer: str,
    *,
    rationale: str,
) -> Draft:
    seen = f"seen {candidate.frequency}× " if candidate.frequency > 1 else ""
    return Draft(
        action=action,
        summary=plain(title_of(candidate), 240),
        layer=layer,
        file=file,
        section=section,
        rationale=f"{candidate.kind} {seen}— {rationale}",
        category=candidate.category,
        confidence=candidate.confidence,
        sources=["discoverer"],
        changes=changes,
        evidence=candidate.evidence[:3],
        queue_ids=[candidate.queue_id] if candidate.queue_id else [],
        learning=candidate,
    )


def day_of(candidate: Candidate) -> str:
    """The date a change is recorded under: when the sessions said it (the latest evidence), else today."""
    stamps = sorted(
        e.timestamp[:10] for e in candidate.evidence if re.match(r"^\d{4}-\d{2}-\d{2}", e.timestamp)
    )
    return stamps[-1] if stamps else datetime.now(UTC).strftime("%Y-%m-%d")
