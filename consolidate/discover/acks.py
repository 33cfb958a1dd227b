"""The assistant's reply to what the user just said: does it acknowledge a correction, and does it
restate the rule?

In real sessions the lesson is rarely "no, use X": it is a question, a complaint, a terse fact. What
marks it is the answer — "You're right — the version bump goes first", "Good catch", "My mistake",
"Understood. I'll remind you after each commit" (Вы правы, 你说得对, Haklısınız …). The opening
phrase says how strongly the reply concedes; the clause after it often says the rule in clean words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ..lazyre import lazy
from .text import sentences

_YES = r"(?:(?:yes|yeah|ah|oh|да|是的|evet)\b[\s,.!—–-]*)?"  # "Yes, you're right": the concession follows
_STRONG = lazy(
    r"^\W*"
    + _YES
    + r"(?:you'?re (?:absolutely |quite )?right|you are (?:absolutely |quite )?right|good catch|nice catch|"
    r"my (?:mistake|bad|apologies)|(?:i'?m )?sorry|apologies|i apologi[sz]e|i was wrong|that'?s on me|"
    r"i should(?:n'?t)? have|fair point|fair enough|you caught|thanks for (?:catching|the correction)|"
    r"вы правы|ты прав[аы]?|правильно заметил\w*|моя ошибка|извин\w*|прошу прощения|виноват\w*|"
    r"你说得对|您说得对|说得对|是我的错|我的错|抱歉|对不起|不好意思|"
    r"haklısın\w*|haklisin\w*|özür dilerim|kusura bakma\w*|hata bende|hatam\b)",
    re.IGNORECASE,
)
_WEAK = lazy(
    r"^\W*(?:understood|got it|noted|right\b|agreed|(?:that )?makes sense|no reason not to|sounds good|"
    r"(?:that'?s (?:a )?)?(?:good|great|excellent) (?:point|call|idea|question|suggestion)|"
    r"will do|ok(?:ay)?,? (?:i'?ll|let me|switching|using)|"
    r"понял\w*|понятно|принято|согласен|согласна|хорошо,|верно|(?:хорошая|отличная) идея|"
    r"明白|了解|收到|好的|知道了|同意|好主意|好建议|"
    r"anladım|anlaşıldı|tamam|peki|doğru|iyi fikir)",
    re.IGNORECASE,
)
# A commitment that outlives the moment: "I'll remind you after each commit", "going forward I'll …".
_COMMITMENT = lazy(
    r"\bi'?ll\b.*\b(?:from now on|going forward|in (?:the )?future|every(?: time)?|each|always|by default|"
    r"next time|whenever|the default)\b|\b(?:from now on|going forward),? i'?ll\b",
    re.IGNORECASE,
)
# The same promise in our other languages: "буду каждый раз …", "以后每次都会 …", "bundan sonra … -acağım".
_COMMITMENT_INTL = lazy(
    r"\b(?:буду|стану)\b[^.!?\n]*\b(?:всегда|каждый раз|впредь|теперь|по умолчанию|после кажд\w*|перед кажд\w*)|"
    r"\b(?:впредь|с этого момента|в дальнейшем|теперь всегда)\b[^.!?\n]*\bбуду\b|"
    r"(?:以后|今后|从现在开始|往后)[^。！？\n]{0,30}(?:会|都)|我(?:以后|今后)?会[^。！？\n]{0,30}(?:每次|以后|今后|一直|总是)|"
    r"\b(?:bundan sonra|her seferinde|artık hep|her zaman)\b[^.!?\n]*\w(?:acağım|eceğim|ıcam|icem)\b",
    re.IGNORECASE,
)
_OTHER_SCRIPT = lazy(r"[\u0400-\u04ff\u3400-\u9fffğışĞİŞ]")  # Russian, Chinese or Turkish in the reply
_RULE_WORDS = lazy(
    r"\b(?:should|must|need(?:s)? to|has to|have to|always|never|don'?t|do not|instead of|rather than|"
    r"every|each|before|after|only)\b|следует|нужно|надо|всегда|никогда|вместо|应该|必须|总是|不要|而不是|都要|需要|"
    r"\b(?:her zaman|asla|yerine|gerek\w*|önce|sonra)\b",
    re.IGNORECASE,
)
_IMPERATIVE = lazy(
    r"^(?:use|run|keep|put|add|write|bump|create|commit|install|standardi[sz]e|remind|ask|check|wait|stop|"
    r"follow|prefer|pass|avoid|never|always|don'?t|do not|make|start|name|place|move|include|mention)\b",
    re.IGNORECASE,
)


@dataclass
class Reply:
    strength: int  # 2 concedes a correction, 1 accepts, 0 neither
    commitment: bool  # promises to act so from now on
    rest: str = ""  # what follows the acknowledgement

    @cached_property
    def restatement(self) -> str:
        """The rule as the reply says it, or "" (worked out only when someone asks)."""
        return restated_rule(self.rest) if self.rest else ""


NO_REPLY = Reply(0, False)


def read_reply(text: str) -> Reply:
    """How the assistant's reply opens, and what follows the opening (where it may restate the rule)."""
    head = text.lstrip()[:400]
    strong = _STRONG.match(head)
    weak = None if strong else _WEAK.match(head)
    match = strong or weak
    first = head.split("\n\n", 1)[0]
    lowered = first.lower()
    promised = "i'll" in lowered or "i will" in lowered or "ill " in lowered
    english = promised and bool(_COMMITMENT.search(first))
    commitment = english or (not first.isascii() and _OTHER_SCRIPT.search(first) is not None
                             and bool(_COMMITMENT_INTL.search(first)))  # fmt: skip
    if match is None and not commitment:
        return NO_REPLY
    rest = head[match.end() :] if match else head
    return Reply(2 if strong else 1 if weak else 0, commitment, rest)


