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

# "A/An/Each/Every/This/That <one to four words> [adverb] need(s) to": the subject is singular.
_SINGULAR_NEED = lazy(
    r"^(?P<head>(?:an?|each|every|this|that)\s+(?:`[^`]+`|[\w./-]+)(?:\s+(?:`[^`]+`|[\w./-]+)){0,3}?"
    r"(?:\s+(?:definitely|really|always|also|still|absolutely|certainly))?)\s+(?P<verb>need|have)(?=\s+to\b)",
    re.IGNORECASE,
)
_PLURAL_WORD = lazy(r"(?:and|or)\b", re.IGNORECASE)
# "a obvious", "a easy": not "a one-off", "a user", "a unique", "a euro", "a URL".
_A_VOWEL = lazy(r"\b(?P<a>[Aa])\s+(?P<word>(?:[ai]|o(?!ne|nce)|e(?!u|we)|u(?=n(?!i)))[a-z]+)\b")
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
    r",?\s+(?:for instance|for example|e\.g\.|eg\.|such as)\s+[^,;:]{1,60}[.!]?$", re.IGNORECASE
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


# "The READMEs need to be clear that X": the task is for this time, X is what holds.
_CLEAR_THAT = lazy(
    r"^(?:the\s+|our\s+)?(?:readme|docs?|documentation|[\w./-]+\.md)\S*\s+(?:definitely\s+|really\s+)?"
    r"(?:needs?|should|must)\s+(?:to\s+)?(?:be clear|make (?:it )?clear|say|state|explain)\s+that\s+"
    r"(?P<fact>.{12,})$",
    re.IGNORECASE,
)


def the_fact(text: str) -> str:
    """What a document must be made clear about, when that is the lesson ("The READMEs need to be
    clear that control is at the package level" -> "Control is at the package level"); "" else."""
    found = _CLEAR_THAT.match(text.strip())
    if not found or len(found["fact"].split()) < 5:
        return ""
    fact = found["fact"].strip()
    return fact[0].upper() + fact[1:]


def essential(text: str) -> str:
    """A longer rule without the example tacked on at its end, as it is first read."""
    tail = _EXAMPLE_TAIL.search(text)
    if tail and len(text[: tail.start()].split()) >= 5:
        text = text[: tail.start()].rstrip(" ,") + ("." if text.rstrip().endswith(".") else "")
    return text


def generalised(text: str) -> str:
    """What a document must be made clear about (`the_fact`), and a version named as one instance
    of the convention written as its form ("bump version to 0.10.0-dev" -> "bump version to
    `X.Y.Z-dev`", "changing the version to -dev2" -> "… to `-devN`")."""
    text = the_fact(text) or text

    def form(match: re.Match[str]) -> str:
        if match["bare"]:
            return match["lead"] + f"`-{match['bare']}N`"
        return match["lead"] + f"`X.Y.Z{match['suffix'] or ''}`"

    return _VERSION_TO.sub(form, text)
