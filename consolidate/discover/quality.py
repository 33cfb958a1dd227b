"""The content-quality rules: what a candidate must be to be worth remembering.

Fail: generic best practice, transient state, events with no principle (too short, a bare "no",
a one-off instruction with nothing that generalises), anything that carried a secret.
"""

from __future__ import annotations

import re

from ..lazyre import lazy
from ..secrets import has_secret
from . import lexicon
from .signals import Signal
from .text import STOPWORDS, content_size, stems

# Twins of the lexicon's patterns for lower-cased text (see `lexicon.lowered`).
_LGENERIC, _LTRANSIENT, _LGENERALIZER, _LBEHAVIOUR = map(
    lexicon.lowered, (lexicon.GENERIC, lexicon.TRANSIENT, lexicon.GENERALIZER, lexicon.BEHAVIOUR)
)

MIN_CONTENT = 3
MIN_RULE = 4  # words a rule said in passing needs to stand alone without the conversation around it
_SAID_IN_PASSING = frozenset({"remember", "preference", "correction", "rejection"})
LONG_PRINCIPLE = 200  # a rule that needs more words is a topic file with its own summary, not a remark
_CODE = lazy(r"`[^`\n]+`")
_VAGUE_OBJECT = lazy(
    r"^(?:don'?t|do not|never|stop)\s+(?:do(?:ing)?|that|this|it)\b[\s.!]*(?:that|this|it)?[\s.!]*$", re.I
)
# Kinds whose wording was chosen by the user in passing: they must show they hold beyond the moment.
_NEEDS_GENERALITY = frozenset({"correction", "rejection"})


def _names_something(principle: str) -> bool:
    """A short rule can stand alone when it generalises or names its object (code, a path, a Name)."""
    if _CODE.search(principle) or _generalises(principle):
        return True
    return bool(re.search(r"(?<=\s)[A-ZА-Я][\w-]+|[\w.-]+/[\w./-]*|[\u3400-\u9fff]", principle))


_NAMED = lazy(
    r"`[^`\n]+`|(?<=\s)[A-Z][\w.+'-]*|[\w.-]+/[\w./-]*|\b\w+\.(?:toml|ya?ml|json|md|py|rs|ts|js|go|sql)\b"
)
_NON_LATIN = lazy(r"[\u0400-\u04ff\u3400-\u9fff]")
_BECAUSE = lazy(
    r"\b(?:because|since|so that|as it|given that|due to)\b|потому что|так как|поскольку|因为|由于|\bçünkü\b",
    re.I,
)


# The words of choosing itself, and what names nothing: what is left must say what was chosen.
_CHOOSING = stems(
    "use using keep keeping go going stick sticking stay staying continue stop choose pick prefer rather "
    "switch move now here this that these those it them today then "
    "остановимся останавливаемся этом этим том тем это здесь тут сейчас давай давайте "
    "burada şimdi bunu bununla bunda onu"
)


def names_a_choice(principle: str) -> bool:
    """A decision says what was chosen: its part before the reason names something (code, a Name, a
    path, a Latin name in Russian or Chinese text) or has a word beyond the choosing itself ("Use
    pnpm"); "Keep going, since we are close", "Остановимся на этом, потому что уже поздно" and
    "就这么定了，因为时间不够了" choose nothing."""
    choice = _BECAUSE.split(principle, maxsplit=1)[0]
    if _NAMED.search(choice):
        return True
    if _NON_LATIN.search(choice) and re.search(r"[A-Za-z]{2,}", choice):
        return True
    return bool(stems(choice) - _CHOOSING)


