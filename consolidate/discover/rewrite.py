"""Say a lesson as a rule a future session can use: no command words, no fillers, no stray escapes.

"we should probably work on a branch" -> "Work on a branch"; "I'll remind you to amend after each
commit" -> "Remind the user to amend after each commit"; "Amend, when doing a multi-step always create
a branch\\" loses its command word and the escape (its leading "When …" becomes the trigger in
`wording`). Only the words said are kept; nothing is invented.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lazyre import lazy
from . import grammar
from .text import capitalised

_FILLER = lazy(
    r"^(?:(?:so|also|and|but|actually|hmm+|ok(?:ay)?|well|note|fyi|btw|yes|yeah|yep|yup|sure|sorry|"
    r"(?:no|nope|nah)(?=\s*,)|(?:before|after) that(?= \w+ )|amend|please|pls|i think|i guess|i'?d say|i believe|personally|imo|first|now|again|right|"
    r"that looks (?:fine|good)|this looks (?:fine|good)|looks good|lgtm|great|nice|thanks|txs|"
    r"ну|итак|кстати|также|да|嗯|好|还有|ayrıca|evet|tamam)\b[\s,:;.!—–-]*)+",
    re.IGNORECASE,
)
_TAIL = lazy(
    r"(?:[\s,;]+(?:thoughts|agreed|correct|right|ok|okay|make sense|wdyt|no|yes|imo)\s*[?!.]*|\s*[:;]-?[)(]|"
    r"\s*\b(?:lol|lmao)\b\.?|[\s!]+)+$",
    re.IGNORECASE,
)
_MODAL_LEAD = [
    (
        lazy(
            r"^(?:as )?(?:previously |earlier )?(?:i|we) (?:said|mentioned|asked|told you|agreed|discussed)"
            r"(?: (?:before|earlier|previously))?,? (?:that )?(?:we |you )?(?:should|need to|must|would) ",
            re.I,
        ),
        "",
    ),
    (
        lazy(
            r"^(?:i think |i feel |personally )?we (?:really |probably |definitely )?(?:should|need to|must|"
            r"have to|ought to)(?: (?:probably|really|definitely|tend to|get in (?:a |the )?(?:consistent )?"
            r"habit (?:that|of)))* ",
            re.I,
        ),
        "",
    ),
    (lazy(r"^(?:you|u) (?:really |always )?(?:should|need to|must|have to|ought to) ", re.I), ""),
    (lazy(r"^(?:i'?d like you to|i want you to|i'?d prefer (?:that )?you|please) ", re.I), ""),
    (lazy(r"^let'?s ", re.I), ""),
    (lazy(r"^(?:i'?ll|i will|going forward,? i'?ll|from now on,? i'?ll) ", re.I), ""),
]
_REGRET = lazy(r"^(?:we|you|i) should(?:n'?t)? have (?P<verb>\w+) (?:those |these )*", re.IGNORECASE)
_PARTICIPLE = {
    "done": "run", "run": "run", "used": "use", "asked": "ask", "checked": "check", "waited": "wait",
    "created": "create", "committed": "commit", "tested": "test", "added": "add", "bumped": "bump",
    "installed": "install", "updated": "update", "read": "read", "written": "write", "made": "make",
}  # fmt: skip
_TRANSIENT_CLAUSE = lazy(
    r",\s*(?:not a problem|no problem|but not|except|although|though)\b.*$|"
    r",[^,]*\b(?:this time|for now|right now|at the moment|atm|today)\b.*$",
    re.IGNORECASE,
)
_CLAUSE_RULE = lazy(
    r"[,;:—–]\s+(?=(?:so |but |and )?(?:we|you) (?:really |probably |definitely )?(?:should|need to|must|have to)\b|"
    r"(?:please )?(?:always|never|don'?t|do not)\s+(?!(?:in|on|at|the|a|an|for|to|by|with)\b)\w+)",
    re.IGNORECASE,
)
_YOU = lazy(r"\byou\b(?!')", re.IGNORECASE)
# The assistant's restatement already says the rule before the clause ("X always goes on a branch,
# never straight onto main"): the clause qualifies it, it is no rule of its own.
_STANDS = lazy(r"\b(?:always|never|every|each)\b", re.IGNORECASE)
_ADVERB_LEAD = lazy(r"^(?:always|never)\s+(?P<word>[\w'-]+)", re.IGNORECASE)


def _elided(head: str, clause: str) -> bool:
    """A clause that says no verb of its own, the head's standing rule going on ("Settings are always
    read through `load_settings()`, never straight from the environment"): a fragment alone."""
    lead = _ADVERB_LEAD.match(clause)
    return bool(lead and _STANDS.search(head) and not grammar.verb(lead["word"]))