# A restatement that holds beyond the moment: a generaliser, or a modal scoped to the whole project
# ("in this repo commit messages must be in English", "这个仓库的提交说明必须用英文写").
_LASTING = lazy(
    r"\b(?:always|never|only ever|every ?time|each time|whenever|by default|from now on|going forward|in general)\b|"
    r"всегда|никогда|каждый раз|впредь|по умолчанию|总是|永远|每次|一律|始终|统一|默认|"
    r"\b(?:her zaman|asla|her seferinde|hiçbir zaman)\b",
    re.IGNORECASE,
)
_SCOPE = lazy(
    r"\b(?:in|across|for|throughout) (?:this|our|the whole) (?:repo|repository|project|codebase|code base)\b|"
    r"в (?:этом|нашем) (?:репозитории|проекте)|(?:这个|本|我们的)(?:仓库|项目|代码库)|"
    r"\b(?:bu|bizim) (?:depo|proje)\w*",
    re.IGNORECASE,
)
_SCOPED_MODAL = lazy(r"\b(?:must|should|has to|have to|needs? to)\b|нужно|надо|должн\w*|必须|应该|\w+(?:malı|meli)\b",
                     re.IGNORECASE)  # fmt: skip
# Where the rule ends and the assistant's own next step begins: "…; I fixed the file", "…，我重新提交一次".
_OWN_STEP = lazy(r"\s*(?:;|[,，；]\s*(?=我|i'?ll\b|i will\b|let me\b|я\s)|—\s*(?=i'?ll\b|let me\b)).*$",
                 re.IGNORECASE | re.DOTALL)  # fmt: skip


_PROMISE_LEAD = lazy(
    r"^(?:from now on|going forward|in (?:the )?future),?\s+(?=i'?ll\b|i will\b)", re.IGNORECASE
)
_CONSEQUENCE = lazy(
    r",?\s+(?:so|because|since|which|as a result)\s+|[,，]\s*(?:так что|потому что|поэтому|所以|因为|因此|"
    r"bu yüzden|çünkü)",
    re.IGNORECASE,
)


# "the test always failed because of the typo", "тест всегда падал", "test her zaman başarısız oldu": what
# happened, told in the past, is no rule.
_PAST = lazy(
    r"(?<!\bare )(?<!\bis )(?<!\bbe )(?<!\bget )(?<!\bgets )"  # "are always installed" is a rule, passive
    r"\b(?:always|never|ever)\s+(?:\w+ed|was|were|had|did|went|broke|ran|got|made|took|been)\b|"
    r"(?:всегда|никогда(?: не)?)\s+(?!сначала\b)\w+(?:л|ла|ло|ли)(?:сь|ся)?\b|(?:总是|一直|每次)[^。，,]*了|"
    r"\b(?:her zaman|asla|hiçbir zaman)\b[^.;]*\w(?:dı|di|du|dü|tı|ti|tu|tü)(?:m|n|k|lar|ler)?\b",
    re.IGNORECASE,
)


