"""Lessons the assistant's words carry: a turn that only points at them, and the reply that restates them.

In real sessions many rules are never typed by the user as rules. The user hedges ("maybe we should
keep the changelog newest first?"), asks about what the assistant did ("did you run the linter
first?"), picks one of the options the assistant listed ("2"), or says "yes, add it" to a rule the
assistant proposed — and the rule is in the assistant's words: its restatement ("You're right —
changelog entries always go newest first"), the chosen option's text, the proposal. Each shape gives
a rule only when those words state a standing practice (always, every, a convention, a workflow
step): most picks and most "yes"es settle something for this change alone, and give nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lazyre import lazy
from .acks import _CONSEQUENCE, Reply, agrees_with_a_question, lasting_rule
from .quality import HEDGE
from .rewrite import imperative
from .text import mask_code, sentences

PICK_LIMIT = 60  # a pick or a "yes" is a few words; anything longer says more than the choice
OPTION_LIMIT = 200  # an option that needs more words is a plan, not a rule

# A lasting practice: a word that says it holds from now on, or "every"/"each" of something that comes
# back (a commit, a release, a new endpoint) — "every call site needs the new argument" is this change.
_STANDING = lazy(
    r"\b(?:always|never|whenever|from now on|going forward|by default|as a rule|convention|every ?time|each time)\b|"
    r"\b(?:every|each|any)\s+(?:\w+\s+){0,2}?(?:new\b|commits?\b|releases?\b|prs?\b|pull requests?\b|push\w*|"
    r"merg\w*|deploy\w*|tags?\b|migrations?\b|sessions?\b|changes?\b|fix(?:es)?\b|features?\b|branch\w*|"
    r"versions?\b|upgrades?\b|steps?\b)|"
    r"всегда|никогда|каждый раз|впредь|по умолчанию|"
    r"кажд\w+\s+(?:раз|коммит|релиз|изменени|пуш|деплой|слияни|мерж|pr\b|сборк|миграци|нов)\w*|"
    r"总是|永远|每次|以后|今后|一律|始终|"
    r"\b(?:her zaman|asla|hiçbir zaman|her seferinde|bundan sonra)\b|"
    r"\bher\s+(?:değişiklik|commit|sürüm|pr\b|release|merge|push|yeni|dağıtım|migration)\w*",
    re.IGNORECASE,
)
# What only tells when the practice starts or why: the rule reads the same without it.
_SINCE_NOW = lazy(
    r"\s*,?\s*\b(?:from now on|going forward|from here on)\b,?|\s*(?:с этого момента|впредь),?", re.IGNORECASE
)

# --- the user picks one of the numbered options the assistant offered ------------------------------
_PICK = lazy(
    r"^\W*(?:(?:ok(?:ay)?|yes|yeah|sure|then|so)[,\s]+)?(?:let'?s\s+(?:do|go with|take)\s+|go with\s+|"
    r"i'?(?:d|ll) (?:go with|take|pick)\s+|pick\s+|take\s+)?(?:(?:option|choice|number|no\.?|#)\s*)?"
    r"(?P<n>[1-9])(?:\s*(?:st|nd|rd|th))?(?:\s+(?:one|option))?(?:[\s,]+(?:please|it is|then|sounds good|"
    r"looks good|is good|is better|is fine))?\W*$|"
    r"^\W*(?:(?:давай(?:те)?|беру|выбираю|хорошо,?)\s+)?(?:вариант\s*(?:№\s*)?)?(?P<ru>[1-9])(?:-?й)?"
    r"(?:\s+вариант)?\W*$|"
    r"^\W*(?:(?:давай(?:те)?|беру|выбираю)\s+)?(?P<ruw>перв|втор|трет)\w*(?:\s+вариант)?\W*$|"
    r"^\W*(?:我)?(?:选|要|用)?(?:第|方案|选项)?\s*(?P<zh>[1-9一二三])\s*(?:个|号|种)?(?:方案|选项)?\W*$|"
    r"^\W*(?P<tr>[1-9])\s*\.?\s*(?:seçenek|seçeneği|yol|olsun|numara)\w*\W*$|"
    r"^\W*(?P<trw>birinci|ikinci|üçüncü)\w*(?:\s+seçenek\w*)?\W*$",
    re.IGNORECASE,
)
_WORD_NUMBER = {
    "перв": 1,
    "втор": 2,
    "трет": 3,
    "一": 1,
    "二": 2,
    "三": 3,
    "birinci": 1,
    "ikinci": 2,
    "üçüncü": 3,
}
# "2. Run X", "**2.** Run X", "### Option 2: Run X", "**Вариант 2** — …", "方案2：…", "2) …"
_OPTION = lazy(
    r"^\s{0,3}(?:#{1,4}\s*)?(?:\*\*)?(?:(?:option|вариант|方案|选项|seçenek)\s*)?(?P<n>[1-9])\s*(?:\*\*)?\s*"
    r"(?:[.):：—–]|\s-)(?:\*\*)?\s*(?P<text>\S[^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)


def picked_number(text: str) -> int:
    """2 for "2", "option 2", "let's do option 2", "вариант 2", "второй", "选2", "2. seçenek"; 0 otherwise."""
    text = text.strip()
    if len(text) > PICK_LIMIT:
        return 0
    match = _PICK.match(text)
    if not match:
        return 0
    for name in ("n", "ru", "zh", "tr"):
        if match[name] and match[name].isdigit():
            return int(match[name])
    word = match["ruw"] or match["zh"] or match["trw"] or ""
    return _WORD_NUMBER.get(word.lower(), 0)


def chosen_option(before: str, number: int) -> str:
    """The text of option `number` in the assistant's numbered list (one list of two or more items)."""
    prose = re.sub(r"```.*?(?:```|\Z)", " ", before, flags=re.DOTALL)
    options = {int(m["n"]): m["text"].strip() for m in _OPTION.finditer(prose)}
    if len(options) < 2 or number not in options:
        return ""
    return options[number]


