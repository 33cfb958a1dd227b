"""Is a learning already remembered? One decision, made the same way by the scan and the dream.

`Matcher` holds what is remembered — the statements of Markdown texts (the scan) or the remembered
entries of one layer (the dream) — and `judge(principle)` answers with a `Verdict`:

- RECORDED: a statement already says it, in its words (the principle's content words, ≥ `RECORDED`
  of them, or ≥ `RECORDED_WITH_CODE` and every program it names) or in other words
  (`samerule.Memory.restating`: anchors by shape, stems, synonyms, polarity);
- FORBIDDEN: it would have the assistant do what the memory forbids it (`samerule.Memory.forbidding`:
  an item of a list under a heading or lead-in that forbids, a "never …" / "do not …" sentence) —
  "Amend the session files before the bump" against "Amending commits with session files" under
  "Operations Claude Cannot Perform"; never proposed, whatever else it shares words with;
- CONTRADICT: the best-matching statement about the same subject says the opposite (`confident`);
- UNSURE: the statement it negates is about something else (a paragraph that merely names the same
  tool): no ground to replace it, and no ground to add the learning beside it either;
- UPDATE: it states a remembered rule and names more (`samerule.Memory.extended`), or shares most
  of a short statement's words (≥ `RELATED`) without saying the opposite;
- FILL_GAP: nothing remembered says it.

The stages run cheapest first: shared content words (indexed, so a principle is compared only with
statements that share two of its words), then the meaning match on the few units it leaves open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..lazyre import lazy
from .existing import as_ban, choices, chooses_the_opposite, chooses_the_same, contradicts, same_subject
from .samerule import (
    LEAD_IN,
    Memory,
    Text,
    Unit,
    act_of,
    anchors_said,
    as_forbidden,
    forbidden_items,
    is_table,
    known_act,
    matches_code,
    negation_elsewhere,
    opposed,
    ordered_action,
    read,
    required_content,
    restating_entries,
    values_differ,
)
from .text import stems
from .units import ruled, table_rows, text_entries

RECORDED = 0.8  # the share of the principle's content words a statement says to record it already
RECORDED_JACCARD = 0.8  # or the two say nearly the same words, both ways
RECORDED_WITH_CODE = 0.6  # enough when every program the principle names is in the statement too
RELATED = 0.5  # the share of the smaller text's words two texts share to be about one rule
MIN_SHARED = 2  # fewer shared content words than this is no relation at all
_CODE = lazy(r"`([^`\n]+)`")
_PROGRAM = lazy(r"[a-z][\w+-]*")


@dataclass(frozen=True)
class Verdict:
    category: str  # RECORDED | FORBIDDEN | UPDATE | CONTRADICT | UNSURE | FILL_GAP
    related: str = ""  # the statement it is about, as written
    members: tuple[int, ...] = ()  # positions of the statements (entries) it stands for, the one quoted first
    how: str = ""  # "words" or "meaning": what found a RECORDED or UPDATE
    quote: str = ""  # what of a list states it, when not `related` alone (a lead-in and its steps);
    # for FORBIDDEN, the prohibition it would break (a forbidden list's item, a "never …" sentence)
    reserved: bool = False  # FORBIDDEN by a list of what the assistant cannot do: the user does it

    @property
    def confident(self) -> bool:
        """A contradiction of the best-matching statement about the same subject."""
        return self.category == "CONTRADICT"


class Matcher:
    """What is remembered, as compared with a learning (see the module)."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        # stage one compares single statements, and each line of a paragraph of prose lines
        self.texts = [text for _, text in memory.statements] + [u.text for u in memory.lines]
        self._stems = [stems(t) for t in self.texts]
        self._by_stem: dict[str, list[int]] = {}
        for position, found in enumerate(self._stems):
            if position < len(memory.statements) and is_table(self.texts[position]):
                continue  # a table is compared row by row, never whole
            for stem in found:
                self._by_stem.setdefault(stem, []).append(position)
        self._owner = list(range(len(memory.statements))) + [u.members[0] for u in memory.lines]
        # never a copy by words: a lead-in ("These operations are off limits:") says its rule with its
        # list, never alone,
        self._not_alone = {
            u.members[0] for u in memory.units if u.group and LEAD_IN.search(u.text.split("\n")[0])
        }
        # nor is a block of three lines or more (a list with its nested items, code): its many words
        # say a short rule by chance; the meaning match weighs it
        self._not_alone |= {p for p, text in enumerate(self.texts) if text.count("\n") >= 2}
        # an item a heading or a lead-in forbids ("Git Operations Claude Cannot Perform") is read as
        # the prohibition it is: a rule that forbids it too states it, one that orders it breaks it
        # (`Memory.forbidding`), and neither contradicts it by shared words
        items = forbidden_items(memory.statements, memory.groups)
        # a table row is compared as the statement it makes with its header, quoted as written
        rows = {
            statement: (written, cells)
            for _, text in memory.statements
            for written, statement, cells in table_rows(text)
        }
        self._written = {p: rows[t][0] for p, t in enumerate(self.texts) if t in rows}
        self._rows = [(p, rows[t][1]) for p, t in enumerate(self.texts) if t in rows]
        self._row_written = {statement: written for statement, (written, _) in rows.items()}
        self._row_cells = {statement: cells for statement, (_, cells) in rows.items()}
        self._subjects = {p: cells[0] for p, cells in self._rows}
        self._polarity_of = {p: as_forbidden(t) for p, t in enumerate(self.texts) if self._owner[p] in items}

    @classmethod
    def of_texts(cls, texts: Mapping[str, str] | Iterable[str]) -> Matcher:
        """Markdown texts, read as the dream reads a CLAUDE.md (`units.markdown_blocks`): each list
        item or paragraph (with the code that follows it) under its heading, a list with its lead-in."""
        values = list(texts.values() if isinstance(texts, Mapping) else texts)
        return cls.of_entries(text_entries(values))

    @classmethod
    def of_entries(cls, entries: Sequence[tuple[str, str, str]]) -> Matcher:
        """Remembered entries (file, section, whole text) in the order they are written."""
        return cls(restating_entries(entries))

    def judge(self, principle: str) -> Verdict:
        chosen = self._by_choice(principle)
        if chosen is not None:
            return chosen
        found = self._by_words(principle)
        if found.category == "RECORDED":
            return self._stating(principle, found)
        forbidden = self.memory.forbidding(principle)
        if forbidden is not None:  # it would have the assistant do what the memory forbids it
            text = self.memory.statements[forbidden.member][1]
            return Verdict(
                "FORBIDDEN", text, (forbidden.member,), "meaning", forbidden.quote, forbidden.reserved
            )
        content = required_content(principle)  # what a document must make clear, stated already
        if content is not None and (said := self.judge(content)).category == "RECORDED":
            return said
        restated = self.memory.restating(principle)  # a unit that states it as it is wins over one opposed
        if restated is not None and self._off_subject(principle, restated.unit):
            restated = None
        if restated is not None and not self._another_act(principle, restated.unit.members):
            members, quote = self.memory.saying_most(principle, restated.unit)
            verdict = self._verdict("RECORDED", members, "meaning", restated.unit)
            return self._stating(principle, replace(verdict, quote=quote or verdict.quote))
        if found.category != "FILL_GAP":
            return found
        extended = self.memory.extended(principle)
        if extended is not None and self._off_subject(principle, extended.unit):
            extended = None
        if extended is not None and not self._another_act(principle, extended.unit.members):
            return self._verdict("UPDATE", extended.unit.members, "meaning", extended.unit)
        row = self._row_stating(principle)
        if row is not None:
            return self._at("RECORDED", row, "meaning")
        return Verdict("FILL_GAP")

    def _shared_by(self, mine: frozenset[str]) -> dict[int, int]:
        """How many of the stems `mine` each statement shares, for the statements sharing any."""
        shared_by: dict[int, int] = {}
        for stem in mine:
            for position in self._by_stem.get(stem, ()):
                shared_by[position] = shared_by.get(position, 0) + 1
        return shared_by

    def _by_choice(self, principle: str) -> Verdict | None:
        """A choice between two things ("use git, not jj, for version control") against a statement
        that makes the same choice or the opposite one ("**Use jj, not git, for version-control
        operations** … the repo *can* be driven with raw `git` …"): which side each chooses decides,
        not that the statement names both. The opposite about the same subject is a CONTRADICT; the
        same choice, with most of the principle's words said, is RECORDED."""
        if not choices(principle):
            return None
        mine = stems(principle)
        shared_by = self._shared_by(mine)
        core = mine - _CHOOSING  # its words but those that say the choice: "instead of X" is "not X"
        same: int | None = None  # the first statement making the same choice
        for position in sorted(shared_by, key=lambda p: (-shared_by[p], p)):
            if (
                shared_by[position] < MIN_SHARED
                or position in self._polarity_of
                or position in self._subjects
            ):
                continue
            text = self.texts[position]
            if chooses_the_opposite(principle, text):
                if same_subject(text, principle):
                    return self._at("CONTRADICT", position)
                continue
            if (
                same is None
                and chooses_the_same(principle, text)
                and len(core & self._stems[position]) >= RECORDED * len(core)
                and anchors_said(read(principle), read(text))  # a choice is no list ("jj, not git")
            ):
                same = position
        return self._at("RECORDED", same, "words") if same is not None else None

    def _stating(self, principle: str, verdict: Verdict) -> Verdict:
        """`verdict` quoting the sentence that states the rule — the same act, the same polarity —
        when what it quotes is about another act and merely shares words with it ("Amending commits
        with `.cache/` files" for "Do not commit `.cache/` files", where a paragraph says "… can only
        make commits (excluding `.cache/` files)"): the reviewer sees the reason it is recorded."""
        act = act_of(principle)
        quoted = verdict.quote or verdict.related
        if not known_act(act) or " … " in quoted:
            return verdict
        position = next((p for p, t in enumerate(self.texts) if t == quoted), None)
        theirs = act_of(self._polarity_of.get(position, quoted) if position is not None else quoted)
        if not known_act(theirs) or theirs == act:
            return verdict
        mine, banned = stems(principle) - {act}, _bans(principle)
        best: tuple[int, int, str] | None = None  # (shared words, position, sentence)
        for position, (_, text) in enumerate(self.memory.statements):  # whole statements, no wrapped line
            if position in self._polarity_of or "```" in text:
                continue
            for sentence in _SENTENCE_END.split(" ".join(text.split())):
                shared = len(mine & stems(sentence))
                if (
                    shared >= MIN_SHARED
                    and (best is None or shared > best[0])
                    and act_of(sentence) == act
                    and _bans(sentence) == banned
                    and said_by(principle, sentence)
                ):
                    best = (shared, position, sentence)
        if best is None:
            return verdict
        return Verdict("RECORDED", self.memory.statements[best[1]][1], (best[1],), verdict.how, best[2])

    def _off_subject(self, principle: str, unit: Unit) -> bool:
        """Is the unit a table row whose subject (its first cell) the principle never names?"""
        cells = self._row_cells.get(unit.text)
        return cells is not None and not _names_subject(principle, cells[0])

    def _row_stating(self, principle: str) -> int | None:
        """The table row that states what the requirement `principle` asks ("A `ts backup` must
        preserve the user's data" by "| backup, restore | raw `fs::copy` | Exact byte-for-byte
        preservation |"): its subject is the row's first cell (an item of it, and nothing else but
        the program a code span names), its act a word of another cell, its polarity the row's, and
        what it says the act of the row says too — or nothing particular ("the user's data") when
        the row's act reaches everything (its word ends its cell: "exact preservation")."""
        required = _REQUIRED.search(principle) if self._rows else None
        if required is None or required["neg"]:
            return None
        subject = _subject_words(principle[: required.start()])
        act = read(required["verb"]).stems
        wanted = read(principle[required.end() :]).stems
        for position, cells in self._rows:
            named = _items_named(subject, cells[0])
            if not named or not subject - set().union(*named) <= _subject_rest(principle):
                continue
            told = read(" ".join(cells[1:]))
            if not act or not act <= told.stems or _opposite(principle, self.texts[position]):
                continue
            everything = any(
                act <= read(_LAST_WORD.findall(cell)[-1]).stems
                for cell in cells[1:]
                if _LAST_WORD.findall(cell)
            )
            if wanted <= told.stems or (everything and not wanted - told.stems - _ANY_OBJECT):
                return position
        return None

    def _another_act(self, principle: str, members: tuple[int, ...]) -> bool:
        """Does a statement that forbids an act (a "never …" line, an item of a forbidding list) share
        only what the act is said of with `principle`, which is about another act it never names
        ("prune the cache files" against "never stage the cache files")? Then it neither states nor
        updates it."""
        forbids = self.memory.forbidden_acts(members[0]) if members else frozenset()
        act = act_of(principle) if forbids else None
        if act is None or act in forbids:
            return False
        flat = read(principle).flat
        if any(f.startswith("`") and f[1:] in flat for f in forbids):
            return False  # "do not run npm update" is about the forbidden `npm update`
        said = read(self.memory.statements[members[0]][1])  # a statement that orders the act too
        return act.lstrip("`") not in (said.flat if act.startswith("`") else said.stems)

    def _verdict(
        self, category: str, members: tuple[int, ...], how: str, unit: Unit | None = None
    ) -> Verdict:
        """The verdict naming the statements; a line of a paragraph is quoted as the line."""
        text = unit.text if unit is not None and not unit.group else self.memory.statements[members[0]][1]
        row = self._row_written.get(text, "")  # a table row: quoted as written, not its whole table
        return Verdict(category, row or text, members, how, row)

    def _by_words(self, principle: str) -> Verdict:
        """Stage one: the statements that share content words with the principle. A contradiction is
        only ever the best-matching statement, and only one about the same subject."""
        mine = stems(principle)
        size = len(mine)
        shared_by = self._shared_by(mine)
        best: tuple[float, int, float] | None = None  # (containment, position, share of the principle)
        opposed: tuple[float, int] | None = None
        adds: int | None = None  # the first statement it says, and more (an option, a path)
        for position in sorted(shared_by):
            shared = shared_by[position]
            if shared < MIN_SHARED:
                continue
            if position in self._subjects and not _names_subject(principle, self._subjects[position]):
                continue  # a row is about its first cell: one that shares words with it says another rule
            theirs = self._stems[position]
            text = self.texts[position]
            polar = self._polarity_of.get(position, text)
            jaccard = shared / len(mine | theirs)
            containment = shared / min(size, len(theirs))
            said_already = shared / size
            if (
                jaccard >= RECORDED_JACCARD
                or said_already >= RECORDED
                and shared >= 3
                or (said_already >= RECORDED_WITH_CODE and shared >= 3 and _same_commands(principle, text))
            ):
                if not _opposite(principle, polar):
                    if said_by(principle, text) and position not in self._not_alone:
                        return self._at("RECORDED", position, "words")
                    if adds is None and (said_by(text, principle) or _changes_a_value(principle, text)):
                        adds = position  # its rule and an option or path more, or another value
                elif (  # a forbidden item is broken (FORBIDDEN), never contradicted, nor a table row
                    position not in self._polarity_of
                    and position not in self._subjects
                    and same_subject(principle, text)
                    and (opposed is None or jaccard > opposed[0])
                ):
                    opposed = (jaccard, position)  # unless another statement says it as it is
            if position in self._subjects:
                continue  # a row updated is one that says it and names more (`adds`), never by shared words
            if containment >= RELATED and (best is None or containment > best[0]):
                best = (containment, position, said_already)
        if opposed is not None:
            return self._at("CONTRADICT", opposed[1])
        if adds is not None:
            return self._at("UPDATE", adds, "words")
        if best is None:
            return Verdict("FILL_GAP")
        text = self.texts[best[1]]
        if self._another_act(principle, (self._owner[best[1]],)):
            return Verdict("FILL_GAP")
        forbids = self.memory.forbidden_acts(self._owner[best[1]])
        if forbids and ordered_action(principle) is None and _same_ban(principle, text):
            return self._at("RECORDED", best[1], "words")  # "never X" is "do not X"
        if best[1] in self._polarity_of or not _opposite(principle, text):
            return self._at("UPDATE", best[1], "words")
        if best[2] < RELATED:  # a short line that speaks of a small part of a long rule: no ground either way
            return Verdict("FILL_GAP")
        return self._at("CONTRADICT" if same_subject(principle, text) else "UNSURE", best[1])

    def _at(self, category: str, position: int, how: str = "") -> Verdict:
        row = self._written.get(position, "")  # a table row: quoted as written, not its whole table
        return Verdict(category, row or self.texts[position], (self._owner[position],), how, row)