_STRAY_ESCAPE = lazy(r"\\+(?=\s|$)|\\(?=[.,;:!?])")


# "Running `cargo clippy` before every commit catches these early": the practice, and what it is good for.
_PRAISED = lazy(
    r"^(?P<doing>[A-Za-z]+ing)\s+(?P<what>.{4,160}?)\s+(?:catches|keeps|avoids|prevents|helps|saves|ensures|"
    r"means|guarantees|makes sure)\b",
    re.IGNORECASE,
)
_DOING = {
    "running": "run", "using": "use", "adding": "add", "checking": "check", "bumping": "bump",
    "installing": "install", "testing": "test", "committing": "commit", "updating": "update",
    "creating": "create", "writing": "write", "keeping": "keep", "rebasing": "rebase", "squashing": "squash",
    "tagging": "tag", "pinning": "pin", "regenerating": "regenerate", "formatting": "format",
}  # fmt: skip


def imperative(sentence: str, *, speaker: str = "user") -> str:
    """The sentence as an instruction: fillers, modal leads, tails and stray escapes removed."""
    text = strip_fillers(sentence)
    praised = _PRAISED.match(text) if speaker == "assistant" else None
    if praised and praised["doing"].lower() in _DOING:
        text = f"{_DOING[praised['doing'].lower()]} {praised['what']}"
    clause = _CLAUSE_RULE.search(text)
    if (
        clause
        and len(text[clause.end() :].split()) >= 4
        and (not _starts_with_rule(text) or len(text[: clause.start()].split()) <= 8)
        and not (speaker == "assistant" and _STANDS.search(text[: clause.start()]))
        and not _elided(text[: clause.start()], text[clause.end() :])
    ):
        text = re.sub(r"^(?:so|but|and) ", "", text[clause.end() :], flags=re.IGNORECASE)
    text = _TRANSIENT_CLAUSE.sub("", text).strip()
    regret = _REGRET.match(text)
    if regret and regret["verb"].lower() in _PARTICIPLE:
        text = _PARTICIPLE[regret["verb"].lower()] + " " + text[regret.end() :]
    for pattern, replacement in _MODAL_LEAD:
        new = pattern.sub(replacement, text, count=1)
        if new != text:
            if speaker == "assistant":  # "I'll remind you" said by the assistant: "you" is the user
                new = _YOU.sub("the user", new)
            text = new
            break
    text = _TAIL.sub("", text).strip(" ,;:—–-")
    text = re.sub(r"^(?:that|to)\s+", "", text, flags=re.IGNORECASE)
    text = _as_rule(text)
    return capitalised(text)


# "on all non-trivial commits we should work on a branch": the condition first, then the instruction
_SCOPED_MODAL = lazy(
    r"^(?P<scope>(?:on|for|in|with|after|before|during|when|whenever|if|once)\s[^,;:]{3,60}?),?\s+"
    r"(?:we|you)\s+(?:really\s+|probably\s+|definitely\s+|always\s+)?(?:should|need to|must|have to|ought to)\s+"
    r"(?P<rule>\w.+)$",
    re.IGNORECASE,
)
# "… as force pushing on main is bad form": the reason, said as a statement after the rule
_AS_REASON = lazy(
    r"\s+(?:as|since)\s+(?P<why>(?:(?:\w+\s)?\w+ing|it|this|that|the\s+\w+|a\s+\w+)\b[^;]*?\s(?:is|are|was|gets?)\s[^;]+)$",
    re.IGNORECASE,
)
# a word that only says how strongly it is meant: the rule reads the same without it
_INTENSIFIER = lazy(
    r"\b(?:really|very|super|totally|quite|pretty)\s+(?=(?:bad|poor|good|important|annoying|dangerous|risky|"
    r"wrong|helpful|useful|confusing|slow|fragile|form)\b)",
    re.IGNORECASE,
)


def _as_rule(text: str) -> str:
    """A rule said in passing, as a rule: a scope the sentence opens with stays first ("On all
    non-trivial commits, work on a branch"), a trailing reason ("as X is bad form") follows a
    semicolon, and intensifiers go ("really bad form" -> "bad form"). Only the words said are kept."""
    scoped = _SCOPED_MODAL.match(text)
    if scoped and len(scoped["rule"].split()) >= 2:
        text = f"{scoped['scope']}, {scoped['rule']}"
    reason = _AS_REASON.search(text)
    if reason and len(text[: reason.start()].split()) >= 4:
        text = f"{text[: reason.start()]}; {reason['why']}"
    return _INTENSIFIER.sub("", text)