def option_rule(option: str) -> str:
    """The chosen option as a rule when it states a standing practice ("Run `make check` before each
    commit from now on, so this cannot slip again" -> "Run `make check` before each commit"); ""
    for an option that settles this change alone ("Inline the helper")."""
    option = re.sub(r"\*\*|__", "", option).strip()
    main = _CONSEQUENCE.split(option, maxsplit=1)[0].strip(" .;:—–-")
    if not main or len(main) > OPTION_LIMIT or main.endswith(("?", "？")) or not _STANDING.search(main):
        return ""
    return _as_rule(main)


# --- the user agrees to a rule the assistant proposed ------------------------------------------------
_ASSENT = lazy(
    r"^\W*(?:(?:yes|yeah|yep|yup|sure|ok(?:ay)?|please)\b[\s,.!]*)+(?:(?:please\s+)?(?:add|do|record|make|write)"
    r"\s+(?:it|that|this|so)|go ahead|sounds good|good idea|please)?[\s.!]*$|"
    r"^\W*(?:please\s+)?(?:add|do|record)\s+(?:it|that)(?:\s+please)?[\s.!]*$|"
    r"^\W*(?:да|ага|конечно|давай)\b[\s,.!]*(?:(?:добав|сдела|запиш|дава)\w*(?:\s+(?:это|так))?)?[\s.!]*$|"
    r"^\W*(?:好(?:的|啊|呀)?|可以|行|对|嗯)?[\s，,。！!]*(?:就这么(?:做|办|定)|加上吧?|加吧|加一条吧?|可以|好的?)?[\s。！!]*$|"
    r"^\W*(?:evet|tamam|olur)\b[\s,.!]*(?:(?:ekle|yap|öyle yap|lütfen)\w*)?[\s.!]*$",
    re.IGNORECASE,
)
# The assistant offers a rule: "Should I add a rule that …?", "Предлагаю правило: …", "要不要定个规矩：…",
# "Bir kural ekleyeyim mi: …" — the rule follows the lead, which says it holds beyond this change.
_PROPOSAL = lazy(
    r"(?:\b(?:should i|shall i|want me to|do you want me to|i (?:can|could|suggest|propose)|i'?d suggest)\s+"
    r"(?:add|make|adopt|set up|record|write down|keep)\s+(?:a |this as a |it as a )?(?:rule|convention|practice)"
    r"(?:\s+that|\s*:)|\b(?:i )?(?:suggest|propose)\s+(?:a |the )?(?:rule|convention)(?:\s+that|\s*:)|"
    r"(?:предлагаю|добавить|завести|ввести)\s+(?:такое\s+)?правило\s*[:—-]|"
    r"(?:要不要|是否|我建议|建议)(?:定|加|立|设)?(?:个|一条|一个)?(?:规矩|规则|约定)\s*[:：]|"
    r"\bbir kural (?:ekleyeyim mi|ekleyelim mi|önerebilirim|öneriyorum)\s*[:—-])\s*(?P<rule>[^\n?？]{8,200})",
    re.IGNORECASE,
)