def rejection_reason(signal: Signal) -> str:
    """Why the signal is not worth a candidate, or "" when it passes."""
    principle = signal.principle
    if signal.redacted or has_secret(principle) or "[REDACTED" in principle:
        return "secret"
    if content_size(principle) < MIN_CONTENT and not _CODE.search(principle):
        return "no principle"
    if _VAGUE_OBJECT.match(principle.strip()):
        return "no principle"
    if signal.kind in ("marker", "queue"):
        return ""
    if signal.kind == "decision" and not names_a_choice(principle):
        return "no principle"
    lowered = principle.lower()
    if _LGENERIC.search(lowered):
        return "generic"
    if _LTRANSIENT.search(lowered) and not _LGENERALIZER.search(lowered):
        return "transient"
    if signal.kind in _NEEDS_GENERALITY and not signal.standing and not _generalises(principle):
        return "one-off"
    if (
        signal.kind in _SAID_IN_PASSING
        and content_size(principle) < MIN_RULE
        and not _names_something(principle)
    ):
        return "no principle"  # "Update version early": too few words to stand alone
    if not _generalises(principle) and (
        (_DOCUMENT_TASK.match(principle.strip()) and signal.kind != "remember")
        or (signal.kind != "decision" and _LETS.match(principle))
    ):
        return "one-off"  # a task for this time: a document to make say something (unless the user asked
        # to remember it: then what the document must say is kept as said), "let's do X now"
    return form_problem(principle, explicit=signal.kind == "remember")


HEDGE = lazy(
    r"\b(?:maybe|perhaps|i think|i'?m (?:leaning|thinking|not sure|wondering)|i wonder|i would have thought|one thought|"
    r"or am i|am i (?:confused|missing|wrong)|how about|what about|what if|"
    r"i guess|not sure|might be|could be|seems? (?:to me|like)|it seems|probably not)\b|"
    r"может быть|наверное|возможно|也许|可能|\b(?:belki|sanırım|galiba)\b",
    re.IGNORECASE,
    prefilter=True,
)
# The user doubting what they just said ("… But maybe I misunderstand"): not yet a rule.
DOUBT = lazy(
    r"\b(?:maybe|perhaps|but|unless|or)\s+i(?:'?m| am)?\s+(?:misunderstand|misunderstood|misread|wrong|mistaken|"
    r"confused|missing something)|\b(?:i'?m|i am) not (?:sure|certain)\b|\bi could be wrong\b|"
    r"\bcorrect me if i'?m wrong\b|\b(?:right|correct|or not)\?\s*$|"
    r"может,? я (?:ошибаюсь|не прав|не понял)|не уверен|我不确定|可能我理解错|也许我(?:错|理解错)|"
    r"\bemin değilim\b|yanılıyor olabilirim",
    re.IGNORECASE | re.MULTILINE,
    prefilter=True,
)
# A turn that reports a slip ("Whoops, …", "We made a boo boo, …"): about this time unless it says it holds.
INCIDENT = lazy(
    r"^\W*(?:whoops|oops|oopsie|uh[- ]?oh|my bad|dang|damn|we (?:made a (?:boo[- ]?boo|mistake|mess)|"
    r"messed up|mucked up|screwed up|goofed)|упс|ой|哎呀|糟糕|eyvah|hay aksi|tüh)\b",
    re.IGNORECASE,
)
_NARRATIVE = lazy(
    r"^(?:i|i'?m|i'?ve|i'?d|we'?ve|we made|we are|we'?re|it seems|it looks|there (?:is|are)|here is|this is|"
    r"that is|that'?s|you (?:seem|said|mention|say|suggested|were|are|did)|what|why|how|where|who|which|is|are|"
    r"do(?! not\b)|does|did|can|could|would)\b",
    re.IGNORECASE,
)
_ONE_OFF_EDIT = lazy(
    r"\b(?:sub)?sections?\b|\bparagraphs?\b|\bsub-?bullets?\b|\bheadings?\b|\bthis (?:file|doc|function|line|"
    r"test|commit|change|pr)\b|\bline \d+|\btwo commits\b|\bchore-\d+\b",
    re.IGNORECASE,
)