_RULE_START = lazy(
    r"^(?:(?:we|you) (?:really |probably |definitely )?(?:should|need to|must|have to)|always|never|don'?t|do not|"
    r"use|run|keep|add|put|write|bump|create|install|only|before|after|when|if|for)\b",
    re.IGNORECASE,
)


def _starts_with_rule(text: str) -> bool:
    return bool(_RULE_START.match(text))


_QUOTED_WORD = lazy(r"[\"“”]([A-Za-z]+)[\"“”]")
_SYMBOL_LEAD = lazy(r"^[^\w`\"'(\[]+")
_RATHER = lazy(
    r"^rather than (?:use |using )?(?P<old>.+?),? (?:you|we) (?:should|can|could)(?: be able to)? use (?P<new>.+)$",
    re.IGNORECASE,
)


def strip_fillers(text: str) -> str:
    """Whitespace collapsed; no leading symbols, fillers or command words, no stray escapes."""
    text = _STRAY_ESCAPE.sub("", " ".join(text.split()))
    text = _QUOTED_WORD.sub(r"\1", _SYMBOL_LEAD.sub("", text))
    text = _FILLER.sub("", text).strip()
    text = re.sub(r",\s*please\s+", "; ", text, flags=re.IGNORECASE)
    rather = _RATHER.match(text)
    if rather:
        new = rather["new"]
        head = re.split(r"(?=\s+(?:with|so|because|as|since|when|if|unless)\b|[,.;])", new, maxsplit=1)[0]
        text = f"Use {head} rather than {rather['old']}{new[len(head) :]}"
    text = re.sub(r"\b(\w+) \1\b", r"\1", text)
    return capitalised(text)


def clean_escapes(text: str) -> str:
    """A principle without stray backslashes (a line continuation typed in the prompt, "branch\\")."""
    return _STRAY_ESCAPE.sub("", text).strip()


_DIRECTIVE_CLAUSE = lazy(
    r"(?:[.;:!]|\s[-—–])\s+(?=(?:please )?(?:use|run|never|always|don'?t|do not|keep|put|call|prefer|avoid|"
    r"stop|only|make sure)\b)",
    re.IGNORECASE,
)


def from_directive(text: str) -> str:
    """A rule that opens with a remark ("That's deprecated here - use X") starts at its instruction."""
    if not _NARRATIVE_LEAD.match(text):
        return text
    match = _DIRECTIVE_CLAUSE.search(text)
    if not match:
        return text
    rest = text[match.end() :]
    return rest[:1].upper() + rest[1:]


_NARRATIVE_LEAD = lazy(r"^(?:that'?s|that is|this is|it'?s|i|i'?m|we'?re|you'?re|you are)\b", re.IGNORECASE)


_FIRST_PERSON = [
    (lazy(r"\bI'm\b"), "the user is"),
    (lazy(r"\bI've\b"), "the user has"),
    (lazy(r"\bI'd\b"), "the user would"),
    (lazy(r"\bI'll\b"), "the user will"),
    (lazy(r"\bI (can|could|will|would|should|must|may|might|did|had|was)\b"), r"the user \1"),
    (lazy(r"\bI (?:don'?t|do not)\b"), "the user doesn't"),
    (lazy(r"\bI am\b"), "the user is"),
    (lazy(r"\bI have\b"), "the user has"),
    (lazy(r"\bI do\b"), "the user does"),
    (lazy(r"\bI (want|need|prefer|like|expect|review|check|amend|commit|merge|push|test)\b"), r"the user \1s"),
    (lazy(r"\bmyself\b"), "the user"),
    (lazy(r"\bme\b"), "the user"),
    (lazy(r"\bmy\b"), "the user's"),
]  # fmt: skip
_LONE_I = lazy(r"\bI\b")


@lru_cache(maxsize=1024)
def third_person(text: str) -> str:
    """A rule the user said, with "I" and "me" as "the user" (a later session reading "so I can review"
    would take "I" for itself); left as said when some "I" would not read right."""
    new = text
    for pattern, replacement in _FIRST_PERSON:
        new = pattern.sub(replacement, new)
    if _LONE_I.search(new) or new == text:
        return text
    return new[:1].upper() + new[1:]