def lasting_rule(reply: Reply, lasting: re.Pattern[str] | None = None, *, accepted: bool = False) -> str:
    """The rule a conceding reply restates when it holds beyond the moment ("Good catch — fixture data
    must always be changed in the generator"), without the assistant's next step; "" otherwise.
    `lasting`: what else says it holds beyond the moment; `accepted`: a reply that accepts or promises
    is enough (it answers a proposal, not an objection)."""
    if reply.strength < (0 if accepted else 2) or not reply.restatement:
        return ""
    # "Going forward, I'll always …" is the promise itself, not a rule followed by the next step
    said = _OWN_STEP.sub("", _PROMISE_LEAD.sub("", reply.restatement)).rstrip(" ,，;；")
    main = _CONSEQUENCE.split(said, maxsplit=1)[0]  # "X requires Y, so Z never matches": Z explains, no rule
    if _PAST.search(main):
        return ""
    if _LASTING.search(main) or _SCOPE.search(main) and _SCOPED_MODAL.search(main):
        return said
    if lasting is not None and lasting.search(main):
        return said
    return ""


def restated_rule(rest: str) -> str:
    """The first sentence after the acknowledgement when it reads as a rule ("— X must Y", "I'll …")."""
    rest = re.sub(r"^[\s,.!:;—–\-，。！：；、]+", "", rest)
    parts = sentences(rest.split("\n\n", 1)[0])[:4]
    for number, sentence in enumerate(parts):
        if sentence.endswith(("?", "？")) or sentence.startswith(
            ("Let me", "Let's", "I'll fix", "I will fix")
        ):
            continue
        if "ll " in sentence and _COMMITMENT.search(sentence):
            return sentence
        if number >= 2:  # after an apology and a regret, only a promise that lasts is the rule
            continue
        if _IMPERATIVE.match(sentence):
            return sentence
        if _RULE_WORDS.search(sentence) and not re.match(r"^(?:i|that|this|it|here)\b", sentence, re.I):
            return sentence
    return ""


# A prescription: what a rule orders (a modal, a ban, an imperative), not what it observes ("is always …").
_PRESCRIBES = lazy(
    r"\b(?:must|should|has to|have to|needs? to|never|don'?t|do not|only ever|instead of|rather than)\b|"
    r"\bi'?ll (?:always|never|each|every|from now on)\b|"
    r"^(?:always|never|use|run|keep|put|add|write|bump|create|commit|wait|ask|check|make|pass|avoid)\b|"
    r"нужно|надо|следует|должн\w*|нельзя|никогда не|应该|必须|不要|一律|\w+(?:malı|meli)\b|\basla\b",
    re.IGNORECASE,
)


def prescribes(rule: str) -> bool:
    """The rule orders something (a modal, a ban, an imperative) rather than observes what is so
    ("the cache is always cleared on deploy")."""
    return bool(_PRESCRIBES.search(rule))


# The user asks how a thing is, not what the assistant did or should do: "does the cache get cleared on
# deploy?", "is the port 8443?" (not "did you …", "should we …", "is there a reason …").
_FACT_QUESTION = lazy(
    r"^\W*(?:(?:so|wait|hm+|and|but)[,\s]+)?(?:does|do|is|are|was|were|will|can|has|have)\s+"
    r"(?!you\b|we\b|u\b|i\b|there\b|it (?:make sense|worth)\b)[^?]*\?\s*$",
    re.IGNORECASE,
)


def agrees_with_a_question(asked: str, rule: str) -> bool:
    """The reply only agreed with a question about how a thing is, and its "rule" observes rather than
    orders: "does the cache get cleared on deploy?" - "You're right — the cache is always cleared"."""
    return bool(_FACT_QUESTION.match(asked.strip())) and not prescribes(rule)
