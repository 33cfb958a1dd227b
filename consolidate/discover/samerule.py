"""Is a rule already remembered in other words? Matching by meaning, not by shared words alone.

A careful reader sees that "Don't install it until after it passes its tests" is the rule "After code
changes pass tests, immediately install the new version" by what they are about and what they say:

- the same *anchors*: the commands, flags, paths and names in backticks, compared by their shape
  (`[12],[14]` is `[1],[2]`; `0.10.0-dev` is `X.Y.Z-dev`); an anchor the remembered rule lacks is
  something new, so the candidate is never a restatement (it may be an update);
- the same *content*, word by word up to inflection (a Snowball stemmer: installation / install,
  merging / merge, preservation / preserve), a typo (rapidfuzz), or a synonym of the small general
  vocabulary of rules (immediately / ASAP, remove / delete, create / add); weighted, so rare words
  count more than the ones every rule uses and fillers ("need", "definitely") count little;
- the same *polarity*: one text negating what the other asserts is a contradiction, not a restatement
  ("don't X until Y" orders X after Y, it does not forbid X); a negation opposes only a sentence that
  also speaks of what it is said of ("never commit directly to main" is not the opposite of "on all
  non-trivial commits, work on a branch");
- the *context* the rule is stated in: its section heading ("Git Operations Claude Cannot Perform"
  says what its items mean) and, for a list, the lead-in and its sibling items (a workflow written as
  numbered steps is one rule).

`Memory` holds the remembered units (each statement, and each list with its lead-in) and answers
`restating(principle)`: the unit that already states the rule, or None; and `forbidding(principle)`:
the prohibition of the assistant the rule would have it break (an item of a list a heading or lead-in
forbids, a "never …" / "do not …" sentence; the same verb said of the same thing, or the forbidden
command), or None. Offline, no model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from ..lazyre import lazy
from . import grammar
from .existing import as_ban, keeps_out
from .text import STOPWORDS, language
from .units import table_rows

SAME = 0.78  # weighted share of the candidate's content a unit must say to state the rule
SAME_GROUP = 0.85  # stricter against a whole list: its many words say more by chance
SAME_ANCHORED = 0.65  # enough when a code span of the same shape is in both (`[12],[14]`, `[1],[2]`)
PAIR_PART = 0.35  # what each of two statements that state a rule together must say of it alone
LINES_ALONE = 12  # the most lines of a block whose lines are also compared alone
QUOTE_PART = 0.2  # what an item must say of a rule a list states to be quoted with it
PAIR_POOL = 6  # the statements saying most of a rule that are tried two by two
MIN_CONTENT = 3  # fewer content words than this is too little to judge by
_TYPO = 90  # rapidfuzz ratio for two words of at least 5 letters to be one word mistyped
_CODE = lazy(r"`([^`\n]+)`")
_WORD = lazy(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_CJK_RUN = lazy(r"[\u3400-\u9fff]+")
_HEADING = lazy(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_LIST_ITEM = lazy(r"^(\s*)(?:[-*+]|\d{1,9}[.)])\s+")
_FIRST_STEP = lazy(r"^\s*1[.)]\s+")
LEAD_IN = lazy(r"[:：]\**\s*$")
_SKIP_LINE = lazy(r"^\s*(?:```|~~~|---\s*$|<!--|\|[-: |]+\|\s*$)")
_UNTIL = lazy(
    r"\b(?:don'?t|do not|never|not)\s+((?:[\w`./-]+\s+){0,4}?)(?:until|before|unless)\b", re.IGNORECASE
)
_NEGATION = lazy(
    r"\b(?:don'?t|do not|does not|doesn'?t|never|not|no|cannot|can'?t|must not|mustn'?t|should not|"
    r"shouldn'?t|won'?t|avoid|without|instead of|rather than)\b|не\b|нельзя|никогда|不要|别|不|yerine|değil",
    re.IGNORECASE,
)
_FORBIDDING_HEADING = lazy(
    r"\b(?:cannot|can'?t|never|don'?t|do not|must not|forbidden|avoid|not allowed)\b", re.IGNORECASE
)
# The reason a rule gives ("so that …", "because …", ", this provides …") weighs less than the rule.
_REASON = lazy(
    r"\b(?:because|since|so that|so we|so the|so it|as it|which|this (?:provides|gives|makes|way|means|is)|"
    r"otherwise|to make sure|in order to|as (?=(?:\w+[ -]){0,2}?\w+ing\b))\b|[—–]|\s-\s",
    re.IGNORECASE,
)
_CLAUSES = lazy(r"[,;]\s+|\s+(?:and|but|then|as|because|since|so that)\s+", re.IGNORECASE)
# "…; force-pushing to main is bad form": a judgement said after the rule is the reason it gives
_JUDGEMENT = lazy(
    r";\s+(?=[^;.!?]{0,80}?\s(?:is|are)\s+(?:(?:really|very|just|a|an)\s+)*(?:bad|poor|risky|dangerous|"
    r"unsafe|wrong|fragile|error-prone|confusing|painful|costly)\b)",
    re.IGNORECASE,
)
_CAUSE = lazy(r"because|since|so that|so we|so the|so it|as it|otherwise|to make sure|in order to|as ", re.I)
REASON_WEIGHT = 0.4
FILLER_WEIGHT = 0.2
ANCHOR_WEIGHT = 2.0  # a command, flag or name in backticks that is more than one word says more than a word


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Words every rule uses: they count little toward saying the same thing.
_FILLER = _split(
    """
    need needs needed make makes made sure definitely really always every everything thing things way get
    gets got go going want wants like also still ever even whenever time times new one ones each important
    importantly properly correctly good better best should must shall done doing work working use using
    used run running put able via per step steps first then next later now provide provides provided
    providing
    """
)
# Words that carry no content of their own (beyond the shared stop words).
_FUNCTION = frozenset(
    _split(
        """
        because until unless since though although whether don doesn didn isn aren wasn won shouldn it its
        we our us etc actually basically simply instead
        """
    )
)
# General synonyms of rules about software work (never one project's phrases): each group is one meaning.
_SYNONYMS = (
    "immediately asap promptly soon sooner",
    "remove delete drop strip erase",
    "create add write save",
    "bump increment raise increase",
    "preserve keep kept retain maintain",
    "info information data content contents details",
    "docs documentation readme doc",
    "error failure fail fails failing broken break breaks",
    "change changes modification modify edit edits",
    "check verify validate confirm ensure",
    "install installation reinstall",
    "start begin beginning starting",
    "wait stop pause halt",
    "finish complete completion end",
    "mention say state tell",
    "before prior earlier",
    "after once following",
    "test tests testing",
    "permit allow let",
    "reference link cite",
    "perform do carry",
)


# Abbreviations of software writing, read as the word they stand for (never one project's names).
_ABBREVIATIONS = {
    **dict.fromkeys(("cmd", "cmds"), "command"),
    **dict.fromkeys(("ref", "refs"), "reference"),
    **dict.fromkeys(("repo", "repos"), "repository"),
    **dict.fromkeys(("dir", "dirs"), "directory"),
    **dict.fromkeys(("config", "cfg", "conf"), "configuration"),
    **dict.fromkeys(("env", "envs"), "environment"),
    **dict.fromkeys(("dep", "deps"), "dependency"),
    **dict.fromkeys(("arg", "args"), "argument"),
    **dict.fromkeys(("param", "params"), "parameter"),
    **dict.fromkeys(("func", "fn", "funcs"), "function"),
    **dict.fromkeys(("impl", "impls"), "implementation"),
    **dict.fromkeys(("msg", "msgs"), "message"),
    **dict.fromkeys(("pkg", "pkgs"), "package"),
    **dict.fromkeys(("lib", "libs"), "library"),
    **dict.fromkeys(("src",), "source"),
    **dict.fromkeys(("db", "dbs"), "database"),
    **dict.fromkeys(("tmp", "temp"), "temporary"),
    **dict.fromkeys(("prod",), "production"),
    **dict.fromkeys(("perf",), "performance"),
    **dict.fromkeys(("spec", "specs"), "specification"),
    **dict.fromkeys(("ver",), "version"),
    **dict.fromkeys(("util", "utils"), "utility"),
    **dict.fromkeys(("req", "reqs"), "request"),
    **dict.fromkeys(("auth",), "authentication"),
}


@lru_cache(maxsize=4)
def _stemmer(lang: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer({"ru": "russian", "tr": "turkish"}.get(lang, "english"))


@lru_cache(maxsize=4)
def _stem_of(lang: str) -> Callable[[str], str]:
    """The stemmer of a language as a function, remembering every word it stemmed (the Snowball
    stemmers are pure Python: a memory of thousands of entries repeats the same few thousand words)."""
    return lru_cache(maxsize=65536)(_stemmer(lang).stemWord)


# A word said by a broader one of general software work: a rule about commits is said by one about
# changes ("on all non-trivial commits" by "all non-trivial changes"), never the other way round.
_BROADER_WORDS = {"commit": "change"}


def _synonym_map() -> dict[str, str]:
    stem = _stemmer("en").stemWord
    found: dict[str, str] = {}
    for group in _SYNONYMS:
        members = group.split()
        for member in members:
            found.setdefault(stem(member), stem(members[0]))
    return found


_SYN = _synonym_map()
_BROADER = {
    _SYN.get(_stemmer("en").stemWord(a), _stemmer("en").stemWord(a)): _SYN.get(
        _stemmer("en").stemWord(b), _stemmer("en").stemWord(b)
    )
    for a, b in _BROADER_WORDS.items()
}
_FILLER_STEMS = frozenset(_SYN.get(s, s) for s in map(_stemmer("en").stemWord, _FILLER))


def shape(code: str) -> str:
    """A code span as compared: lower-cased, numbers and one-letter placeholders made one ("0.10.0-dev"
    and "X.Y.Z-dev", "[12],[14]" and "[1],[2]"), a numbered pre-release one ("X.Y.Z-dev0", "-devN"
    and "-dev"), `<placeholders>` made one, spaces squeezed."""
    text = re.sub(r"<[^<>\s]{1,40}>", "<>", code.strip())
    text = re.sub(r"(?<![A-Za-z])[XYZN](?![A-Za-z])", "0", text)
    text = re.sub(r"\d+", "0", text.lower())
    text = re.sub(r"(?<=\d)-(dev|rc|alpha|beta|pre|post)(?:0|n)\b", r"-\1", text)  # -dev0, -devN: -dev
    return " ".join(text.split())


def _anchor_words(code: str) -> set[str]:
    """The words of a code span that name something (`cargo fmt --check`: cargo, fmt, check;
    `.claude/*`: claude)."""
    return {w for w in _WORD.findall(code.lower()) if len(w) >= 2 and not w.isdigit()}


@dataclass(frozen=True)
class Text:
    """A text as compared: stems of its content words (synonyms folded), its anchors (code shapes
    and the words of its code spans) and its negated stems."""

    stems: frozenset[str]
    anchors: frozenset[str]
    anchor_words: frozenset[str]
    negated: frozenset[str]
    negated_anchors: frozenset[str]
    words: tuple[str, ...]  # the content words as written (lower-cased), for typo tolerance
    reason: frozenset[str] = frozenset()  # stems said only in the reason the rule gives
    anchor_stems: frozenset[str] = frozenset()  # stems of the words of its code spans
    values: frozenset[tuple[str, str]] = frozenset()  # (shape, code as written) of each code span
    flat: str = ""  # the whole text lower-cased, backticks and emphasis left out, spaces squeezed
    cause: bool = False  # the reason is a cause ("because …", "so that …", "as forcing …"), not an aside
    counts: frozenset[tuple[str, str]] = (
        frozenset()
    )  # (stem, number or `code`): "two sections", "the `X` trait"
    items: tuple[frozenset[str], ...] = ()  # each list said in prose ("a, b, c and d"): its items as written
    # each negation: the stems it negates and the other words of its clause ("never commit directly to
    # main": commit, and direct and main), so it opposes only a sentence that speaks of both
    negations: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    source: str = ""  # the text as written: its sentences are read when a negation needs them
    # (verb, place) of each place one works in that the text has one create, use or work on ("create a
    # branch", "work on a branch", "use a feature branch"): one practice, whichever verb says it
    practices: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Content:
    """What a text says, as the memory's index of units reads it: its stems (synonyms folded), its
    code shapes and the words of its code spans — the start of `read`, without its polarity,
    values, counts and lists, which only a unit a learning is compared with needs."""

    stems: frozenset[str]
    anchors: frozenset[str]
    anchor_words: frozenset[str]
    words: tuple[str, ...]
    reason: frozenset[str]
    cause: bool
    language: str


_SHELL_FENCE = lazy(
    r"^ {0,3}(?P<fence>`{3,}|~{3,})[ \t]*(?:bash|sh|shell|console|zsh|fish)?[ \t]*\n(?P<body>.*?)^ {0,3}(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_COMMAND_LINE = lazy(r"^\s*(?:\$\s+)?(?P<command>[a-z][\w.+-]*(?:[ \t]+[^#\s][^#\n]*?)?)[ \t]*(?:#.*)?$")


@lru_cache(maxsize=8192)
def fenced_commands(text: str) -> tuple[str, ...]:
    """The commands of the shell blocks of `text` (a fence with no language or a shell one), each line
    without its prompt and its comment: anchors as a code span is ("tspec clippy   # Run lints" is
    `tspec clippy`)."""
    if "```" not in text and "~~~" not in text:
        return ()
    found: list[str] = []
    for block in _SHELL_FENCE.finditer(text):
        for line in block["body"].splitlines():
            command = _COMMAND_LINE.match(line)
            if command is not None and not re.search(r"[`{}();]", command["command"]):
                found.append(" ".join(command["command"].split()))
    return tuple(found)


@lru_cache(maxsize=32768)
def content(text: str) -> Content:
    """How `read` begins: the content words and anchors of `text` (see `Content`)."""
    codes = _CODE.findall(text) + list(fenced_commands(text))
    plain = _CODE.sub(lambda m: " " + m.group(1) + " ", text)
    lang = language(plain)
    stem = _stem_of(lang)
    raw = plain.lower()
    judged = _JUDGEMENT.search(raw)  # read before `phrased` makes "X is bad form" a "never X"
    if judged is not None and judged.start() > 8:
        rule_part = phrased(raw[: judged.start()])
        lowered = rule_part + phrased(raw[judged.start() :])
        cause = True
    else:
        lowered = phrased(raw)
        cut = _REASON.search(lowered)
        rule_part = lowered[: cut.start()] if cut and cut.start() > 8 else lowered
        cause = bool(cut and rule_part is not lowered and _CAUSE.fullmatch(cut.group(0)))
    found: set[str] = set()
    written: list[str] = []
    in_rule: set[str] = set()
    for number, part in enumerate((rule_part, lowered[len(rule_part) :])):
        for word in _content_words(part):
            base = stem(word)
            base = _SYN.get(base, base)
            found.add(base)
            if number == 0:
                in_rule.add(base)
            written.append(word)
    for run in _CJK_RUN.findall(lowered):
        found.update(run[i : i + 2] for i in range(len(run) - 1)) if len(run) > 1 else found.add(run)
    words: set[str] = set()
    for code in codes:
        words |= _anchor_words(code)
    return Content(
        frozenset(found),
        frozenset(shape(c) for c in codes if shape(c)),
        frozenset(words),
        tuple(written),
        frozenset(found - in_rule),
        cause,
        lang,
    )


@lru_cache(maxsize=32768)
def read(text: str) -> Text:
    """How `text` is compared (see `Text`)."""
    said = content(text)
    codes = _CODE.findall(text) + list(fenced_commands(text))
    plain = _CODE.sub(lambda m: " " + m.group(1) + " ", text)
    stem = _stem_of(said.language)
    negation = _negated(text, stem)
    return Text(
        said.stems,
        said.anchors,
        said.anchor_words,
        *negation[:2],
        said.words,
        said.reason,
        frozenset(_SYN.get(b, b) for b in (stem(w) for w in said.anchor_words)),
        frozenset((shape(c), " ".join(c.lower().split())) for c in codes if shape(c)),
        " ".join(re.sub(r"[`*]", " ", text.lower()).split()),
        said.cause,
        _counts(plain.lower(), stem) | _named(text, stem),
        _lists(text.lower()),
        negation[2],
        text,
        _practices(plain.lower(), stem),
    )


def outline_of(text: str) -> Text:
    """What `Memory._most_said` needs of `text` as the one that says: its stems, anchors, the stems of
    its code words, its reason and practices, as `read` has them — without its polarity, values,
    counts and lists."""
    said = content(text)
    stem = _stem_of(said.language)
    plain = _CODE.sub(lambda m: " " + m.group(1) + " ", text)
    return Text(
        said.stems,
        said.anchors,
        said.anchor_words,
        frozenset(),
        frozenset(),
        said.words,
        said.reason,
        frozenset(_SYN.get(b, b) for b in (stem(w) for w in said.anchor_words)),
        cause=said.cause,
        practices=_practices(plain.lower(), stem),
    )


# A place one works in, and the verbs that say working in it: creating a branch, starting one, using
# one, working on one and being on one are the one practice of working on a branch.
_PRACTICE = lazy(
    r"\b(?P<verb>creat\w*|mak\w*|start\w*|open\w*|us(?:e|es|ed|ing)|work(?:s|ed|ing)?(?=\s+(?:on|in)\b)|"
    r"switch\w*(?=\s+to\b)|be(?=\s+(?:on|in)\b)|go(?:es)?(?=\s+(?:on|in)\b))\s+(?:(?:on|in|to)\s+)?"
    r"(?:(?:a|an|the|its|their|your|our|own|new|separate|dedicated|fresh|feature|topic|local|virtual)\s+)*"
    r"(?P<place>branch(?:es)?|worktrees?|workspaces?|environments?|venvs?|containers?|sandbox(?:es)?|forks?)\b",
    re.IGNORECASE,
)


def _practices(lowered: str, stem: Callable[[str], str]) -> frozenset[tuple[str, str]]:
    """(verb, place) stems of each place one works in said with a verb of working in it (`_PRACTICE`)."""
    found = set()
    for match in _PRACTICE.finditer(lowered):
        verb, place = stem(match["verb"]), stem(match["place"])
        found.add((_SYN.get(verb, verb), _SYN.get(place, place)))
    return frozenset(found)


_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(_split("zero one two three four five six seven eight nine ten eleven twelve"))
}
_COUNTED = lazy(
    r"(?<![\w.-])(\d+|" + "|".join(_NUMBER_WORDS) + r")(?![\w.-])(?:\s+(?:[\w-]+\s+)??([^\W\d_]{3,}))?",
    re.UNICODE,
)


def _counts(lowered: str, stem: Callable[[str], str]) -> frozenset[tuple[str, str]]:
    """(what is counted, how many) of each number said in prose before a word: "three sections" is
    (section, 3), "under 50 chars" (char, 50), "two top-level sections" (section, 2)."""
    found: set[tuple[str, str]] = set()
    for match in _COUNTED.finditer(lowered):
        number, word = match.group(1), match.group(2)
        if not word or word in STOPWORDS or (number == "one" and word in ("of", "that", "which")):
            continue
        base = stem(word)
        found.add((_SYN.get(base, base), _NUMBER_WORDS.get(number, number)))
    return frozenset(found)


_NAMED = lazy(r"\b(?:the|a|an|its|our|their|this)\s+`([^`\n]+)`\s+([^\W\d_]{3,})", re.UNICODE | re.IGNORECASE)


def _named(text: str, stem: Callable[[str], str]) -> frozenset[tuple[str, str]]:
    """(what is named, the code span naming it) of a code span said between an article and a word:
    "the `Execute` trait" is (trait, `execute`), compared as a count is ("the `Run` trait" names another trait)."""
    found: set[tuple[str, str]] = set()
    for match in _NAMED.finditer(text):
        word = match.group(2).lower()
        if word in STOPWORDS or word in _FUNCTION:
            continue
        base = stem(word)
        found.add((_SYN.get(base, base), "`" + shape(match.group(1))))
    return frozenset(found)


_LIST = lazy(r"(?:[^,;:()\n—–]+,\s*){2,}(?:and\s+|or\s+)?[^,;:()\n—–.]+")


def _lists(lowered: str) -> tuple[frozenset[str], ...]:
    """Each list of three items or more said in prose ("profile, target_dir, build_std and config"):
    its items as written (backticks and emphasis left out), when each is one to three words."""
    found: list[frozenset[str]] = []
    for match in _LIST.finditer(lowered):
        parts = [" ".join(re.sub(r"[`*]", " ", p).split()) for p in match.group(0).split(",")]
        parts[-1:] = re.split(r"^(?:and|or)\s+|\s+(?:and|or)\s+", parts[-1], maxsplit=1)
        parts = [p for p in parts if p]
        if len(parts) < 3:
            continue
        size = len(parts[1].split())  # the first item as long as the second: "… holds host, port"
        parts[0] = " ".join(re.split(r"\s-\s", parts[0])[-1].split()[-size:])
        parts[-1] = " ".join(parts[-1].split()[:size])
        if all(0 < len(p.split()) <= 3 for p in parts):
            found.append(frozenset(parts))
    return tuple(found)


def _negated(
    text: str, stem: object
) -> tuple[frozenset[str], frozenset[str], tuple[tuple[frozenset[str], frozenset[str]], ...]]:
    """Stems and code shapes a negation reaches: a negated verb ("do not defer installation" negates
    deferring), the object of a verb that only carries it ("never use bare `cargo test`"), the words
    after "instead of", "without", "no". "Don't X until Y" is left out: it orders X after Y. With them,
    each negation's reach and the other words of its clause (what it is said of)."""
    codes: list[str] = []

    def hold(match: re.Match[str]) -> str:
        codes.append(shape(match.group(1)))
        return f" \x00{len(codes) - 1} "

    lowered = _CODE.sub(hold, text.lower())
    lowered = phrased(lowered)
    found: set[str] = set()
    shapes: set[str] = set()
    negations: list[tuple[frozenset[str], frozenset[str]]] = []
    for match in _NEGATION.finditer(lowered):
        clause = _CLAUSE_END.split(lowered[match.end() : match.end() + 80], maxsplit=1)[0]
        tail = [w for w in _TAIL.findall(clause) if w not in STOPWORDS][:4]
        if not tail:
            continue
        if _VERB_NEGATION.fullmatch(match.group(0)) and not tail[0].startswith("\x00"):
            reach = tail[1:3] if stem(tail[0]) in _CARRIERS else tail[:1]  # type: ignore[operator]
        else:
            reach = tail[:3]
        reached: set[str] = set()
        if reach and reach[-1].startswith("\x00"):  # "never use bare `a`, `b` or `c`": all of them
            reach = reach + _listed_after(lowered, match.end(), reach[-1])
        for word in reach:
            if word.startswith("\x00"):
                shapes.add(codes[int(word[1:])])
                continue
            base = stem(word)  # type: ignore[operator]
            reached.add(_SYN.get(base, base))
        found |= reached
        rest = (stem(w) for w in tail if w not in reach and not w.startswith("\x00"))  # type: ignore[operator]
        said_of = {_SYN.get(b, b) for b in rest}
        if reached:
            negations.append((frozenset(reached), frozenset(said_of - reached - _FILLER_STEMS)))
    return frozenset(found), frozenset(shapes), tuple(negations)