# The assistant offers to write down what it just said ("… Want me to add that to CLAUDE.md?"), or to
# keep doing something ("Should I always squash fixups before pushing from now on?").
_OFFER_MEMORY = lazy(
    r"(?:\b(?:should i|shall i|want me to|do you want me to|i can)\s+(?:add|note|record|put|write)\s+"
    r"(?:this|that|it|the rule|this rule|that rule)\s+(?:down\s+)?(?:to|in|into)\s+(?:the\s+)?(?:claude\.md|"
    r"claude|agents\.md|memory)|(?:добавить|записать)\s+(?:это\s+)?в\s+claude|"
    r"(?:要不要|需要)?(?:把这(?:条|个|一点)?)?(?:加到|写进|记到)\s*claude|"
    r"\bclaude\.md'?(?:ye|ya)\s+(?:ekleyeyim|yazayım)\s+mi)\b[^\n]*$",
    re.IGNORECASE,
)
_OFFER_HABIT = lazy(
    r"\b(?:should i|shall i|want me to|do you want me to)\s+(?P<rule>(?:always|never)\s[^\n?]{6,160}|"
    r"[^\n?]{6,160}?\s(?:from now on|going forward|every time|each time|by default))\s*\?",
    re.IGNORECASE,
)


def proposed_rule(before: str) -> str:
    """The rule the assistant's message proposed, as a rule; "" when it proposed none, or only a step
    for this change ("Should I also rename `get_user`?")."""
    prose = before[-800:]
    proposals = list(_PROPOSAL.finditer(prose))
    found = proposals[-1] if proposals else None  # the last proposal is the one the "yes" answers
    if found is None:
        return _offered(prose)
    rule = re.sub(r"\s*(?:[.。]\s*)?(?:add it|добавить|добавлю|可以吗|好吗|ekleyeyim mi)\W*$", "", found["rule"],
                  flags=re.IGNORECASE).strip(" .。;:—–-")  # fmt: skip
    return _as_rule(rule) if rule else ""


# "Proposed addition to CLAUDE.md: - Always … Want me to add it?": the offer names no file, the message does.
_MEMORY_FILE = lazy(r"\b(?:claude|agents)\.md\b", re.IGNORECASE)
_OFFER_IT = lazy(
    r"\b(?:should i|shall i|want me to|do you want me to)\s+(?:add|apply|write|make|commit)\s+(?:it|this|that)"
    r"(?:\s+(?:change|addition|line|rule))?\s*\?\s*$|(?:добавить|добавляю|записать)\?\s*$|(?:要加上吗|加上吗|要不要加)[?？]?\s*$|"
    r"\b(?:ekleyeyim mi|ekleyelim mi)\??\s*$",
    re.IGNORECASE,
)
_SET_OUT = lazy(r"^\s{0,3}(?:[-*]|>)\s+(?P<line>[^\n]{8,200})$", re.MULTILINE)


def _offered(prose: str) -> str:
    habit = _OFFER_HABIT.search(prose)
    if habit:
        return _as_rule(habit["rule"])
    offer = _OFFER_MEMORY.search(prose) or (_OFFER_IT.search(prose) if _MEMORY_FILE.search(prose) else None)
    if not offer:
        return ""
    before = prose[: offer.start()]
    # the one line the message sets out as the rule (a bullet or a quote), else the one sentence just
    # before the offer that states a standing practice: two would be two rules, and give nothing
    set_out = [m["line"] for m in _SET_OUT.finditer(before) if _STANDING.search(m["line"])]
    said = set_out or [s for s in sentences(before.rsplit("\n\n", 1)[-1])[-3:] if _STANDING.search(s)]
    if len(said) != 1 or said[0].rstrip().endswith(("?", "？")):
        return ""
    rule = re.sub(r"^(?:one thing (?:worth|to) (?:keeping|remember(?:ing)?|note)|worth (?:noting|keeping)|"
                  r"the lesson|the rule|takeaway|note)\s*:\s*", "", said[0].strip(), flags=re.IGNORECASE)  # fmt: skip
    return _as_rule(rule)


