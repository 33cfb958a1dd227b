"""Small, safe mends of a user's wording where the evidence has no cleaner one, and a version named
once made the general form of the convention.

Only slips whose mend is certain from the words around them: a verb that does not agree with a
singular subject ("A backup definitely need to keep …" -> "needs"), "a" before a vowel ("a obvious"
-> "an obvious"), a possessive apostrophe on a plural subject ("The README's need …" -> "The READMEs
need …"), a count noun after "all" ("after all commit" -> "after all commits"). A version written as
one instance of a general convention ("bump the version to 0.10.0-dev") is written as its form
(`X.Y.Z-dev`), and an example tacked on at the end (", for instance on host-x") is cut: the rule
holds beyond that instance. Anything less certain stays as written.
"""

from __future__ import annotations

import re

from ..lazyre import lazy
from . import lexicon

# "A/An/Each/Every/This/That <one to four words> [adverb] need(s) to": the subject is singular.
_SINGULAR_NEED = lazy(
    r"^(?P<head>(?:an?|each|every|this|that)\s+(?:`[^`]+`|[\w./-]+)(?:\s+(?:`[^`]+`|[\w./-]+)){0,3}?"
    r"(?:\s+(?:definitely|really|always|also|still|absolutely|certainly))?)\s+(?P<verb>need|have)(?=\s+to\b)",
    re.IGNORECASE,
)
_PLURAL_WORD = lazy(r"(?:and|or)\b", re.IGNORECASE)
# "a obvious", "a easy": not "a one-off", "a user", "a unique", "a euro", "a URL".
_A_VOWEL = lazy(r"(?<![\w'’])(?P<a>[Aa])\s+(?P<word>(?:[ai]|o(?!ne|nce)|e(?!u|we)|u(?=n(?!i)))[a-z]+)\b")
# "The README's need to", "the test's are": a plural written with a possessive apostrophe.
_POSSESSIVE_PLURAL = lazy(
    r"\b(?P<noun>(?!(?i:it|that|what|there|here|let|who|he|she|where|how|one)['’]s)[A-Za-z][\w-]*(?<![sS]))['’]s\s+"
    r"(?P<verb>need to|needs to|are|were|have to|have been|don'?t|do not|should|must)\b"
)
_COUNT_AFTER_ALL = lazy(
    r"\b(?P<all>after all|before all|on all|for all)\s+(?P<noun>commit|change|test|file|step|branch|push|merge|"
    r"release|session|build|run|feature|fix|pr|pull request)\b(?!\s*[-'])",
    re.IGNORECASE,
)
# A version set, bumped or changed to one value: the convention is the form, not that value.
_VERSION_TO = lazy(
    r"(?P<lead>\b(?:version|bump(?:ed|ing)?|set(?:ting)?|chang(?:e|ed|ing)|updat(?:e|ed|ing))\s+"
    r"(?:(?:it|the version|version)\s+)?to\s+)`?v?(?P<version>\d+\.\d+(?:\.\d+)?(?P<suffix>-[a-z]+)?\d*|"
    r"-(?P<bare>[a-z]+)\d+)`?(?!\w|\.\w)",
    re.IGNORECASE,
)
# "passes it's tests", "of it's own": after a verb or preposition, "it's" is the possessive "its".
_ITS = lazy(
    r"\b(?P<lead>of|in|on|for|from|with|by|at|to|pass(?:es)?|runs?|updates?|keeps?|checks?)\s+it['’]s\s+(?=[a-z])",
    re.IGNORECASE,
)
_EXAMPLE_TAIL = lazy(
    r",?\s+(?:for instance|for example|e\.g\.|eg\.|such as)\s+[^,;:]{1,60}[.!]?$",
    re.IGNORECASE,
    prefilter=True,
)


def mended(text: str) -> str:
    """`text` with the slips above mended; the same text when there are none."""
    text = _ITS.sub(lambda m: m["lead"] + " its ", text)
    text = _A_VOWEL.sub(lambda m: m["a"] + "n " + m["word"], text)
    text = _POSSESSIVE_PLURAL.sub(lambda m: m["noun"] + "s " + m["verb"], text)
    need = _SINGULAR_NEED.match(text)
    if need and not _PLURAL_WORD.search(need["head"]) and not need["head"].lower().endswith("s"):
        verb = "needs" if need["verb"].lower() == "need" else "has"
        text = text[: need.start("verb")] + verb + text[need.end("verb") :]
    return _COUNT_AFTER_ALL.sub(lambda m: m["all"] + " " + _plural(m["noun"]), text)


def _plural(noun: str) -> str:
    return noun + ("es" if noun.lower().endswith(("sh", "ch", "s")) else "s")


def essential(text: str) -> str:
    """A longer rule without the example tacked on at its end, as it is first read."""
    tail = _EXAMPLE_TAIL.search(text)
    if tail and len(text[: tail.start()].split()) >= 5:
        text = text[: tail.start()].rstrip(" ,") + ("." if text.rstrip().endswith(".") else "")
    return text


def generalised(text: str) -> str:
    """A version named as one instance of the convention written as its form ("bump version to 0.10.0-dev" -> "bump version to
    `X.Y.Z-dev`", "changing the version to -dev2" -> "… to `-devN`"), and so is one of a numbered
    series ("update chore-4" -> "update `chore-N`")."""

    def form(match: re.Match[str]) -> str:
        if match["bare"]:
            return match["lead"] + f"`-{match['bare']}N`"
        return match["lead"] + f"`X.Y.Z{match['suffix'] or ''}`"

    text = _VERSION_TO.sub(form, text)
    parts = text.split("`")  # outside code spans only: a path or command is said as it is
    parts[0::2] = [_NUMBERED.sub(lambda m: f"`{m['name']}-N`", part) for part in parts[0::2]]
    return "`".join(parts)