_CLAUSE_END = lazy(r"[(),;:.!?—–]|\s-\s|\b(?:but|and then|because|since|so)\b")
# the code spans listed after one ("`a`, `b`, or `c`", "`a` or `b`"), as `_negated` holds them
_HELD_LIST = lazy(r"(?:\s*,\s*(?:(?:or|and|nor)\s+)?\x00\d+|\s+(?:or|nor)\s+\x00\d+)+")
_MARKED_LIST = lazy(r"(?:\s*,\s*(?:(?:or|and|nor)\s+)?\x00\d+\x00|\s+(?:or|nor)\s+\x00\d+\x00)+")
_OR = lazy(r"\b(?:or|nor)\s")


def _listed_after(lowered: str, start: int, token: str) -> list[str]:
    """The held code spans listed right after `token` (found from `start`) — "`a`, `b`, or `c`": `b`
    and `c` —, when the list says "or" / "nor" (a list of alternatives a negation reaches whole)."""
    at = lowered.find(token + " ", start)
    listed = _HELD_LIST.match(lowered, at + len(token)) if at >= 0 else None
    if listed is None or not _OR.search(listed.group(0)):
        return []
    return re.findall(r"\x00\d+", listed.group(0))


_SENTENCE_END = lazy(r"[.!?;]+(?:\s+|$)|\n+|\s[—–]\s")