# How the program should behave is a feature request for the code, not a rule for working on it.
_FEATURE = lazy(
    r"^(?:we|it|the (?:tool|cli|app|program|command)) should (?:always |never |also )?(?:print|show|output|display|"
    r"emit|warn|indicate|report|list|log)\b",
    re.IGNORECASE,
)
# A document that must be made to say something: a task for this time, not a rule ("The READMEs need
# to be clear that …", "the docs should mention …").
_DOCUMENT_TASK = lazy(
    r"^(?:the\s+|our\s+)?(?:readme|docs?|documentation|changelog|comments?|help text|man ?page|[\w./-]+\.(?:md|rst|txt))"
    r"\S*\s+(?:definitely\s+|really\s+|also\s+)?(?:needs?|should|must|has|have)\s+(?:to\s+)?"
    r"(?:be (?:clear|explicit|updated)|make (?:it )?clear|say|mention|explain|state|describe|document|clarify|note)\b",
    re.IGNORECASE,
)
# "Let's …" outside a decision: what to do next, not a standing rule.
_LETS = lazy(r"^(?:ok(?:ay)?,?\s+|so,?\s+|now,?\s+)?let'?s\b", re.IGNORECASE)
_LITERAL_EDIT = lazy(r"^(?:change|rename|replace|reword|move|update|fix)\b[^.]*[\"“][^\"”]+[\"”]", re.I)


def form_problem(principle: str, explicit: bool = False) -> str:
    """Why the wording is no usable rule: a question, a hedge, a story, a cut-off fragment, a one-off edit."""
    text = principle.strip()
    if text.endswith(("?", "？")) or re.search(r"\?\s*\S{0,3}$", text):
        return "question"
    if text.endswith("…") or text.count("(") != text.count(")") or text.count("`") % 2:
        return "fragment"
    if len(text) > LONG_PRINCIPLE:
        return "long"
    if HEDGE.search(text):
        return "hedged"
    if _FEATURE.match(text):
        return "feature request"
    if _NARRATIVE.match(text):
        return "no principle"
    if explicit:  # the user asked for it to be remembered: its specifics are the point
        return ""
    if _LITERAL_EDIT.match(text):
        return "one-off"
    if _ONE_OFF_EDIT.search(text) and not _LGENERALIZER.search(text.lower()):
        return "one-off"
    return ""


_ALTERNATIVE = lazy(
    r"\b(?:instead of|rather than)\b|\blike the rest of\b|"
    r"\bbefore (?:we |you )?(?:actually )?(?:start|begin)\w*\b|\bas (?:everywhere|elsewhere) (?:else)?\b|"
    r"\bconsistent with\b|\b(?:use|run|call|prefer)\s+\S+(?:\s+\S+){0,2}?,?\s+not\b|"
    r"\bnot\s+\S+(?:\s+\S+){0,3}?,?\s+but\b|"
    r"вместо|,?\s+а не\b|而不是|不要用.{1,20}用|别用.{1,20}用|\byerine\b|\w+\s+değil\s*,",
    re.IGNORECASE,
    prefilter=True,
)
_CONDITIONAL_BAN = lazy(
    r"^(?:don'?t|do not|never|avoid|no)\b.*\b(?:until|unless|before|without|when|if|after|while|before)\b|"
    r"^(?:не надо|не нужно|нельзя|никогда|не)\b.*\b(?:пока|если|без|до|когда|после)\b|"
    r"^(?:不要|别|不能).*(?:之前|之后|除非|如果|直到|以前)|"
    r"\b(?:olmadan|önce|sonra|-?meden|-?madan)\b.*\b(?:yapma|kullanma|çalıştırma|ekleme)\b",
    re.IGNORECASE,
)


def _generalises(principle: str) -> bool:
    """A rule, not a one-off request: "always/never", "X instead of Y", or a ban with its condition."""
    lowered = principle.lower()
    if _LGENERALIZER.search(lowered) or _LBEHAVIOUR.search(lowered):
        return True
    return bool(_ALTERNATIVE.search(lowered) or _CONDITIONAL_BAN.search(lowered))


