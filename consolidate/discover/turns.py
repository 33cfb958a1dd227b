"""A user's turn and what came right after it, weighed together into one signal (or none).

What the user said — a correction, a rejection's reason, a standing wish, a request to write something
into CLAUDE.md — is weighed with the shape of the dialogue around it: whether they had interrupted
the assistant, whether the assistant's reply concedes ("You're right", "My mistake") or promises
("I'll … after each commit"), whether its next action redid the last one differently. A structural
signal can carry a plain sentence; a phrase with nothing around it rarely passes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..lazyre import lazy
from ..transcripts.records import ToolUse, tool_command
from . import lexicon
from .acks import NO_REPLY, Reply, agrees_with_a_question, lasting_rule
from .phrasing import directive_principle
from .quality import DOUBT, HEDGE, INCIDENT
from .restate import restated_practice
from .rewrite import imperative, third_person
from .text import mask_code, sentences
from .triggers import command_head, program_of

THRESHOLD = 3  # evidence needed for a turn that no phrase marked on its own

# The user asks for something to be written into memory: the rule is in this turn or just before it.
MEMORY_REQUEST = lazy(
    r"\b(?:note|add|put|record|write|document|capture|mention|include)\b[^.?!\n]{0,50}?\b(?:in|to|into)\s+"
    r"(?:[^?!\n]{0,40}?\band\s+)?(?:the\s+|our\s+|/)?(?:claude|agents|memory)(?:\.md)?\b|"
    r"\bupdate\s+(?:the\s+|/)?(?:claude|agents)(?:\.md)?\b(?!\s+(?:to reflect|for the new|with the new))|"
    r"\b(?:claude|agents)(?:\.md)?\s+(?:needs|should|might need)\s+(?:to\s+)?(?:be\s+)?updat|"
    r"\b(?:yep|yes|ok|okay|please)?,?\s*remember (?:that|this|it)\s*(?:[,.!;]|$)|"
    r"\bзапиши\w*\s+(?:это\s+)?в\s+(?:claude|память|memory)|\bдобавь\w*\s+(?:это\s+)?в\s+claude|"
    r"\bзапомни\s+это\b|写(?:到|进|入)\s*(?:claude|memory|记忆)|(?:加到|记到|记入)\s*claude|记住这(?:个|一点)|"
    r"\bclaude(?:\.md)?'?(?:ye|ya|a|e)\s+(?:ekle|yaz)\w*|\bbunu\s+(?:unutma|not al|hatırla)\w*|"
    # the project's rules as the place: "add that to the rules", "добавь это в правила", "加到规则里"
    r"\b(?:add|put|write|note)\s+(?:that|this|it)\s+(?:in|to|into)\s+(?:the|our|your)\s+rules\b|"
    r"\b(?:добавь|запиши|внеси)\w*\s+(?:это\s+)?в\s+правила\b|(?:加到|写进|写到|记到)\s*规则|"
    r"\bkurallara\s+(?:ekle|yaz)\w*|\b(?:hafızaya|belleğe)\s+(?:ekle|yaz|kaydet)\w*|"
    # the request put as a question: "should CLAUDE.md say that?" (see `_SHOULD_SAY`)
    r"\b(?:should|shall)\s+(?:the\s+|our\s+)?(?:claude|agents)(?:\.md)?\s+(?:say|state|mention|note|include)\b|"
    r"\b(?:claude|agents)(?:\.md)?\s+should\s+(?:say|state|mention)\b|"
    r"(?:написать|записать|указать)\s+в\s+claude|\bclaude(?:\.md)?\s+(?:стоит\s+|надо\s+|нужно\s+)?"
    r"(?:написать|записать|указать)|claude(?:\.md)?\s*(?:里|中)?\s*(?:要不要|是不是|是否)?(?:该|应该)?"
    r"(?:写上|写明|注明|加上)|\bdiye\s+claude(?:\.md)?'?(?:ye|ya|a|e)\s+(?:yaz|ekle)\w*\s+m[ıiuü]",
    re.IGNORECASE,
    prefilter=True,
)
# A request put as a question, with the rule it would write: "should CLAUDE.md say that X?", "может, в
# CLAUDE.md написать, что X?", "要不要在 CLAUDE.md 里写上：X？", "X diye CLAUDE.md'ye yazalım mı?".
_SHOULD_SAY = lazy(
    r"\b(?:should|shall)\s+(?:the\s+|our\s+)?(?:claude|agents)(?:\.md)?\s+(?:say|state|mention|note|include)\b"
    r"(?:\s+that\b)?(?P<en>[^?\n]*)\?|"
    r"(?:(?:написать|записать|указать)\s+в\s+claude(?:\.md)?|\bclaude(?:\.md)?\s+(?:стоит\s+|надо\s+|нужно\s+)?"
    r"(?:написать|записать|указать))\s*(?:,\s*что\b|что\b|:)?(?P<ru>[^?\n]*)\?|"
    r"claude(?:\.md)?\s*(?:里|中)?\s*(?:要不要|是不是|是否)?(?:该|应该)?(?:写上|写明|注明|加上)\s*[：:，,]?"
    r"(?P<zh>[^？?\n]*)[？?]|"
    r"(?P<tr>[^?\n.!]*?)\s+diye\s+claude(?:\.md)?'?(?:ye|ya|a|e)\s+(?:yaz|ekle)\w*\s+m[ıiuü]\w*\s*\?",
    re.IGNORECASE,
    prefilter=True,
)
_AGREES = lazy(
    r"^\W*(?:yes|yeah|yep|sure|definitely|да|конечно|是的|对|当然|好|evet|tabii|kesinlikle)\b", re.I
)
# A request that names what it points back at: "with that convention", "add that rule", "это правило".
_NAMED_POINTER = lazy(
    r"\b(?:that|this|these|those|the)\s+(?:conventions?|rules?|workflows?|polic(?:y|ies)|practices?|info|"
    r"information|approach|process|format|steps?)\b|\b(?:это|эти|этот)\s+(?:правил\w*|соглашени\w*|порядок)|"
    r"这(?:个|条)?(?:规则|约定|规矩|流程)|\bbu\s+(?:kural\w*|gelenek\w*|yöntem\w*)",
    re.IGNORECASE,
)
# What a question-put request points back with instead of saying the rule: "should CLAUDE.md say so?"
_POINTER = lazy(r"^\W*(?:that|this|so|it|это|так|这个|这一点|这条|bunu|böyle|şunu)?\W*$", re.IGNORECASE)
_PRODUCT = lazy(
    r"\b(?:output|print|prints|printed|show|shows|display|indicate|emit|warning|message|summary|table|column|"
    r"header|prompt|help text)\b",
    re.IGNORECASE,
)
_DOC_UPDATE = lazy(r"\bto reflect\b|\bfor the (?:new|latest|current)\b|\bwith the (?:new|latest)\b", re.I)
_MODAL = lazy(
    r"\b(?:we|you) (?:really |probably |definitely )?(?:should|must|need to|have to|ought to)\b|"
    r"\bshould (?:always|never)\b|\bmust\b|\bmake sure\b|\bneeds? to\b|\bshould be\b|"
    r"\byou (?:can'?t|cannot|mustn'?t)\b|надо|нужно|должн\w*|следует|应该|必须|要|需要|"
    r"\b(?:messages?|subjects?|commits?|branch(?:es)?|names?|versions?|tags?|titles?|pull requests?|prs?|"
    r"changelogs?|entries|lines?|bodies|body)\s+(?:should|must|need to|have to)\b|"
    r"\b(?:gerek\w*|lazım|\w+(?:malı|meli)\w*)\b",
    re.IGNORECASE,
)
_GENERAL = lazy(
    r"\b(?:always|never|every|each|all non-trivial|on all|from now on|going forward|in (?:the )?future|"
    r"by default|whenever|habit|workflow|convention|rule)\b|\"always\"|всегда|никогда|каждый|впредь|"
    r"总是|永远|每次|以后|一律|\b(?:her zaman|asla|her seferinde|bundan sonra)\b",
    re.IGNORECASE,
)
_ORDER = lazy(
    r"\b(?:first|before|after|then|until|once)\b|сначала|перед|после|потом|先|之前|之后|然后|"
    r"\b(?:önce|sonra|ardından)\b",
    re.IGNORECASE,
)
_INFORMS = lazy(
    r"^\s*(?:(?:fyi|note|nb|btw|heads up|just so you know)\b|(?:к сведению|для справки|на заметку|кстати)\b|"
    r"(?:提醒一下|顺便说一下|顺便提一下|备注|注意)[:：,，\s]|(?:bilgin olsun|bu arada)\b|not:)",
    re.IGNORECASE,
)
_ACCUSATION = lazy(
    r"\byou (?:always|keep|still|again|never)\b.*\b(?:mistake|forget|forgot|miss)\w*\b|\byou didn'?t\b|"
    r"\bwhy (?:did|do|didn'?t) you\b|\bare you (?:hallucinating|sure)\b",
    re.IGNORECASE,
)
_GERUND = {
    "passing": "pass", "using": "use", "running": "run", "adding": "add", "checking": "check",
    "bumping": "bump", "installing": "install", "testing": "test", "committing": "commit", "asking": "ask",
    "updating": "update", "removing": "remove", "creating": "create", "reading": "read", "writing": "write",
    "including": "include", "making": "make", "putting": "put", "setting": "set", "mentioning": "mention",
}  # fmt: skip


@dataclass
class Turn:
    """A user's turn waiting for the assistant's answer before it is judged."""

    kind: str  # correction | rejection | remember | decision | preference
    text: str
    index: int
    base: dict[str, str]  # session, uuid, timestamp, file
    use: ToolUse | None = None  # the action the turn answered
    principle: str = ""  # what the words alone give
    score: int = 0
    strength: float = 0.0
    before: list[str] = field(default_factory=list)  # the reply this turn answers, the user's turn before
    before_base: dict[str, str] = field(default_factory=dict)  # where the user's turn before was said
    # The user's turns before that one, oldest first (text, where it was said): the turn a "write that
    # down" points past may be one of them ("`[1],[2]` works" - "does it make sense?" - "note that").
    earlier: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    points_back: bool = False  # its rule was said before it (a "remember that" whose object came earlier)
    memory: bool = False
    soft: bool = False  # no phrase marked it: only the shape of the dialogue can carry it
    reply: Reply = field(default_factory=lambda: NO_REPLY)
    reply_text: str = ""
    redo: ToolUse | None = None
    episode: str = ""  # the task it belongs to (see `episodes`)
    intervenes: bool = False  # a rejection, its reason, or what the user typed after interrupting
    terse: bool = False  # no rule words: only a reply that concedes and says a lasting rule carries it


_ORDER_KEYS = ("first", "before", "after", "then", "until", "once", "сначала", "перед", "после", "потом", "先",
               "之前", "之后", "然后", "önce", "sonra", "ardından")  # fmt: skip
_MODAL_KEYS = ("should", "must", "need", "have to", "ought", "make sure", "can't", "cannot", "надо", "нужно",
               "должн", "следует", "应该", "必须", "要", "需要", "gerek", "lazım", "malı", "meli")  # fmt: skip
_GENERAL_KEYS = ("always", "never", "every", "each", "all ", "from now", "going forward", "future", "default",
                 "whenever", "habit", "workflow", "convention", "rule", "всегда", "никогда", "кажд", "впредь",
                 "总是", "永远", "每次", "以后", "一律", "her ", "asla", "bundan sonra")  # fmt: skip
FEATURE_SPAN = 600  # a rule said in passing is said early in the message, not at the end of a pasted log


_LORDER, _LGENERALIZER = map(lexicon.lowered, (_ORDER, lexicon.GENERALIZER))
_has_directive = lexicon.finder(lexicon.DIRECTIVE)
_LMODAL, _LGENERAL = (lexicon.lowered(p, prefilter=True) for p in (_MODAL, _GENERAL))


@lru_cache(maxsize=4096)
def features(text: str) -> int:
    """How much a plain sentence reads like a standing rule: a modal, a generaliser, an order."""
    masked = mask_code(text)[:FEATURE_SPAN].lower()
    modal = lexicon.has_any(masked, _MODAL_KEYS) and _LMODAL.search(masked)
    general = lexicon.has_any(masked, _GENERAL_KEYS) and _LGENERAL.search(masked)
    order = lexicon.has_any(masked, _ORDER_KEYS) and _LORDER.search(masked) and _has_directive(masked)
    steps = 2 * bool(workflow_rule(text))  # a procedure the user lays out step by step
    return bool(modal) + bool(general) + bool(order) + bool(_INFORMS.match(masked)) + steps


_STEP = lazy(r"^\s{0,3}(?:\d{1,2}[.)]|[-*])\s+(?P<step>\S[^\n]{2,160})$", re.MULTILINE)
# The look-ahead only skips early the lines no lead-in can start (the colon that ends a line must be on
# this one, or on a later one reached through the phrase's words and spaces): what matches is the same.
_PROCEDURE_LEAD = lazy(
    r"^(?=[^\n]*:[^\S\n]*$|[^\n]*\n[\s\w]*:[^\S\n]*$)(?P<lead>[^\n]{3,160}?)(?:\s+(?:is|are)\s+done|\s+works?)?\s*(?:like this|this way|as follows|"
    r"in (?:this|that) order|(?:the )?(?:workflow|process|procedure|steps?)(?: (?:is|are))?)?\s*:\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_PROCEDURE_CUE = lazy(
    r"\b(?:like this|this way|as follows|in (?:this|that) order|workflow|process|procedure|steps?|is done|"
    r"are done|when|whenever|before|after|to (?:merge|release|deploy|publish|start|finish|commit))\b",
    re.IGNORECASE,
)
_STEP_VERB = lazy(
    r"^(?:then\s+)?(?:you\s+|we\s+|i\s+)?(?:\w+\s+)?(?:and\s+)?(?:run|use|push|pull|open|create|merge|"
    r"rebase|delete|remove|commit|tag|bump|update|add|write|review|check|test|build|install|wait|ask|"
    r"squash|move|make|fetch|switch|close|release|publish|deploy|amend|approve|edit|start|finish|"
    r"set|clean|verify|mark|name|record|note|post|send|sync|reset|revert|stop)\w*\b",
    re.IGNORECASE,
)
_LINE_END_COLON = lazy(r":[^\S\n]*(?:\n|\Z)")
_LEAD_FILLER = lazy(r"^\s*(?:no|nope|ok|okay|actually|well|fyi|note|so)\b[,.:!]?\s*", re.IGNORECASE)


@lru_cache(maxsize=1024)
def workflow_rule(text: str) -> str:
    """A procedure laid out as a list after a lead-in ("Merging is done like this:\n1. push the
    branch\n2. open a PR …") as one rule: "When merging: push the branch, open a PR, …, then …".
    "" unless there are two to eight steps, each an action, under a lead-in that names a procedure."""
    if "\n" not in text or ":" not in text or len(text) > 1500:
        return ""
    masked = mask_code(text) if "```" in text else text
    if not _LINE_END_COLON.search(masked):  # the lead-in's line ends in ':' (a cheap test of that first)
        return ""
    for lead in _PROCEDURE_LEAD.finditer(masked):
        if not _PROCEDURE_CUE.search(lead.group(0)) or lead.group(0).rstrip().endswith("?:"):
            continue
        rest = masked[lead.end() :].lstrip("\n")
        steps = []
        for line in rest.splitlines():
            found = _STEP.match(line)
            if not found:
                break
            steps.append(found["step"].strip().rstrip(".;,"))
        if not 2 <= len(steps) <= 8 or any(s.endswith("?") or not _STEP_VERB.match(s) for s in steps):
            continue
        condition = _procedure_condition(lead["lead"])
        said = (
            ", ".join(_as_step(s) for s in steps[:-1]) + ", then " + _as_step(steps[-1]).removeprefix("then ")
        )
        return f"When {condition}: {said}." if condition else said[0].upper() + said[1:] + "."
    return ""


def _procedure_condition(lead: str) -> str:
    """ "No, merging is done like this" -> "merging"; "When a feature is done we do it this way" ->
    "a feature is done"."""
    lead = _LEAD_FILLER.sub("", lead.strip())
    lead = re.sub(r",?\s+(?:we do it|we do|do it|it'?s done)$", "", lead, flags=re.I)
    lead = re.sub(r"^(?:when|whenever|for|to)\s+", "", lead.strip(" ,"), flags=re.I)
    lead = re.sub(r"\s+(?:the )?(?:workflow|process|procedure|steps?)$", "", lead, flags=re.I)
    return lead.strip(" ,:") if 1 <= len(lead.split()) <= 8 else ""


def _as_step(step: str) -> str:
    """One step as an instruction: "you delete the branch" -> "delete the branch"; "I review and
    merge it" -> "the user reviews and merges it"."""
    step = re.sub(
        r"^(?:then\s+)?(?:you|we)\s+", lambda m: "then " if "then" in m.group(0) else "", step, flags=re.I
    )
    mine = re.match(r"^(then\s+)?i\s+(\w+)(?:\s+and\s+(\w+))?\b", step, re.IGNORECASE)
    if mine:
        verbs = " and ".join(_third(v) for v in (mine[2], mine[3]) if v)
        step = f"{mine[1] or ''}the user {verbs}{step[mine.end() :]}"
    return step[0].lower() + step[1:] if step[:1].isupper() and not step[1:2].isupper() else step


def _third(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb[:-1] + "ies" if verb.endswith("y") and verb[-2:-1] not in "aeiou" else verb + "s"


def names_action(text: str, use: ToolUse | None) -> bool:
    """The text talks about what the assistant just did: its program or subcommand, or the file it edited."""
    if use is None:
        return False
    lowered = text.lower()
    command = tool_command(use)
    if command:
        words = [w for w in command_head(command).split() if len(w) > 2]
        return any(re.search(rf"\b{re.escape(w.lower())}", lowered) for w in words)
    path = str(use.input.get("file_path") or "")
    name = path.rsplit("/", 1)[-1].lower()
    return bool(name) and name in lowered


def ordered_correction(masked: str, text: str, use: ToolUse | None) -> bool:
    """ "First run the linter, then commit" right after a commit: an instruction that puts something
    before (or after) what the assistant just did is a correction of it (`masked`: lower-cased, no code)."""
    if use is None or not lexicon.has_any(masked, _ORDER_KEYS):
        return False
    return bool(_LORDER.search(masked) and _has_directive(masked)) and names_action(text, use)


_MEMORY_KEYS = (
    "claude",
    "agents",
    "memory",
    "remember",
    "запиш",
    "запомни",
    "добавь",
    "记",
    "写",
    "加到",
    "bunu",
    "rules",
    "правила",
    "规则",
    "kurallar",
    "hafıza",
    "belleğ",
)


@lru_cache(maxsize=1024)  # the same turn comes back in every session resumed from it
def is_memory_request(text: str) -> bool:
    if not lexicon.has_any(text[:1200].lower(), _MEMORY_KEYS):
        return False
    masked = mask_code(text)[:1200]
    if _ASKS_IF_DONE.match(masked):
        return False
    return bool(MEMORY_REQUEST.search(masked)) and not _DOC_UPDATE.search(masked)


_IMPERATIVE_START = lazy(
    r"^(?:update|remove|include|create|save|record|bump|commit|install|run|use|add|write|keep|start|stop|wait|"
    r"check|ask|mention|review|amend|push|merge|tag|test|verify|document)\b",
    re.IGNORECASE,
)
_CLAUSE = lazy(r",\s+(?:but|and|so|although|though|because)\s+|;\s+", re.IGNORECASE)


def rule_clauses(text: str) -> list[str]:
    """The sentences of a turn, each cut to its clause that carries the rule ("…, but X must Y")."""
    found = []
    for sentence in sentences(mask_keep_code(text)):
        request = MEMORY_REQUEST.search(sentence)
        if request:
            sentence = without_request(sentence, request)
        parts = _CLAUSE.split(sentence)
        if len(parts) > 1 and not features(parts[0]):
            sentence = next((p for p in parts if features(p)), sentence)
        found.append(sentence)
    return found


# What is left of the request once its verb phrase is cut: "…, please", "…，把这个", "…, bunu", "…, это".
_REQUEST_REST = lazy(
    r"(?:[,，;；:：—\s-]+(?:please|pls|and|maybe|so|we probably want to|пожалуйста|и|bunu|şunu|lütfen)\b|"
    r"[,，;；\s]*(?:把(?:这个|这条|这一点|它)?|请))*[,，;；:：—\s-]*$",
    re.IGNORECASE,
)
# A request that introduces what to write: "put this in the memory: X", "note in CLAUDE.md that X".
_REQUEST_TAIL = lazy(r"^(?:\.md\b)?\s*(?:[:：—]|,?\s*(?:that|что)\b)\s*", re.I)
# Asking whether it was done is no request: "did you update CLAUDE.md?", "have you added it to the rules?"
_ASKS_IF_DONE = lazy(r"^\W*(?:did|have|has|had|were|was)\s+(?:you|we|it)\b[^?\n]*\?\s*$", re.I)


def without_request(sentence: str, request: re.Match[str]) -> str:
    """The sentence without the request to write it down: what comes before it ("X, note that in
    CLAUDE.md" -> "X"), else what follows it ("put this in the memory: X" -> "X")."""
    head = _REQUEST_REST.sub("", sentence[: request.start()], count=1).strip()
    if head:
        return head
    tail = sentence[request.end() :]
    lead = _REQUEST_TAIL.match(tail)
    return tail[lead.end() :].strip() if lead else ""


def unrequested(text: str) -> str:
    """The turn with its request to write something down cut out of each sentence that holds one."""
    kept = []
    for sentence in sentences(text):
        found = MEMORY_REQUEST.search(sentence)
        kept.append(without_request(sentence, found) if found else sentence)
    return " ".join(k for k in kept if k)


def _says_its_own_object(text: str) -> bool:
    """The sentence of the request says what to write (a state, a question: no rule), rather than
    pointing back at what was said before ("put this in the memory", "update CLAUDE.md with that")."""
    for sentence in sentences(mask_keep_code(text)):
        found = MEMORY_REQUEST.search(sentence)
        if found:
            if _NAMED_POINTER.search(sentence, found.start()):  # "…, update CLAUDE.md with that convention"
                return False
            rest = without_request(sentence, found)
            return bool(rest) and not _POINTER.match(rest)
    return False


def asked_as_question(text: str) -> bool:
    """The request is a question ("should CLAUDE.md say that?"): only a reply that agrees makes it one."""
    return _SHOULD_SAY.search(mask_keep_code(text)) is not None


@lru_cache(maxsize=1024)  # the same turn comes back in every session resumed from it
def rule_sentence(text: str) -> str:
    """The sentence of a turn that states a rule, as an instruction ("" when none does)."""
    best = ""
    clauses = rule_clauses(text)
    ranked = [c for c in clauses if features(c)] + [c for c in clauses if not features(c)]
    for sentence in ranked:
        if (
            not sentence
            or features(sentence) == 0
            and not (_has_directive(sentence.lower()) or _IMPERATIVE_START.match(imperative(sentence)))
        ):
            continue
        if sentence.rstrip().endswith(("?", "？")) and not _GENERAL.search(sentence):
            continue
        if HEDGE.search(sentence):  # "I think we should …": a proposal, not yet a rule - and the turn's rule
            return ""
        best = accusation_rule(sentence) or imperative(_drop_question_tail(sentence))
        if best:
            break
    return best


def mask_keep_code(text: str) -> str:
    """The prose of a turn: fenced blocks, quoted lines and what follows "… says:" dropped (someone else's
    words), inline code kept."""
    text = re.sub(r"```.*?(?:```|\Z)", " ", text, flags=re.DOTALL)
    text = re.sub(r"\b(?:says|said|reads|states|writes):.*$", " ", text, flags=re.MULTILINE | re.IGNORECASE)
    return re.sub(r"^\s*>.*$", " ", text, flags=re.MULTILINE)


def _drop_question_tail(sentence: str) -> str:
    return re.sub(
        r"[,\s]*(?:any reason not to\b[^?]*|is that ok|do you agree|what do you think|thoughts|agreed|correct|"
        r"right|ok|make sense)\s*\?+\s*$",
        "",
        sentence,
        flags=re.IGNORECASE,
    )


def accusation_rule(sentence: str) -> str:
    """ "You always make the mistake of not passing `--path .`" -> "Always pass `--path .`"."""
    match = re.search(r"\byou (?:always|keep) (?:make the mistake of|forget(?:ting)?(?: to)?) (not )?(\w+) (.+)",
                      sentence, re.IGNORECASE)  # fmt: skip
    if not match:
        return ""
    verb = _GERUND.get(match[2].lower(), match[2].lower() if not match[2].endswith("ing") else "")
    if not verb:
        return ""
    rest = match[3].split(". ")[0].rstrip(" .")
    return f"Always {verb} {rest}" if match[1] or "forget" in match[0].lower() else f"Never {verb} {rest}"


def is_accusation(text: str) -> bool:
    head = text[:FEATURE_SPAN]
    return ("you" in head.lower() or "why" in head.lower()) and bool(_ACCUSATION.search(head))


def redo_principle(before: ToolUse | None, after: ToolUse | None, said: str) -> str:
    """When the user's words made the assistant swap one program for the one they named:
    "Use `b` instead of `a`"."""
    if before is None or after is None or before.name != after.name:
        return ""
    new_program = program_of(tool_command(after))
    if (
        not new_program
        or new_program == program_of(tool_command(before))
        or new_program.lower() not in said.lower()
    ):
        return ""
    old, new = command_head(tool_command(before)), command_head(tool_command(after))
    if not old or not new or old == new or old.split()[0] == new.split()[0]:
        return ""
    if (
        old.split()[1:] != new.split()[1:]
    ):  # `cargo test` -> `tspec test` swaps the tool; `rm` -> `x clean` does not
        return ""
    if new.split()[0].lower() not in said.lower():
        return ""
    return f"Use `{new}` instead of `{old}`"


_HERE = lazy(
    r"\b(?:in this (?:repo|repository|project)|here|in here)\b|тут|здесь|这里|这个项目|\bburada\b", re.I
)


def redirect_principle(turn: Turn) -> str:
    """What the user typed after stopping the assistant, when its next call swaps the program for the
    command they named and they said it holds (the old program named, "always", "in this repo"):
    "Use `uv sync` instead of `pip install`"."""
    before, after = turn.use, turn.redo
    if not turn.intervenes or before is None or after is None or before.name != after.name:
        return ""
    old, new = command_head(tool_command(before)), command_head(tool_command(after))
    if not old or not new or old.split()[0] == new.split()[0]:
        return ""
    said = turn.text.lower()
    if new.lower() not in said or _LORDER.search(said):  # "run `git status` first": an order, no swap
        return ""
    rest = said.replace(new.lower(), " ")  # the old program named outside the new command, code or not
    named_old = re.search(rf"(?<![\w-]){re.escape(old.split()[0].lower())}(?![\w])", rest)
    if not (named_old or _GENERAL.search(said) or _LGENERALIZER.search(said) or _HERE.search(said)):
        return ""
    return f"Use `{new}` instead of `{old}`"


def concession_principle(turn: Turn) -> str:
    """A terse remark or a question ("did you just hand-edit the lockfile?") that the reply concedes
    and answers with a rule that holds beyond the moment ("My mistake — the lockfile should only ever
    change through `poetry lock`"): that rule, as an instruction; "" otherwise."""
    said = lasting_rule(turn.reply)  # "" unless the reply concedes: most replies end it here
    if not said or not_yet_a_rule(turn) or _PRODUCT.search(turn.text):
        return ""
    if agrees_with_a_question(turn.text, said):
        return ""
    return imperative(said, speaker="assistant")


def carried(turn: Turn) -> bool:
    """A turn no phrase marked stands only when the dialogue says so: the reply concedes or promises,
    or the user states it as information for the assistant, or lays out a procedure step by step that
    the reply acknowledges."""
    if not turn.soft:
        return True
    laid_out = bool(workflow_rule(turn.text)) and turn.reply.strength >= 1  # a procedure, acknowledged
    if not (laid_out or turn.reply.strength == 2 or turn.reply.commitment or _INFORMS.match(turn.text)):
        return False
    return not _PRODUCT.search(turn.text)  # how the program should behave is a feature request, not a rule


_CONVENTION_NOW = lazy(
    r"\b(?:convention|rule|workflow|policy)\s+is(?:\s+now)?\s*:\s*(?P<rule>[^\n]{8,240})", re.IGNORECASE
)


def memory_object(turn: Turn) -> str:
    """What a request to write into memory refers to: said in the turn itself, restated by the reply,
    said by the user just before, or what the assistant had just confirmed."""
    asked = _SHOULD_SAY.search(mask_keep_code(turn.text))
    said = next((g for g in asked.groups() if g is not None), "") if asked else ""
    if asked and not _POINTER.match(said):  # "should CLAUDE.md say that X?": X, when X is a rule
        own = rule_sentence(said.strip(" ,:;：，；"))
        return third_person(own) if own else ""
    own = "" if asked else rule_sentence(turn.text)
    if own:
        return third_person(own)
    if not asked and _says_its_own_object(turn.text):  # "note in CLAUDE.md that the server is down today"
        return ""
    turn.points_back = True  # the object was said before this turn: the user's previous turn taught it too
    confirmed = _CONVENTION_NOW.search(turn.reply_text[:600])
    if confirmed:
        return imperative(sentences(confirmed["rule"])[0], speaker="assistant")
    if turn.reply.restatement:
        return imperative(turn.reply.restatement, speaker="assistant")
    previous_reply, previous_user = (turn.before + ["", ""])[:2]
    if previous_user and features(previous_user):
        said = rule_sentence(previous_user)
        if said:
            return third_person(said)
    head = read_reply_head(previous_reply)
    return imperative(head, speaker="assistant") if head else ""


_PLAIN_YES = lazy(
    r"^\s*(?:(?:yes|yep|right|exactly|correct|да|верно|именно|evet|doğru|aynen)\b|是的|对|没错)"
    r"[\s,.!:—–，。！：-]+(?P<rest>.+)",
    re.I | re.S,
)


def read_reply_head(text: str) -> str:
    """The first sentence of an assistant answer that opened with a plain yes ("Yes — X does Y.")."""
    match = _PLAIN_YES.match(text)
    if not match:
        return ""
    first = sentences(match["rest"].split("\n\n", 1)[0])
    return first[0] if first and len(first[0]) <= 200 and not first[0].endswith("?") else ""


# The assistant says it, not the user, had it wrong: "I was sloppy", "my mistake", "я ошибся", "是我的错".
_OWNS_ERROR = lazy(
    r"\b(?:i was (?:wrong|sloppy|mistaken|careless|confused)|i got (?:that|it|this) wrong|my (?:mistake|bad)|"
    r"i misspoke|i (?:mis)?stated (?:that|it) wrong(?:ly)?)\b|я (?:ошиб\w+|был неправ\w*|напутал\w*)|моя ошибка|"
    r"是我(?:的错|错了|搞错了|弄错了)|我(?:错了|搞错了|弄错了)|\b(?:hata bende|yanıldım|yanlış söyledim|hatalıydım)\b",
    re.IGNORECASE,
)


def not_yet_a_rule(turn: Turn) -> bool:
    """The user doubts what they said ("… But maybe I misunderstand") and the reply does not settle
    the doubt by owning the error ("You're right, I was sloppy"), or reports a slip of this time
    ("Whoops, we need to update todo.md") without saying it holds beyond it."""
    prose = mask_code(turn.text)
    if DOUBT.search(prose):
        return not (turn.reply.strength == 2 and _OWNS_ERROR.search(turn.reply_text[:300]))
    return bool(
        INCIDENT.match(prose) and not turn.reply.commitment and not _LGENERALIZER.search(prose.lower())
    )


def judge(turn: Turn) -> tuple[str, int]:
    """(principle, score) once the reply is known; an empty principle means no signal."""
    principle, score = _judge(turn)
    if (principle and score >= THRESHOLD) or turn.memory:
        return principle, score
    said = restated_practice(turn.text, turn.before[0] if turn.before else "", turn.reply)
    if not said or not_yet_a_rule(turn) or _PRODUCT.search(turn.text):
        return principle, score
    turn.kind, turn.use = "preference", None  # the assistant's words state it: about what they name
    return said, THRESHOLD


def _judge(turn: Turn) -> tuple[str, int]:
    if turn.terse:
        said = concession_principle(turn)
        return (said, THRESHOLD) if said else ("", 0)
    score = turn.score + turn.reply.strength + turn.reply.commitment + (turn.redo is not None)
    if (
        turn.memory and turn.score < THRESHOLD
    ):  # "should CLAUDE.md say that?": only the reply's yes makes it one
        agrees = turn.reply.strength or turn.reply.commitment or _AGREES.match(turn.reply_text)
        score = THRESHOLD if agrees else 0
    if score < THRESHOLD or not carried(turn):
        swap = redirect_principle(turn) if turn.soft else ""
        return (swap, THRESHOLD) if swap else ("", score)
    if turn.memory:
        turn.kind = "remember"  # asked to be written down: explicit, whatever the turn looked like
        return memory_object(turn), score
    if not_yet_a_rule(turn):
        return "", score
    restated = imperative(turn.reply.restatement, speaker="assistant") if turn.reply.restatement else ""
    principle = third_person(turn.principle or workflow_rule(turn.text) or rule_sentence(turn.text))
    if turn.reply.commitment and restated and (turn.kind == "remember" or not principle):
        principle = restated  # "I'll remind you to amend .claude/ after each commit" beats "remind me"
    elif not principle and restated and turn.reply.strength == 2 and not turn.soft:
        principle = restated  # the user objected without saying the rule; the concession says it
    swap = redo_principle(turn.use, turn.redo, turn.text)
    if swap and (not principle or len(principle.split()) <= 3):
        principle = swap
    if not principle and turn.kind in ("correction", "rejection"):
        principle = third_person(directive_principle(turn.text))
    return principle, score