def _content_words(lowered: str) -> Iterator[str]:
    """The content words of a lower-cased text as compared: contractions cut ("it's": it),
    abbreviations read as their word, stop words, function words, one letter and numbers left out."""
    for word in _WORD.findall(_CJK_RUN.sub(" ", lowered)):
        word = word.replace("’", "'")
        word = word.split("'")[0] if word.endswith(("'s", "'t", "'re", "'ve", "'ll", "'d")) else word
        word = _ABBREVIATIONS.get(word, word)
        if word in STOPWORDS or word in _FUNCTION or len(word) < 2 or word.isdigit():
            continue
        yield word


@lru_cache(maxsize=8192)
def sentences(text: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """(stems, negated stems) of each sentence of `text` that has words: what a negation of another
    text must meet in one sentence to oppose it."""
    stem = _stem_of(language(_CODE.sub(lambda m: " " + m.group(1) + " ", text)))
    found: list[tuple[frozenset[str], frozenset[str]]] = []
    for sentence in _SENTENCE_END.split(text):
        plain = phrased(_CODE.sub(lambda m: " " + m.group(1) + " ", sentence).lower())
        bases = {_SYN.get(b, b) for b in map(stem, _content_words(plain))}
        for run in _CJK_RUN.findall(plain):
            bases.update(run[i : i + 2] for i in range(len(run) - 1)) if len(run) > 1 else bases.add(run)
        if bases:
            found.append((frozenset(bases), _negated(sentence, stem)[0]))
    return tuple(found)


# each with the words one of its matches holds, looked for first (a text says none of them mostly)
_PHRASES = (
    (
        lazy(r"\b(?:right away|straight away|as soon as possible|at once|without delay)\b"),
        " immediately ",
        ("right away", "straight away", "as soon as possible", "at once", "without delay"),
    ),
    (lazy(r"\bprior to\b"), " before ", ("prior to",)),
    (lazy(r"\buntil after\b"), " until ", ("until after",)),
    (lazy(r"^\s*once\b|(?<=[,;:] )once\b"), " after ", ("once",)),
    # "mention that as step 0": saying the rule where it applies is the rule, not another one
    (
        lazy(
            r"\b(?:please\s+)?(?:mention|say|state|note|list)\s+(?:that|it|this)(?=\s+(?:as|in|at|when|first)\b|\s*[,;.)])"
        ),
        " ",
        ("mention", "say", "state", "note", "list"),
    ),
)


def phrased(lowered: str) -> str:
    """Phrases of one meaning said one way: "right away" is "immediately", a leading "once" is
    "after", "X is forbidden" is "never X", and "don't X until Y" / "do not X before Y" become "X only after Y" (an order, not a ban)."""
    for pattern, replacement, words in _PHRASES:
        if any(word in lowered for word in words):
            lowered = pattern.sub(replacement, lowered)
    lowered = as_ban(lowered)
    return _UNTIL.sub(lambda m: m.group(1) + " only after ", lowered)


_TAIL = lazy(r"\x00\d+|[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_VERB_NEGATION = lazy(
    r"don'?t|do not|does not|doesn'?t|never|not|cannot|can'?t|must not|mustn'?t|should not|shouldn'?t|won'?t|"
    r"не|不要|别|不",
    re.IGNORECASE,
)
_CARRIERS = frozenset({"use", "run", "call", "do", "make", "have", "let", "bare", "ever"})


@dataclass(frozen=True)
class Unit:
    """A remembered statement as compared: its text, its section, and the statements it stands for
    (one, or a list with its lead-in)."""

    text: str
    heading: str
    members: tuple[int, ...]

    @property
    def group(self) -> bool:
        return len(self.members) > 1


@dataclass(frozen=True)
class Restated:
    unit: Unit
    score: float


def is_table(text: str) -> bool:
    """Is the block a Markdown table and nothing else?"""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= 3 and all(_TABLE.match(line) for line in lines) and bool(table_rows(text))


def _lines(text: str) -> list[str]:
    """The lines of a block of two lines or more (a paragraph, a list item with its nested items or
    its wrapped lines), each compared alone too, up to `LINES_ALONE` of them; the lines of fenced
    code never are. A table row is read as the statement it makes with its header (`table_rows`),
    every row of a table of any length; its header alone states nothing."""
    rows = {written: statement for written, statement, _ in table_rows(text)}
    lines: list[str] = []
    fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        elif not fence and line.strip() and not _SKIP_LINE.match(line):
            lines.append(line.strip())
    stated = [rows[line] for line in lines if line in rows]
    if stated:
        lines = [line for line in lines if not _TABLE.match(line)]  # the rows as read, never the header
    if not 2 <= len(lines) + len(stated) <= LINES_ALONE:
        return [
            line for line in stated if len(line) > 8
        ]  # a longer text (a topic file's body) is compared whole
    return [line for line in stated + lines if len(line) > 8]


class Memory:
    """Remembered statements, each with its heading, in the order they are written; consecutive list
    items after a lead-in ("On completion:") also form one unit with it, and each line of a block of
    several lines is one too (never a line of fenced code)."""

    def __init__(self, statements: Sequence[tuple[str, str]], groups: Iterable[Sequence[int]] = ()) -> None:
        self.statements = list(statements)
        groups = [tuple(members) for members in groups]
        self.groups = groups
        self._prohibitions: list[Prohibition] | None = None
        self.units = [Unit(text, heading, (i,)) for i, (heading, text) in enumerate(self.statements)]
        for members in groups:
            if len(members) > 1:
                first = self.statements[members[0]]
                text = "\n".join(self.statements[i][1] for i in members)
                self.units.append(Unit(text, first[0], tuple(members)))
        # the index and the weights need only what each unit says (`content`); the rest of `read` is
        # worked out for the units a learning is compared with, on demand
        said = [(content(u.text), content(u.heading)) for u in self.units]
        self._weights = _weights([own.stems | context.stems for own, context in said])
        self._weighed: dict[Text, tuple[tuple[str, float], ...]] = {}
        # each line of a block of several lines is also compared alone (lines of fenced code never)
        self.lines = [
            Unit(line, heading, (i,))
            for i, (heading, text) in enumerate(self.statements)
            for line in _lines(text)
        ]
        self.units += self.lines
        said += [(content(u.text), content(u.heading)) for u in self.lines]
        self._by_stem: dict[str, list[int]] = {}
        for position, (own, context) in enumerate(said):
            if position < len(self.statements) and is_table(self.statements[position][1]):
                continue  # a table is compared row by row (`_lines`), never whole: its rows share words by chance
            for key in own.stems | context.stems | own.anchor_words | {"`" + a for a in own.anchors}:
                self._by_stem.setdefault(key, []).append(position)

    @classmethod
    def of_texts(cls, texts: Iterable[str]) -> Memory:
        """Units of Markdown texts, as the matcher reads them (`units.text_entries`)."""
        from .units import text_entries

        return restating_entries(text_entries(texts))

    def forbidding(self, principle: str) -> Prohibition | None:
        """The prohibition of the assistant that the rule `principle` would have it break ("Amend the
        session files before the bump" against "Amending commits with session files" under "Operations
        Claude Cannot Perform"), or None: the rule orders the forbidden verb, said of what the
        prohibition is said of, or the forbidden command."""
        if self._prohibitions is None:
            self._prohibitions = prohibitions(self.statements, self.groups)
        ordered = ordered_action(principle) if self._prohibitions else None
        if ordered is None:
            return None
        said = read(principle)
        anchors = said.anchors - said.negated_anchors  # "instead of `cargo test`" runs no cargo test
        return next((p for p in self._prohibitions if breaks(ordered, anchors, p)), None)

    def forbidden_acts(self, member: int) -> frozenset[str]:
        """The actions (`Prohibition.verb`) the statement at `member` forbids: none for a statement
        that forbids nothing."""
        if self._prohibitions is None:
            self._prohibitions = prohibitions(self.statements, self.groups)
        return frozenset(p.verb for p in self._prohibitions if p.member == member)

    def restating(self, principle: str) -> Restated | None:
        """The unit that already states the rule `principle` says, or None."""
        said = read(principle)
        if len(said.stems - said.anchor_stems) + len(said.anchors) < MIN_CONTENT:
            return None
        best: Restated | None = None
        parts: list[tuple[float, Unit]] = []
        for position in self._sharing(said):
            unit = self.units[position]
            floor = SAME_GROUP if unit.group else min(SAME, SAME_ANCHORED, PAIR_PART)
            if self._most_said(said, unit, floor) < floor:
                continue  # it can neither state the rule nor be one of two that state it together
            known = read(unit.text)
            if not _forbidding(unit) and asserts_what_it_negates(said, known):
                continue  # "… not at the crate level" is not said by a line naming per-crate control
            needed = SAME_GROUP if unit.group else SAME
            if not unit.group and not _TABLE.match(unit.text) and _shares_shape(said, known):
                # not against a list, nor a table: one item or cell sharing a path says little
                needed = min(needed, SAME_ANCHORED)
            if not unit.group and _same_negation(said, known):
                needed = min(needed, SAME_ANCHORED)  # "X, not Y" said of the same Y: as telling as a path
            score = self.says(said, unit, needed)
            if score >= needed and (best is None or score > best.score):
                best = Restated(unit, score)
            elif not unit.group:
                part = score if score else self.says(said, unit, PAIR_PART, part=True)
                if part >= PAIR_PART:
                    parts.append((part, unit))
        return best or self._restating_together(principle, said, parts)

    def saying_most(self, principle: str, unit: Unit) -> tuple[tuple[int, ...], str]:
        """The unit's statements, the one that says most of `principle` first, and what to quote of
        it: the item of a list that states it — not the lead-in that opens the list —, or, when the
        rule takes several items (a procedure restated), the lead-in and those items in order."""
        if not unit.group:
            return unit.members, ""
        said = read(principle)
        first = self.statements[unit.members[0]][1]
        lead = 1 if LEAD_IN.search(first) else 0
        context = f"{unit.heading} {first}" if lead else unit.heading  # an item read under its lead-in
        scores = {
            m: self.says(said, Unit(self.statements[m][1], context, (m,)), PAIR_PART, part=True)
            for m in unit.members[lead:]
        }
        best = max(scores, key=lambda m: (scores[m], -unit.members.index(m)))
        if scores[best] <= 0.0:
            return unit.members, ""
        floor = max(QUOTE_PART, scores[best] / 2)  # what each item of a procedure restated says of it
        quoted = [best] if scores[best] >= SAME else [m for m in unit.members[lead:] if scores[m] >= floor]
        if len(quoted) > 1 and lead:
            quoted = [unit.members[0], *quoted]
        quote = " … ".join(" ".join(self.statements[m][1].split()) for m in quoted[:4] or [best])
        return (best, *(m for m in unit.members if m != best)), quote

    def _restating_together(
        self, principle: str, said: Text, parts: list[tuple[float, Unit]]
    ) -> Restated | None:
        """Two remembered statements that state the rule together, clause by clause ("Put every
        non-trivial change on a feature branch and never force-push to `main`" by "All non-trivial
        changes go on a feature branch" and "Never force-push to `main`"): each says one clause of it
        whole, every clause is said, and together they say the rule."""
        clauses = [read(c) for c in _CLAUSES.split(principle)]
        clauses = [c for c in clauses if len(c.stems - c.anchor_stems - _FILLER_STEMS) + len(c.anchors) >= 2]
        if len(clauses) < 2:
            return None
        parts = sorted(parts, key=lambda p: -p[0])[:PAIR_POOL]
        best: Restated | None = None
        for number, (_, one) in enumerate(parts):
            for _, other in parts[number + 1 :]:
                by_one = [self.says(c, one, SAME) >= SAME for c in clauses]
                by_other = [self.says(c, other, SAME) >= SAME for c in clauses]
                if not (
                    any(by_one)
                    and any(by_other)
                    and all(a or b for a, b in zip(by_one, by_other, strict=True))
                ):
                    continue
                heading = one.heading if one.heading == other.heading else ""
                both = Unit(one.text + "\n" + other.text, heading, one.members + other.members)
                score = self.says(said, both, SAME_GROUP)
                if score >= SAME_GROUP and (best is None or score > best.score):
                    best = Restated(both, score)
        return best

    def extended(self, principle: str) -> Restated | None:
        """The statement whose whole rule `principle` says, and more (it names something the
        statement does not): the rule it updates. None when it only restates one, or none."""
        said = read(principle)
        if len(said.stems - said.anchor_stems) + len(said.anchors) < MIN_CONTENT:
            return None
        own = Unit(principle, "", ())
        best: Restated | None = None
        for position in self._sharing(said):
            unit = self.units[position]
            if unit.group:
                continue
            outline = outline_of(unit.text)
            if len(outline.stems - outline.anchor_stems) + len(outline.anchors) < MIN_CONTENT:
                continue
            if self._most_said(outline, own, SAME) < SAME:
                continue  # the principle cannot say its whole rule: read no further
            known = read(unit.text)
            score = self.says(known, own, SAME)
            if score >= SAME and self.says(said, unit, SAME) < SAME and (best is None or score > best.score):
                best = Restated(unit, score)
        return best

    def _sharing(self, said: Text) -> list[int]:
        """The units that share two stems, code words or code shapes with `said`: the only ones worth
        comparing."""
        sharing: dict[int, int] = {}
        for key in said.stems | said.anchor_words | {"`" + a for a in said.anchors}:
            for position in self._by_stem.get(key, ()):
                sharing[position] = sharing.get(position, 0) + 1
        return sorted(p for p, n in sharing.items() if n >= 2)

    def says(self, said: Text, unit: Unit, needed: float = 0.0, part: bool = False) -> float:
        """How much of `said` the unit states, weighted; 0.0 when it misses an anchor of `said` or
        the polarity is opposed. Typos are looked for only when they could lift the share to
        `needed` (a share below `needed` may then be lower than with them). As a `part` of what two
        units say together, an anchor it misses counts as unsaid instead."""
        known = read(unit.text)
        context = content(unit.heading) if unit.heading else None
        if not (part or anchors_said(said, known)) or values_differ(said, known):
            return 0.0
        forbidding = _forbidding(unit)
        if opposed(said, known, forbidding):
            return 0.0
        vocabulary = known.stems | (context.stems if context else frozenset())
        if forbidding:  # what it lists is what never to do
            vocabulary |= _NEVER
        total = covered = 0.0
        for anchor in said.anchors:  # every anchor is said, or the unit was refused above
            weight = 1.0 if re.fullmatch(r"[\w-]+", anchor) else ANCHOR_WEIGHT
            total += weight
            covered += weight if not part or anchors_said(_only(said, anchor), known) else 0.0
        total, covered, unsaid = self._stems_said(said, vocabulary, total, covered)
        if not total:
            return 0.0
        if unsaid and (covered + sum(w for _, w in unsaid)) / total >= needed:  # typos could matter
            pool = sorted(vocabulary)
            covered += sum(w for stem, w in unsaid if _typo_of(stem, pool))
        return max(covered / total, self._rule_share(said, vocabulary))

    def _most_said(self, said: Text, unit: Unit, floor: float) -> float:
        """An upper bound of `says(said, unit, needed, part)` for any `needed` and `part` that is
        exact as far as it matters: at or above `floor` whenever `says` can be. Worked out from the
        stems the index read of the unit (`content`), before it is read in full — every anchor said,
        no polarity opposed, each typo looked for when typos could lift it to `floor`; the weights
        are added in the order `says` adds them, so rounding never puts it below `says`."""
        context = content(unit.heading) if unit.heading else None
        vocabulary = content(unit.text).stems | (context.stems if context else frozenset())
        if _forbidding(unit):
            vocabulary |= _NEVER
        total = covered = 0.0
        for anchor in said.anchors:
            weight = 1.0 if re.fullmatch(r"[\w-]+", anchor) else ANCHOR_WEIGHT
            total += weight
            covered += weight
        total, covered, unsaid = self._stems_said(said, vocabulary, total, covered)
        if not total:
            return 0.0
        rule = self._rule_share(said, vocabulary)
        if unsaid and (covered + sum(w for _, w in unsaid)) / total >= floor:
            pool = sorted(vocabulary)
            covered += sum(w for stem, w in unsaid if _typo_of(stem, pool))
        return max(covered / total, rule)

    def _stems_said(
        self, said: Text, vocabulary: frozenset[str], total: float, covered: float
    ) -> tuple[float, float, list[tuple[str, float]]]:
        """`total` and `covered` with the weight of each stem of `said` added (covered when the
        vocabulary says it, a broader word of it or a practice it names: "create a branch"), and the
        stems long enough to be a typo of a word it says: one reading for `says` and `_most_said`,
        whose weights must add up in the same order."""
        unsaid: list[tuple[str, float]] = []
        practiced = {verb for verb, place in said.practices if place in vocabulary}
        for stem, weight in self._weighted(said):  # an anchor's words count once, as the anchor
            total += weight
            if stem in vocabulary or _BROADER.get(stem, "") in vocabulary or stem in practiced:
                covered += weight
            elif len(stem) >= 5:
                unsaid.append((stem, weight))
        return total, covered, unsaid

    def _weighted(self, said: Text) -> tuple[tuple[str, float], ...]:
        """The stems of `said` outside its anchors with their weights, worked out once per text (a
        principle is weighed against every unit that shares words with it)."""
        found = self._weighed.get(said)
        if found is None:
            if len(self._weighed) > 4096:
                self._weighed.clear()
            found = tuple(
                (stem, self._weight(stem) * (REASON_WEIGHT if stem in said.reason else 1.0))
                for stem in sorted(said.stems - said.anchor_stems)
            )
            self._weighed[said] = found
        return found

    def _rule_share(self, said: Text, vocabulary: frozenset[str]) -> float:
        """The share of the rule itself the unit says, its cause left out: a rule restated with
        another reason ("…, as force-pushing is bad form") is the same rule. 0.0 without a cause or
        with too little rule to judge by."""
        rule = said.stems - said.anchor_stems - said.reason
        if not said.cause or len(rule) + len(said.anchors) < MIN_CONTENT:
            return 0.0
        total = covered = float(len(said.anchors) * ANCHOR_WEIGHT)
        for stem in rule:
            weight = self._weight(stem)
            total += weight
            covered += weight if stem in vocabulary or _BROADER.get(stem, "") in vocabulary else 0.0
        return covered / total if total else 0.0

    def _weight(self, stem: str) -> float:
        if stem in _FILLER_STEMS:
            return FILLER_WEIGHT
        return self._weights.get(stem, 1.0)


_REQUIREMENT = lazy(
    r"^\s*(?P<who>(?:[\w.`'’/-]+\s+){0,3}?[\w.`'’/-]+)\s+(?:needs?|has|have|must|should)\s+(?:to\s+)?"
    r"(?:be\s+clear|make\s+(?:it\s+)?clear|say|state|mention|explain|spell\s+out)\s+(?:that|about)\s+(?P<what>.+)$",
    re.IGNORECASE,
)
_DOCUMENTS = frozenset({"doc", "changelog", "guid", "manual", "comment", "docstr"})


def required_content(principle: str) -> str | None:
    """What a document must make clear ("The READMEs need to be clear that X", "the docs should say
    that X"): X, which the memory states when it says X (the approver reads the memory, the
    documents follow it); None for any other rule."""
    match = _REQUIREMENT.match(principle.strip())
    if match is None or not read(match["who"]).stems & _DOCUMENTS:
        return None
    return match["what"].strip()


@dataclass(frozen=True)
class Prohibition:
    """What the memory forbids the assistant: an action (the stem of its verb, or the command it
    names), what the action is said of, and the statement that forbids it."""

    verb: str  # the action's stem, or "`" + the shape of the command it names
    said_of: frozenset[str]  # the other content stems of the forbidden clause (its object, its when)
    member: int  # the statement's position
    quote: str  # the forbidden clause as written (a list item, or the "never …" sentence)
    named: frozenset[str] = frozenset()  # the stems of what its code spans name (`.claude/`: claude)
    # an item of a list of what the assistant cannot do ("Operations Claude Cannot Perform"): the user
    # does it, so a rule ordering it is a lesson about waiting for, or reminding, the user
    reserved: bool = False


# a heading or a lead-in saying what the assistant cannot do, not what nobody should
_RESERVED = lazy(
    r"\b(?:cannot|can'?t|may not|(?:is|are) not (?:allowed|permitted) to|reserved for)\b", re.IGNORECASE
)
_ITEM_HEAD = lazy(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
# How a ban opens, for every reader of one (`prohibitions`, `opens_with_ban`): "never", "do not", and
# the same said of the assistant ("Claude does not push", "the assistant must not …"), or "Claude runs
# no git command that …" (the act, and "no" before what it is said of).
_BAN_OPENING = (
    r"(?:(?:claude|the assistant|you)\s+(?:will\s+|should\s+)?(?:never|does not|doesn'?t|do not|don'?t|"
    r"must not|may not|cannot|can'?t|should not|shouldn'?t|avoids?)|never|do not|don'?t|must not|avoid)\**\s+"
    r"|(?:claude|the assistant)\s+(?P<act>[a-z]+s)\s+no\s+"
)
_NEVER_CLAUSE = lazy(
    r"(?:^|(?<=[.!?;:]\s)|(?<=\*\*\s)|(?<=\*\*))\s*(?:"
    + _BAN_OPENING
    + r")(?P<clause>(?:[^.!?;:,()—–]|\.(?=\S))+)",
    re.IGNORECASE,
)
_OPENS_WITH_BAN = lazy(
    r"^\W*(?:" + _BAN_OPENING + r"|(?:does not|doesn'?t|may not|cannot|can'?t|no)\b)", re.I
)


def opens_with_ban(text: str) -> bool:
    """Does the text open with a ban ("Never …", "Do not …", "Claude does not push", "Claude runs no
    git command that …", "No force-pushing …")? The reading `prohibitions` makes of a sentence, and what
    may join a list of what must not be done."""
    return _OPENS_WITH_BAN.match(" ".join(text.replace("**", "").split())) is not None


_HEAD_WORD = lazy(r"[^\W\d_]+(?:-[^\W\d_]+)*|`[^`\n]+`", re.UNICODE)
# What a rule may open with before the action it orders ("Always", "We should", "Please make sure to").
_LEAD_WORDS = frozenset(
    _split(
        """
        always please first also just we you should must need needs to make sure remember
        then now every each time
        """
    )
)
_PERMITTED = lazy(r"\b(?:is|are)\s+(?:fine|ok|okay|allowed|acceptable|permitted)\b", re.IGNORECASE)
_SUBORDINATE = lazy(r"^\s*(?:before|after|when|whenever|once|if|on|while)\b[^,]{0,120},\s*", re.IGNORECASE)


def prohibitions(statements: Sequence[tuple[str, str]], groups: Iterable[Sequence[int]]) -> list[Prohibition]:
    """What the statements forbid the assistant: each list item under a heading or a lead-in that
    forbids what it lists ("Git Operations Claude Cannot Perform", "Claude cannot perform these
    operations:"), and each sentence or list item that opens with "never", "do not" or "don't" (bold
    or not: "- **Never** …")."""
    items = forbidden_items(statements, groups)
    reserved = {p for p, (heading, _) in enumerate(statements) if _RESERVED.search(heading)}
    for members in groups:
        if _RESERVED.search(statements[members[0]][1].split("\n", 1)[0]):
            reserved.update(members[1:])
    found: list[Prohibition] = []
    for position, (_, text) in enumerate(statements):
        first = text.split("\n", 1)[0]
        if position in items:
            clause = _ITEM_HEAD.sub("", first).strip()
            action = _action(_first_clause(clause))
            if action is not None:
                found.append(Prohibition(*action[:2], position, clause, action[2], position in reserved))
            continue
        masked, codes = _masked(_ITEM_HEAD.sub("", text, count=1))  # "- Never …", "1. **Don't** …" too
        masked = masked.replace("**", "** ")
        for match in _NEVER_CLAUSE.finditer(masked):
            clause = f"{match['act']} {match['clause']}" if match["act"] else match["clause"]
            action = _action(_unmask(clause, codes))
            if action is None:
                continue
            quote = _unmask(" ".join(match.group(0).replace("**", "").split()), codes)
            found.append(Prohibition(*action[:2], position, quote, action[2]))
            if action[0] in _RUNNING:  # "never use bare `a`, `b` or `c`": each command is forbidden
                found.extend(_commands_forbidden(masked, match, codes, position, quote))
    return found


def _commands_forbidden(
    masked: str, match: re.Match[str], codes: list[str], position: int, quote: str
) -> list[Prohibition]:
    """The commands a "never use / run …" clause forbids: the code spans of its object and the ones
    listed after it ("never use bare `cargo test`, `cargo clippy`, or `cargo fmt`"), each its own
    prohibition (`breaks` then reads a rule running any of them)."""
    marks = re.findall(r"\x00(\d+)\x00", match["clause"])
    listed = (
        _MARKED_LIST.match(masked, match.end())
        if marks and match["clause"].rstrip().endswith("\x00")
        else None
    )
    if listed is not None and _OR.search(listed.group(0)):
        marks += re.findall(r"\x00(\d+)\x00", listed.group(0))
        quote = _unmask(" ".join((match.group(0) + listed.group(0)).replace("**", "").split()), codes)
    found = []
    for mark in marks:
        code = codes[int(mark)].strip("`")
        if re.match(r"[a-z][\w+-]*(?:\s|$)", code.lower()):  # a program and its arguments, not a path
            named = read(codes[int(mark)]).anchor_stems
            found.append(Prohibition("`" + shape(code), frozenset(), position, quote, named))
    return found


def forbidden_items(statements: Sequence[tuple[str, str]], groups: Iterable[Sequence[int]]) -> set[int]:
    """The positions of the list items that a heading or a lead-in forbids: each says what not to do."""
    found: set[int] = set()
    for members in groups:
        lead = statements[members[0]][1]
        if lead_forbids(lead):
            found.update(m for m in members[1:] if _ITEM_HEAD.match(statements[m][1]))
    found.update(
        p
        for p, (heading, text) in enumerate(statements)
        if _ITEM_HEAD.match(text) and _FORBIDDING_HEADING.search(heading)
    )
    return found


def as_forbidden(item: str) -> str:
    """A list item a heading or a lead-in forbids, said as the prohibition it is ("- Deleting release
    tags" under "Operations the assistant cannot perform" is "Never deleting release tags")."""
    return "Never " + _ITEM_HEAD.sub("", item.lstrip(), count=1)


def _masked(text: str) -> tuple[str, list[str]]:
    """`text` with each code span held out as a mark, and the spans: what splits clauses never cuts one."""
    codes: list[str] = []

    def hold(match: re.Match[str]) -> str:
        codes.append(match.group(0))
        return f"\x00{len(codes) - 1}\x00"

    return _CODE.sub(hold, text), codes


def _unmask(text: str, codes: list[str]) -> str:
    return re.sub(r"\x00(\d+)\x00", lambda m: codes[int(m.group(1))], text)


def _first_clause(text: str) -> str:
    """The text up to where its first clause ends, a code span never cut (`.claude/` has a dot)."""
    masked, codes = _masked(text)
    return _unmask(_ACTION_END.split(masked, maxsplit=1)[0], codes)


_ACTION_END = lazy(
    r"[(),;:!?—–]|\.(?!\S)|\s-\s|\b(?:but|and then|because|since|so|as)\b"
    r"|\b(?:instead of|rather than|in place of)\b|вместо|而不是|而非"  # the alternative it rules out
)


def _action(clause: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """(the action, what it is said of) of a clause that opens with its verb or its command: "amending
    commits with `.claude/` files" is amend, said of commits and `.claude/` files; an adverb before
    the verb ("immediately create branches") is part of what it is said of."""
    words = _HEAD_WORD.findall(clause.strip())
    when: list[str] = []
    while words and not words[0].startswith("`") and words[0].lower().endswith("ly") and len(words) > 1:
        when.append(words.pop(0))
    if not words:
        return None
    head = words[0]
    if head.startswith("`"):
        verb = "`" + shape(head.strip("`"))
    else:
        lowered = head.lower()
        if lowered in STOPWORDS or lowered in _FUNCTION or lowered in _LEAD_WORDS:
            return None
        verb = _verb_stem(lowered)
    rest = read(" ".join([*when, *words[1:]]))
    return verb, frozenset((rest.stems | rest.anchor_stems) - _FILLER_STEMS), rest.anchor_stems


def _verb_stem(word: str) -> str:
    """The stem of a verb as rules write it, hyphens kept ("force-push", "amending": amend)."""
    stem = _stem_of("en")
    return "-".join(_SYN.get(stem(part), stem(part)) for part in word.split("-"))


@lru_cache(maxsize=4096)
def ordered_action(principle: str) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """The action a rule orders the assistant to take, as `_action` reads it: the verb it opens with
    (after "always", "we should", a leading "before …," clause), never one it asks of the user
    ("remind the user to amend", "the user amends") and never a negated one, nor one it bans after
    naming it ("running migrations by hand is forbidden"); a permission ("publishing by hand is fine")
    orders nothing either: it says a prohibition is wrong (a contradiction, not an order to break it)."""
    text = _SUBORDINATE.sub("", principle.strip().replace("**", ""), count=1)
    if as_ban(text.lower()).startswith("never ") or _PERMITTED.search(text):
        return None
    words = text.split()
    while words and words[0].lower().strip(",") in _LEAD_WORDS:
        words.pop(0)
    if not words or _NEGATION.fullmatch(words[0].lower()) or words[0].lower() in ("no", "not", "never"):
        return None
    return _action(_first_clause(" ".join(words)))


def act_of(rule: str) -> str | None:
    """The action a rule is about, ordered or forbidden (`Prohibition.verb`): "amend the session files"
    and "never amend the session files" are both about amending. It is the rule's verb, after who does
    it ("Claude makes the final commit": making; "the user merges the branch": merging), and a verb
    that only carries its object is the object's act ("Claude can only make commits": committing).
    None when the line says no verb where the act goes ("**tspec** — the main CLI binary", "Settings
    are read through …"): such a line takes no part in comparing acts."""
    text = _ITEM_HEAD.sub("", rule.strip(), count=1)
    if _DEFINED.match(text):
        return None
    actor = _ACTOR.match(text)
    if actor is not None:
        words = _HEAD_WORD.findall(text[actor.end() :])
        return _carried(words) if words and not words[0].startswith("`") else None
    words = _HEAD_WORD.findall(text.replace("**", ""))
    if len(words) > 1 and words[1].lower() in _BE and not grammar.verb(words[0]):
        return None  # the first word is what the line is about, not what to do
    bare = words[2:] if [w.lower() for w in words[:2]] in (["do", "not"], ["don", "t"]) else words
    bare = bare[1:] if bare and bare[0].lower() in ("never", "always", "don't", "dont") else bare
    carried = _carried(bare) if bare and grammar.verb(bare[0]) in _ACT_CARRIERS else None
    if carried is not None:
        return carried
    ordered = ordered_action(rule)
    if ordered is not None:
        return ordered[0]
    forbidden = prohibitions([("", rule)], ())
    return forbidden[0].verb if forbidden else None


def known_act(act: str | None) -> bool:
    """An act (`act_of`) that is one of the verbs rules are made of (`grammar.VERBS`), not a command
    nor a word merely opening a line."""
    return act is not None and act in _known_acts()


@lru_cache(maxsize=1)
def _known_acts() -> frozenset[str]:
    return frozenset(_verb_stem(v) for v in grammar.VERBS)


# Who a rule says does the act, and the words between it and its verb ("Claude can only make …").
_ACTOR = lazy(
    r"^(?:claude|the user|the assistant|you|we)(?:\s+(?:can(?:not)?|can't|could|should|must|will|may|"
    r"always|never|only|also|then|just|does not|doesn't|do not|don't|is allowed to|needs? to|has to|have to))*\s+",
    re.IGNORECASE,
)
# A name and what it is: "**tspec** — the main CLI binary", "tspec: the CLI".
_DEFINED = lazy(r"^(?:\*\*[^*\n]+\*\*|[^\W\d_][\w.-]*)\s*(?:[—–:]|\s-\s)")
_BE = frozenset({"is", "are", "was", "were"})
_ACT_CARRIERS = frozenset({"make", "do", "perform"})  # "make commits", "do a rebase": the act is the object's


def _carried(words: list[str]) -> str | None:
    """The act of a clause that opens with its verb: the verb, or the act of what a carrying verb
    carries ("make commits", "perform a rebase")."""
    head = grammar.verb(words[0])
    if head in _ACT_CARRIERS and len(words) > 1 and words[1].lower() != "sure":
        for word in words[1:4]:  # "make the final commit"
            if grammar.verb(word):
                return _verb_stem(grammar.verb(word))
            if word.lower() in STOPWORDS and word.lower() not in ("a", "an", "the"):
                break
        return _verb_stem(head)
    lowered = words[0].lower()
    if lowered in STOPWORDS or lowered in _FUNCTION or lowered in _LEAD_WORDS:
        return None
    return _verb_stem(lowered)


def breaks(
    ordered: tuple[str, frozenset[str], frozenset[str]], anchors: frozenset[str], prohibition: Prohibition
) -> bool:
    """Would the rule ordering the action `ordered` (`ordered_action`), naming the commands `anchors`,
    have the assistant take the forbidden action: the same verb said of what the prohibition is said
    of (two of its words, all of fewer, or what one of its code spans names), or the forbidden command
    run?"""
    verb, said_of, _ = ordered
    if prohibition.verb.startswith("`"):
        command = prohibition.verb[1:]
        named = any(a == command or a.startswith(command + " ") for a in anchors)
        return verb == prohibition.verb or (named and verb in _RUNNING)
    if verb != prohibition.verb:
        return False
    shared = said_of & prohibition.said_of
    # what its code spans name, all of it ("`cargo test`": "tspec test" shares a word, names another)
    named = bool(prohibition.named) and prohibition.named <= shared
    return named or len(shared) >= min(2, len(prohibition.said_of))


_NEVER = frozenset({"never"})
_TABLE = lazy(r"^\s*\|")
_RUNNING = frozenset({"run", "use", "perform", "execut", "call", "invok"})


def _forbidding(unit: Unit) -> bool:
    """Its heading, or the lead-in of its list, forbids what it lists ("Operations Claude Cannot
    Perform", "Claude cannot run these commands:")."""
    if _FORBIDDING_HEADING.search(unit.heading):
        return True
    lead = unit.text.split("\n", 1)[0]
    return unit.group and lead_forbids(lead)


_LAST_CLAUSE = lazy(r".*(?:[.;!?]\s|\s[—–]\s)", re.DOTALL)


def lead_forbids(lead: str) -> bool:
    """Does a lead-in forbid the list it opens ("Claude cannot run these commands:")? Its last clause
    says what the list is: "Never use bare `cargo`; use these instead:" lists what to use."""
    last = _LAST_CLAUSE.sub("", lead.strip(), count=1)
    return bool(LEAD_IN.search(lead) and _FORBIDDING_HEADING.search(last))


def _only(said: Text, anchor: str) -> Text:
    """`said` with one anchor of its own, to ask whether a unit says that one."""
    return Text(frozenset(), frozenset({anchor}), frozenset(), frozenset(), frozenset(), ())


def _weights(units: list[frozenset[str]]) -> dict[str, float]:
    """Rarer stems weigh more: 1.0 for a stem no unit has, down to 0.5 for one every unit has."""
    count = len(units)
    frequency: dict[str, int] = {}
    for stems in units:
        for stem in stems:
            frequency[stem] = frequency.get(stem, 0) + 1
    if count < 2:
        return {}
    return {
        s: 0.5 + 0.5 * math.log((count + 1) / (n + 1)) / math.log(count + 1) for s, n in frequency.items()
    }


def _typo_of(stem: str, pool: list[str]) -> bool:
    """A stem of five letters or more that is a typo of one the other text has."""
    from rapidfuzz import fuzz, process  # loaded when two texts are compared word by word: not by a scan

    return process.extractOne(stem, pool, scorer=fuzz.ratio, score_cutoff=_TYPO) is not None


def anchors_said(said: Text, known: Text) -> bool:
    """Every command, flag or name the candidate puts in backticks is in the known text too: as a
    code span of the same shape (or one a general form covers), or written out in its prose
    (`.claude/*` in "remind about .claude/ files"); `make test` is not said by `make`."""
    for anchor in said.anchors:
        if any(_matches(anchor, k) or _names_file(anchor, k) for k in known.anchors):
            continue
        if _banned_with_its_program(anchor, said, known) or _its_equivalent(anchor, said, known):
            continue
        core = anchor.strip("*/ .…").removesuffix("...").strip()
        if not core or not re.search(rf"(?<![\w-]){re.escape(core)}(?![\w-])", known.flat):
            return False
    return True


def _banned_with_its_program(anchor: str, said: Text, known: Text) -> bool:
    """A command the candidate rules out ("instead of `cargo clippy`") that the known text rules out
    with its whole program ("never use bare `cargo` subcommands")."""
    return anchor in said.negated_anchors and any(
        anchor.startswith(k + " ") and " " not in k for k in known.negated_anchors
    )


def _its_equivalent(anchor: str, said: Text, known: Text) -> bool:
    """The command the candidate puts in place of one it rules out, with the same arguments
    (`tspec clippy` instead of `cargo clippy`), where the known text rules that one out too and names
    the program to use ("never use bare `cargo clippy` — use the tspec equivalents")."""
    program, _, rest = anchor.partition(" ")
    if not rest or anchor in said.negated_anchors or not re.fullmatch(r"[a-z][\w+-]*", program):
        return False
    named = re.search(rf"(?<![\w-]){re.escape(program)}(?![\w-])", known.flat) is not None
    return named and any(
        n.partition(" ")[2] == rest
        and n.partition(" ")[0] != program
        and (n in known.negated_anchors or _banned_with_its_program(n, said, known))
        for n in said.negated_anchors
    )


def values_differ(said: Text, known: Text) -> bool:
    """A code span of one shape with another value (`default: 3` against `default: 4`, `gpt-4o`
    against `gpt-5`): a change, not a restatement. A placeholder (`X.Y.Z-dev`) stands for any value,
    and syntax shown by example (`[12],[14]` for `[1],[2]`) is the same syntax."""
    for form, written in said.values:
        others = {raw for shape_, raw in known.values if shape_ == form}
        if not others or written in others or _syntax_example(written):
            continue
        if not any(_PLACEHOLDER_CODE.search(raw) for raw in others):
            return True
    return _prose_values_differ(said, known)


def _prose_values_differ(said: Text, known: Text) -> bool:
    """Another number of the same thing said in prose ("two sections" against "three sections"), or
    a list that shares two items with one of the known text and names an item it lacks (the list
    grew, or an item was renamed): a change, not a restatement. A list said in part is said."""
    for counted, number in said.counts:
        others = {n for c, n in known.counts if c == counted}
        if others and number not in others and not any(_matches(number, o) for o in others):
            return True
    for items in said.items:
        for other in known.items:
            if len(items & other) >= 2 and items - other:
                return True
    return False


_PLACEHOLDER_CODE = lazy(r"(?<![a-z])[xyzn](?![a-z])|<[^<>]+>|\bx{2,}\b|…|\.\.\.", re.IGNORECASE)


def _syntax_example(code: str) -> bool:
    return sum(code.count(c) for c in "[](){},") >= 2


def _shares_shape(said: Text, known: Text) -> bool:
    """Both name a code span of the same shape that is more than one plain word."""
    return any(not re.fullmatch(r"[\w-]+", a) for a in said.anchors & known.anchors)


def opposed(said: Text, known: Text, forbidding: bool) -> bool:
    """One text negates what the other asserts: a word, or a command in backticks ("never `cargo
    test`" against "run `cargo test`"), unless one keeps what the other bans out of what it allows
    ("make commits, except `.venv/` files"). Under a heading that forbids ("Operations Claude Cannot
    Perform") every item is forbidden: a candidate that forbids it too agrees with it."""
    if forbidding:
        shared = (said.stems & known.stems) - _FILLER_STEMS
        return bool(shared) and not said.negated & known.stems
    if keeps_out(said.source, known.source) or keeps_out(known.source, said.source):
        return False  # "do not commit X" against "… only make commits (excluding X)"
    for one, other in ((said, known), (known, said)):
        asserted = [a for a in other.anchors if a not in other.negated_anchors]
        if any(_matches(n, a) for n in one.negated_anchors for a in asserted):
            return True
    code_words = said.anchor_words | known.anchor_words
    said_stems, said_negated = _without_cause(said)
    known_stems, known_negated = _without_cause(known)
    if (said_negated & known_negated) - code_words - _FILLER_STEMS:
        return False  # both forbid the same thing ("no force-pushing to main", "never force-push to main")
    pos_said, pos_known = said_stems - said_negated, known_stems - known_negated
    return _negation_meets(said, known, pos_known, code_words) or _negation_meets(
        known, said, pos_said, code_words
    )


def negation_elsewhere(said: Text, known: Text) -> bool:
    """Each negation of one text that reaches a word the other asserts is said of something that
    other text does not speak of in that sentence ("never commit directly to main" against "on all
    non-trivial commits, work on a branch"): a clause that looks opposed, not an opposite. False when
    no negation reaches a word of the other at all."""
    reached = False
    for one, other in ((said, known), (known, said)):
        positive = other.stems - other.negated
        cause = other.reason if other.cause else frozenset()
        for stems_, said_of in one.negations:
            hit = stems_ & positive
            if not hit:
                continue
            reached = True
            if not said_of or any(
                hit & (words - negated) and said_of & (words - cause)
                for words, negated in sentences(other.source)
            ):
                return False
    return reached


def _negation_meets(one: Text, other: Text, positive: frozenset[str], code_words: frozenset[str]) -> bool:
    """A negation of `one` negates what `other` asserts: a stem it reaches that `other` says outside
    any negation, in a sentence that also speaks of what the negation is said of ("never commit directly
    to main" opposes "commit straight to main", not "on all non-trivial commits, work on a branch").
    The negations of `one`'s cause are no part of its polarity."""
    cause = other.reason if other.cause else frozenset()
    for reached, said_of in one.negations:
        hit = (reached - (one.reason if one.cause else frozenset()) & positive) - code_words
        if not hit:
            continue
        if not said_of or not sentences(other.source):
            return True
        if any(
            hit & (stems_ - negated) and said_of & (stems_ - cause)
            for stems_, negated in sentences(other.source)
        ):
            return True
    return False


def _without_cause(text: Text) -> tuple[frozenset[str], frozenset[str]]:
    """Its stems and negated stems, the cause left out: what the cause negates ("as force-pushing
    is bad form", "so the user doesn't have to ask") is no part of the rule's polarity."""
    if not text.cause:
        return text.stems, text.negated
    return text.stems - text.reason, text.negated - text.reason


def matches_code(anchor: str, known: str) -> bool:
    """The same code span, or one a general form covers (`_matches`)."""
    return _matches(anchor, known)


_PLACEHOLDER = frozenset({"xxx", "xx", "foo", "bar", "<>", "...", "…", "*", "cmd", "0"})


def _matches(anchor: str, known: str) -> bool:
    """The same code span, or one a general form covers (`tspec install` by `tspec xxx`, `tspec
    <cmd>`, `tspec …`)."""
    if anchor == known:
        return True
    parts, pattern = anchor.split(), known.split()
    if len(parts) != len(pattern) or not any(p in _PLACEHOLDER for p in pattern):
        return False
    return all(p in _PLACEHOLDER or p == a for a, p in zip(parts, pattern, strict=True))


def _names_file(anchor: str, known: str) -> bool:
    """A file named by its base name: `chore-N` for `notes/chores-N.md` (a plural `s` either way)."""
    name, dot, extension = known.rpartition("/")[2].rpartition(".")
    if not dot or not extension.isalnum() or len(anchor) < 4 or not re.fullmatch(r"[\w-]+", anchor):
        return False
    return _SINGULAR.sub("", anchor.casefold()) == _SINGULAR.sub("", name.casefold())


_SINGULAR = lazy(r"(?<=[a-z])s(?![a-z])")  # the plural `s` of each word: `chores-N` and `chore-N` alike


def restating_entries(entries: Sequence[tuple[str, str, str]]) -> Memory:
    """A `Memory` of remembered entries (file, section, text) in the order they are written: a
    one-line entry ending in ':' and the list items after it in the same file and section are also
    one unit ("On completion:" and its steps), and so is a numbered list."""
    groups: list[list[int]] = []
    lead: tuple[str, str] | None = None
    for position, (file, section, text) in enumerate(entries):
        stripped = text.strip()
        if lead == (file, section) and _LIST_ITEM.match(text) and groups:
            groups[-1].append(position)
        elif _FIRST_STEP.match(text) or (  # a numbered list is one procedure
            stripped and "\n" not in stripped and LEAD_IN.search(stripped) and not _LIST_ITEM.match(text)
        ):
            lead = (file, section)
            groups.append([position])
        else:
            lead = None
    return Memory([(section, text) for _, section, text in entries], groups)


PART = 0.6  # the weighted share of a rule another rule of one run says for the two to be one learning
PART_SHARED = 3  # and the content words they share, at least


def said_in_part(principle: str, other: str) -> bool:
    """Does `other` say most of the rule `principle` (≥ `PART` of its weighted content, `PART_SHARED`
    content words of the rules themselves in common, the same polarity): two learnings of one run that are one practice told
    twice, the one with a step more ("Save the plan in a dated section of the notes" of "Add a dated
    note with the plan, then bump the version")?"""
    if shared_content(principle, other) < PART_SHARED:
        return False
    said = read(principle)
    memory = restating_entries([("", "", other)])
    return memory.says(said, memory.units[0], PART) >= PART


def shared_content(one: str, other: str) -> int:
    """How many content words the rules themselves share, their reasons left out (stems, synonyms
    folded, fillers left out)."""
    said, known = read(one), read(other)
    return len(((said.stems - said.reason) & (known.stems - known.reason)) - _FILLER_STEMS)


def asserts_what_it_negates(said: Text, known: Text) -> bool:
    """The rule negates a word the known text asserts and never negates ("control at the package level,
    not the crate level" against "for per-crate control, use separate packages"): whatever else they
    share, the known text does not state that rule. The negations of the rule's cause do not count."""
    _, negated = _without_cause(said)
    negated = negated | _code_stems(said.negated_anchors)
    theirs = known.negated | _code_stems(known.negated_anchors)  # "rather than `cargo xxx`" negates cargo
    asserted = (known.stems - theirs) & (negated - _FILLER_STEMS)
    return bool(asserted) and not negated & theirs


def _code_stems(anchors: frozenset[str]) -> frozenset[str]:
    """The stems of the words the code spans name (`cargo xxx`: cargo, xxx)."""
    stem = _stem_of("en")
    return frozenset(_SYN.get(b, b) for b in (stem(w) for a in anchors for w in _anchor_words(a)))


def _same_negation(said: Text, known: Text) -> bool:
    """Both negate the same word, said of the same thing ("not the crate level" in both)."""
    return any(
        (reached & other - _FILLER_STEMS) and (said_of & of_other)
        for reached, said_of in said.negations
        for other, of_other in known.negations
    )