# A trigger that ends before its object: an article, or a word that only qualifies a noun
# ("When doing a multi-step:", "When writing the", "When making a non-trivial").
_DANGLING_TRIGGER = lazy(
    r"(?:\b(?:a|an|the|this|that|these|those|each|every|any|some|our|my|your)|"
    r"\b(?:multi|non|single|semi|pre|post|self|cross|inter|sub|two|three|four|one|many)-[a-z]+)\s*$",
    re.IGNORECASE,
)
# A pronoun that stands for a thing: what it stands for must be said before it.
_PRONOUNS = frozenset({"it", "its", "it's", "they", "them", "their"})
_LEADS = frozenset(
    {"don't", "dont", "do", "not", "never", "always", "please", "no", "if", "when", "until", "once"}
)
_WORD = lazy(r"`[^`\n]+`|[\w'’-]+")
# A reason that only points at what the conversation shared ("because of our circular references"):
# the reader of the rule has never seen it.
# `lead` and `noun` name its parts, for the completion that says the reason in the memory's words.
POINTED_REASON = lazy(
    r"\s*,?\s*\b(?P<lead>because of|due to|given)\s+(?:our|this|that|these|those|the usual|the same)\s+"
    r"(?P<noun>[\w\s'-]{1,40}?)[.!]?$",
    re.IGNORECASE,
)
# A sentence about what an example does, ordering nothing ("`[1],[2]` makes each one a link").
_EXAMPLE_DOES = lazy(
    r"^[`\"“][^`\"”]+[`\"”]\s*(?:makes|gives|creates|produces|renders|turns|becomes|works|breaks|shows|"
    r"displays|looks|делает|даёт|дает|создаёт|создает|превращается|становится|работает|ломает|показывает|"
    r"выглядит)\b|^[`\"“][^`\"”]+[`\"”]\s*(?:会|就|能)?(?:使|让|生成|变成|成为|显示为|渲染成|产生)|"
    r"^[`\"“][^`\"”]+[`\"”]\s[^.!?\n]*\b(?:yapar|oluşturur|verir|üretir|gösterir|çalışır|bozar|olur)\W*$",
    re.IGNORECASE,
)
_ORDERS = lazy(
    r"\b(?:must|should|always|never|only|instead|rather|prefer|use|don'?t|do not|not|required|needed)\b|"
    r"\b(?:нужно|надо|должн\w*|всегда|никогда|только|вместо|не)\b|应该|必须|总是|不要|别|只能|而不是|"
    r"\b(?:\w+(?:malı|meli)\w*|her zaman|asla|sadece|yerine|değil|yazın|kullanın)\b",
    re.IGNORECASE,
)


def wording_problem(principle: str, trigger: str) -> str:
    """Why a finished rule (its wording and trigger) is not complete enough to stand alone in memory,
    or "": a trigger that ends before its object, a pronoun whose referent the rule never names, a
    reason that points at what only the conversation knew, a sentence that says what an example
    does and orders nothing. The discoverer has no surer wording at hand: it proposes nothing."""
    if _DANGLING_TRIGGER.search(trigger.strip().rstrip(":")):
        return "dangling trigger"
    if _no_referent(principle):
        return "no referent"
    if POINTED_REASON.search(principle.strip()):
        return "unexplained reason"
    if _EXAMPLE_DOES.match(principle.strip()) and not _ORDERS.search(principle):
        return "no rule"
    return ""


def _no_referent(principle: str) -> bool:
    """A pronoun with nothing before it that it can stand for: "Don't install it until it passes its
    tests" (install what?); "Run `make` and fix it" has `make`."""
    words = _WORD.findall(principle)
    lowered = [w.lower().replace("’", "'") for w in words]
    first = next((i for i, w in enumerate(lowered) if w in _PRONOUNS), None)
    if first is None:
        return False
    before = lowered[:first]
    while before and before[0] in _LEADS:
        before.pop(0)
    before = before[1:]  # the verb
    return not any(w.startswith("`") or (w not in STOPWORDS and w not in _LEADS) for w in before)


def task_for_now(principle: str) -> bool:
    """What to do next ("let's …") or a document to make say something: a task, however often said."""
    text = principle.strip()
    return bool(_LETS.match(text) or _DOCUMENT_TASK.match(text))