def is_assent(text: str) -> bool:
    text = text.strip()
    return len(text) <= PICK_LIMIT and re.search(r"\w", text) is not None and bool(_ASSENT.match(text))


# --- the user hedges or asks, and the reply concedes or accepts with a rule --------------------------
_ASKS = lazy(
    r"[?？]\s*$|^\W*(?:did you|have you|didn'?t you|haven'?t you|shouldn'?t|wouldn'?t|isn'?t|aren'?t|don'?t we|"
    r"do we not)\b|\b(?:ли|разве)\b|(?:吗|吧|是不是|有没有|没有)[?？。]?\s*$|\s(?:mı|mi|mu|mü)(?:sın|sin|sun|sün|sınız|siniz|yım|yim|dır|dir)?\s*\??\s*$",
    re.IGNORECASE,
)
_BETTER = lazy(
    r"\b(?:it'?d be better|it would be better|would be (?:better|nicer|safer)|better if|we might want to)\b|"
    r"\bлучше\b|最好|更好|\bdaha iyi\b",
    re.IGNORECASE,
    prefilter=True,
)


@lru_cache(maxsize=1024)  # the same turn comes back in every session resumed from it
def points_at_practice(text: str) -> bool:
    """The user hedges or asks rather than says the rule: the reply is what states it."""
    prose = mask_code(text).strip()
    return bool(prose) and bool(HEDGE.search(prose) or _BETTER.search(prose) or _ASKS.search(prose))


def accepted_rule(reply: Reply) -> str:
    """The lasting rule a reply that concedes or accepts restates ("Good idea — from now on I'll open a
    pull request for every fix" -> "Open a pull request for every fix"); "" otherwise."""
    if reply.strength == 0 and not reply.commitment:
        return ""
    said = lasting_rule(reply, _STANDING, accepted=True)
    if not said and reply.commitment:
        said = _promise(reply.rest)
    if not said or not _STANDING.search(said):
        return ""
    return _as_rule(said, speaker="assistant")


# "以后每次发版前我都会先跑 `make e2e`" -> "以后每次发版前都先跑 `make e2e`"; "буду всегда запускать X" ->
# "всегда запускать X". Turkish first person ("-eceğim") has no plain rule form here: it gives nothing.
_PROMISE_ZH = lazy(r"我(?:都|也)?会(?:先)?")
_PROMISE_RU = lazy(r"^(?:(?:я|теперь|впредь)\s+)*буду\s+", re.IGNORECASE)


def _promise(rest: str) -> str:
    rest = re.sub(r"^[\s,.!:;—–\-，。！：；、]+", "", rest)
    first = next(iter(sentences(rest.split("\n\n", 1)[0])), "").rstrip("。.")
    if re.search(r"[\u3400-\u9fff]", first) and _PROMISE_ZH.search(first):
        return _PROMISE_ZH.sub(lambda m: "都先" if "先" in m.group(0) else "都", first, count=1).replace(
            "都都", "都"
        )
    if _PROMISE_RU.match(first):
        return _PROMISE_RU.sub("", first, count=1)
    return ""


def _as_rule(text: str, speaker: str = "assistant") -> str:
    text = _SINCE_NOW.sub("", text).strip(" ,.;:—–-")
    return imperative(text, speaker=speaker)


def restated_practice(text: str, before: str, reply: Reply) -> str:
    """The standing rule a turn points at and the assistant's words state: the chosen option of a
    numbered pick, the rule a "yes, add it" agrees to, or what the reply to a hedge or a question
    restates; "" when those words settle this change alone, or there are none."""
    if len(text.strip()) <= PICK_LIMIT:
        number = picked_number(text)
        if number:
            return option_rule(chosen_option(before, number))
        if is_assent(text):
            return proposed_rule(before)
    if reply.strength == 0 and not reply.commitment:  # most turns end here, before reading them again
        return ""
    if not points_at_practice(text):
        return ""
    rule = accepted_rule(reply)
    if rule and not reply.commitment and agrees_with_a_question(text, rule):
        return ""
    return rule