# One file or stage of a numbered series named in a standing rule ("update todo and chore-4") is the
# series' current one: written as its form, `chore-N`, as a version is.
_NUMBERED = lazy(
    r"(?<![\w/.-])(?P<name>chores?|notes?|phase|sprint|milestone|stage|iteration|round|batch)-\d{1,2}(?![\w.-])",
    re.IGNORECASE,
)


# A run-on list of instructions ("update todo and chore-4 remove `-dev` from the version when you commit
# include Cargo.lock"): where an instruction verb starts a new clause straight after the last word of the
# one before, a comma goes between; a "when …" clause that leads into such a verb is set off before it.
# Three instructions at least, so a single noun-verb pair is never split. A rule that starts with
# "after / before / once …" gets the comma before its instruction verb.
# Verbs rarely a noun after another noun ("cargo test", "git push" are commands, not two clauses).
_STEP_VERBS = frozenset({
    "add", "update", "remove", "delete", "drop", "bump", "include", "create", "write", "install", "amend",
    "mention", "keep", "move", "rename", "rebase", "squash",
})  # fmt: skip
_NOT_A_CLAUSE_END = frozenset({
    "and", "or", "to", "you", "we", "i", "they", "it", "please", "then", "also", "not", "don't", "never",
    "always", "first", "must", "should", "can", "will", "would", "could", "a", "an", "the", "this", "that",
    "these", "those", "each", "every", "all", "of", "in", "on", "at", "for", "from", "with", "by", "as", "if",
    "so", "but", "when", "before", "after", "once", "until", "while",
})  # fmt: skip
_CLAUSE_LEAD = frozenset({"when", "before", "after", "once"})
_LEADING_CLAUSE = frozenset({"after", "before", "once", "until", "whenever"})  # "when …" becomes the trigger


def punctuated(text: str) -> str:
    """A run-on list of instructions with the commas it lacks, and a leading "after …" clause set off
    from the instruction it leads into; any other text as it was. Only a text with no comma or
    semicolon of its own is read this way."""
    words = text.split(" ")
    if "," in _outside_code(text) or ";" in _outside_code(text):
        return text
    if words[0].lower() in _LEADING_CLAUSE:  # "After the tests pass install it" -> "…pass, install it"
        for index in range(2, len(words)):
            before = words[index - 1].lower()
            if words[index].lower() in _STEP_VERBS and before not in _NOT_A_CLAUSE_END | _STEP_VERBS:
                words[index - 1] += ","
                return " ".join(words)
        return text
    if words[0].lower() not in _STEP_VERBS:
        return text
    marks: dict[int, str] = {}  # word index -> the mark that goes after it
    inside = False
    for index, word in enumerate(words):
        opened = word.count("`") % 2 == 1
        if index and not inside and word.lower() in _STEP_VERBS:
            before = words[index - 1]
            if before.lower() not in _NOT_A_CLAUSE_END and before.lower() not in _STEP_VERBS:
                marks[index - 1] = ","
                for back in range(index - 2, max(0, index - 6), -1):
                    if (
                        words[back].lower() in _CLAUSE_LEAD
                        and words[back - 1].lower() not in _NOT_A_CLAUSE_END
                    ):
                        marks[back - 1] = ";"
                        break
        if opened:
            inside = not inside
    if list(marks.values()).count(",") < 2:  # three instructions at least: one missing comma may be no run-on
        return text
    return " ".join(word + marks.get(index, "") for index, word in enumerate(words))


def _outside_code(text: str) -> str:
    return " ".join(text.split("`")[0::2])


# The verbs of `lexicon.RULE_VERBS`, the step verbs above and those an instruction opens with
# (`lexicon.DIRECTIVE`), each form of them ("makes", "merged", "running", "written") to its base.
_MORE_VERBS = ("call", "put", "prefer", "leave", "switch", "stick", "do", "perform", "deploy", "rebase")
_IRREGULAR = {
    "made": "make", "ran": "run", "wrote": "write", "written": "write", "built": "build", "kept": "keep",
    "got": "get", "gotten": "get", "shown": "show", "done": "do", "did": "do", "does": "do", "left": "leave",
    "stuck": "stick", "omitted": "omit", "omitting": "omit",
}  # fmt: skip


_SHORT = lazy(r"[^aeiou]*[aeiou][^aeiouwxy]")  # one vowel, then a consonant: doubled before -ed, -ing


def _forms(verb: str) -> tuple[str, ...]:
    stem = verb[:-1] if verb.endswith("e") else verb
    if len(verb) <= 4 and _SHORT.fullmatch(verb):  # run -> running, set -> setting
        stem = verb + verb[-1]
    elif verb.endswith("it") and len(verb) > 4:  # commit -> committed, omit -> omitting
        stem = verb + "t"
    plural = verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")
    return verb, plural, stem + "ed", stem + "ing"


_VERB_FORMS = {
    form: verb for verb in (*lexicon.RULE_VERBS, *sorted(_STEP_VERBS), *_MORE_VERBS) for form in _forms(verb)
} | _IRREGULAR


VERBS = frozenset(_VERB_FORMS.values())


def verb(word: str) -> str:
    """The base form of a verb rules are made of, for any of its forms ("makes" -> "make",
    "committed" -> "commit"); "" for any other word ("straight", "settings", "tspec")."""
    return _VERB_FORMS.get(word.lower(), "")