_CHOOSING = frozenset(stems("instead rather than prefer prefers preferred over always never not"))
_REQUIRED = lazy(
    r"\b(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to)\s+"
    r"(?P<neg>(?:not|never)\s+)?(?:(?:always|also|still|fully)\s+)?(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
_LAST_WORD = lazy(r"[A-Za-z]+")
# what a requirement may say its act reaches without naming anything particular
_ANY_OBJECT = frozenset({"user", "info", "data", "content", "file", "everyth", "exact", "intact", "definit"})


def _words(text: str) -> set[str]:
    """The words of a subject, code spans read as their words, flags left out."""
    return {w for w in re.findall(r"(?<![\w-])[a-z][\w]*", text.lower()) if w not in _ARTICLES}


_ARTICLES = frozenset({"a", "an", "the", "every", "each", "any", "our", "its", "and", "or"})


def _items_named(words: set[str], subject: str) -> list[set[str]]:
    """The items of a row's first cell ("backup, restore, new -f") whose every word is in `words`."""
    items = [_words(item) for item in re.split(r"[,/]|\band\b", subject)]
    return [item for item in items if item and item <= words]


def _names_subject(principle: str, subject: str) -> bool:
    """Does the principle name an item of a row's first cell (in its prose or its code spans)?"""
    return bool(_items_named(_words(principle), subject))


def _subject_words(text: str) -> set[str]:
    return {w for w in _words(text) if not w.endswith("ly")}  # "definitely needs to": how, not who


def _subject_rest(principle: str) -> set[str]:
    """What a subject may name beside the row's item: the program of a code span (`ts` of `ts backup`)."""
    return {span.split()[0].lower() for span in _CODE.findall(principle) if span.split()}


_SENTENCE_END = lazy(r"(?<=[.!?])\s+(?=[A-Z*`])")
# what makes a sentence a ban, or keeps a thing out of what it allows ("commits, excluding `.cache/`")
_BAN = lazy(r"\b(?:never|not|no|don'?t|cannot|can'?t|mustn'?t|excluding|except|without)\b", re.IGNORECASE)


def _bans(text: str) -> bool:
    return bool(_BAN.search(as_ban(text.lower())))


def said_by(principle: str, statement: str) -> bool:
    """Every command, flag or name the principle puts in backticks is said by the statement (as a code
    span of the same shape or in its prose), with the same value: else the principle adds or changes
    something concrete."""
    said, known = read(principle), read(statement)
    return anchors_said(said, known) and not values_differ(said, known)


_BAN_WORDS = frozenset({"never", "dont", "don't", "not", "must"})


def _same_ban(principle: str, statement: str) -> bool:
    """Two prohibitions of one act in the same words but for the word that forbids ("never", "do
    not")."""
    mine, theirs = stems(principle) - _BAN_WORDS, stems(ruled(statement)) - _BAN_WORDS
    return bool(mine) and len(mine & theirs) / len(mine | theirs) >= RECORDED_JACCARD


def _changes_a_value(principle: str, statement: str) -> bool:
    """A code span of one shape with another value (`default: 3` against `default: 5`)."""
    return values_differ(read(principle), read(statement))


def _opposite(principle: str, statement: str) -> bool:
    """One says the opposite of the other, by the word polarity of `existing`, or, between two single
    sentences, by the polarity the meaning match reads ("never run `cargo fmt` before a commit"
    against "run `cargo fmt` before every commit"): across the sentences of a long line a negation
    in one says nothing of the rule another states."""
    said, known = read(principle), read(statement)  # the commands of its fences are its anchors
    statement = ruled(statement)
    if for_the_user(statement) and not for_the_user(principle):
        return False  # "do not commit X" (the assistant) against "remind the user to commit X"
    if said.negated_anchors and not said.negated and known.anchors:
        # it rules out commands alone ("`tspec clean -w` instead of `cargo clean`"): it says the opposite
        # of a statement that runs one of them, not of one whose commands merely share a word
        return _runs_what_the_other_rules_out(said, known) or _runs_what_the_other_rules_out(known, said)
    if contradicts(principle, statement) and not negation_elsewhere(read(principle), read(statement)):
        return True
    single = not _SENTENCES.search(principle.strip()) and not _SENTENCES.search(statement.strip())
    return single and opposed(read(principle), read(statement), False)


def _runs_what_the_other_rules_out(one: Text, other: Text) -> bool:
    asserted = other.anchors - other.negated_anchors
    return any(matches_code(n, a) or matches_code(a, n) for n in one.negated_anchors for a in asserted)


_SENTENCES = lazy(r"[.!?;:]\s+\S|\s[—–]\s|\n")
_FOR_USER = lazy(
    r"\b(?:remind|ask|tell|prompt|notify|warn)(?:s|ed|ing)?\b|\b(?:the\s+)?user(?:'s)?\s+"
    r"(?:must|should|needs?\s+to|has\s+to|is\s+to|will|can|may|does|do|then\b|alone\b|manually\b)",
    re.IGNORECASE,
)


def for_the_user(text: str) -> bool:
    """Does the text (outside what a fence quotes) ask something of the user — the assistant reminding,
    asking or telling the user to act, or the user named as who acts ("the user must merge")? A rule
    about what the assistant itself does never contradicts it."""
    return _FOR_USER.search(ruled(text)) is not None


def _same_commands(principle: str, statement: str) -> bool:
    """Every program the principle names in backticks is named by the statement."""
    heads = {span.split()[0].lower() for span in _CODE.findall(principle) if span.split()}
    if not heads or not all(_PROGRAM.fullmatch(h) for h in heads):
        return False  # a path or a file (`.claude/`, `notes/todo.md`) names no program: a rule about it may differ
    lowered = statement.lower()
    return bool(heads) and all(re.search(rf"(?<![\w-]){re.escape(h)}(?![\w-])", lowered) for h in heads)
