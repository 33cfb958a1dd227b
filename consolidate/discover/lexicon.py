"""Phrases that mark a user's correction, remember request or decision, in English, Russian, Chinese
and Turkish - and the look-alikes that do not ("no problem", "what's wrong?", "do you remember").

Patterns run on lower-cased text with code masked out (see `text.mask_code`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lazyre import lazy

_PARTS: dict[str, tuple[str, ...]] = {}  # the parts of each rule `_any` made, by its source


def _any(*patterns: str) -> re.Pattern[str]:
    source = "|".join(f"(?:{p})" for p in patterns)
    _PARTS[source] = patterns
    return lazy(source, re.IGNORECASE)


def finder(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """Whether a text already lower-cased holds a match of a rule `_any` made: the answer of
    `lowered(pattern).search` as a yes or no, each part of the rule searched on its own, and only in a
    text holding one of the literals every match of that part holds (see `lazyre`). The whole rule
    tries every part at every position of a text, most of them parts the text cannot match (another
    language's, a phrase it does not use): for a rule tried on most turns and long ones, a few
    substring tests instead."""
    parts = tuple(lazy(part, prefilter=True) for part in _PARTS[pattern.pattern])

    def found(text: str) -> bool:
        for part in parts:  # noqa: SIM110 - a plain loop: no generator for a call made on every turn
            if part.search(text) is not None:
                return True
        return False

    return found


# --- corrections: the user says what the assistant just did is not what they want ---------------
CORRECTION_LEAD = _any(
    # en: "no, ...", "nope", "wrong", "that's not right"
    r"^\s*(?:no|nope|nah)\b(?!\s*[-,]?\s*(?:problem|worries|worry|thanks|thank|rush|need|big deal|issue|idea|"
    r"clue|matter|doubt|longer|more|one|way|wonder|kidding)\b)(?=\s*[,.!:;—-]|\s+(?:use|do|don|it|that|this|"
    r"the|we|you|i|not|just|run|put|keep|please|wrong|instead|stop|never|leave|revert)\b)",
    r"^\s*wrong\b",
    # ru: "нет, ...", "неправильно", "не так", "не то"
    r"^\s*нет(?:\s*[,.!:;—-])",
    r"^\s*(?:неправильно|неверно|не так|не то|ошибка)\b",
    # zh
    r"^\s*(?:不对|不是|错了|不行|别这样|不要这样)",
    # tr
    r"^\s*(?:hayır|yanlış|olmaz|öyle değil|böyle değil)\b",
)
CORRECTION_CUE = _any(
    # en
    r"\b(?:that'?s|that is|this is|it'?s|you'?re|you are)\s+(?:wrong|incorrect|not right|not correct|not what i)",
    r"\bnot like (?:that|this)\b",
    r"\bwrong (?:file|command|branch|approach|way|dir|directory|path|place|one|flag|option|tool|version|name)\b",
    r"\bi (?:already |just )?(?:said|told you|asked(?: you)?|meant)\b(?! (?:about|that you))",
    r"(?:^|[.!;:,—-]\s*)(?:please )?(?:don'?t|do not|never|stop|always)\s+\w+",
    r"^\s*[\w`./-]+(?:\s+[\w`./-]+)?,\s*not\s+[\w`./-]+",
    r"\b(?:don'?t|do not|never|stop|quit) (?:ever )?(?:do|use|run|add|put|create|touch|change|modify|edit|commit|"
    r"push|write|call|import|delete|remove|rename|mock|skip|install|amend|force|include|mention|reformat|guess)\w*\b",
    r"\b(?:use|run|call|prefer)\b[^.\n]{1,60}?\b(?:instead of|rather than|not)\b",
    r"\b(?:you )?should (?:always|never)\b",
    # ru
    r"не надо|не нужно|неправильно|неверно|я же (?:говорил|сказал|просил)|я (?:же )?(?:говорил|сказал|просил),?\s+(?:что|не|использ)",
    r"\bвместо\b|\bне (?:используй|делай|запускай|трогай|меняй|добавляй|пиши|удаляй|коммить|пуш)\w*|\bникогда не\b",
    r"\b(?:хватит|перестань)\b",
    # zh
    r"不对|错了|不是这样|不要|别再|别用|我(?:已经)?说过|我不是说|应该(?:用|是|使用)|而不是|换成|改成|不应该",
    # tr
    r"\byanlış\b|\böyle değil\b|\bböyle değil\b|\b(?:demiştim|söylemiştim|dedim ki)\b|\byerine\b",
    r"\b(?:kullanma|yapma|çalıştırma|ekleme|silme|değiştirme|dokunma|yazma|commitleme)\b|\basla\b",
)
# Look-alikes: acknowledgements, reassurance, questions about a failure, fixed expressions.
CORRECTION_NOISE = _any(
    r"\bno (?:problem|worries|worry|thanks|big deal|rush|need to apologi[sz]e)\b",
    r"\b(?:went|goes|go|going) wrong\b|\bwrong with\b|\b(?:anything|something|nothing|what'?s|what is) wrong\b",
    r"\bcan'?t go wrong\b|\bwrong (?:turn|number)\b",
    r"нет проблем|ничего страшного|не за что|не надо извиняться|не стоит благодарности",
    r"没问题|没关系|不客气|不错|不用谢|不要紧",
    r"\bsorun (?:yok|değil)\b|\bproblem (?:yok|değil)\b|\bönemli değil\b|\bsorun değil\b|\bteşekkür",
)

# A message that thinks aloud or asks for an opinion is a discussion, not a correction.
DISCUSSION = _any(
    r"\b(?:what (?:would|do) you (?:suggest|think)|thoughts|wdyt|any (?:ideas|suggestions)|make sense|agree\?|"
    r"maybe|perhaps|i'?m not sure|i wonder|i think|i guess|i feel|it seems|seems to me|probably|might)\b",
    r"\b(?:может быть|наверное|возможно|мне кажется|я думаю|как думаешь|что скажешь)\b",
    r"也许|可能|我觉得|你觉得|怎么样",
    r"\b(?:belki|sanırım|bence|galiba|ne düşünüyorsun)\b",
)

# --- the verbs rules are made of, in their base form (a typo of one is mended, `spelling`; a line's act
# is one, `grammar.verb`) ---------------------------------------------------------------------------
RULE_VERBS = (
    "update", "remove", "include", "create", "save", "record", "bump", "commit", "install", "run", "use",
    "add", "write", "keep", "start", "stop", "wait", "check", "ask", "mention", "review", "amend", "push",
    "merge", "tag", "test", "verify", "document", "pass", "omit", "remind", "follow", "avoid", "make",
    "name", "place", "move", "build", "fix", "change", "edit", "read", "open", "close", "delete", "rename",
    "set", "get", "show", "print", "branch",
)  # fmt: skip

# --- what to do instead: a correction without one names no principle ---------------------------
DIRECTIVE = _any(
    r"\b(?:use|run|call|put|keep|add|write|prefer|always|never|don'?t|do not|should|must|instead|rather than|"
    r"make sure|need to|needs to|has to|have to|avoid|stick (?:to|with)|switch to|only|leave|move|name|place)\b",
    r"\b(?:используй|используйте|использовать|запускай|пиши|делай|добавляй|оставь|клади|всегда|никогда|надо|"
    r"нужно|должен|должна|должны|следует|вместо|лучше|только|не)\b",
    r"用|使用|应该|要|总是|永远|必须|只|而不是|改成|换成|请|不要|别",
    r"\b(?:kullan\w*|çalıştır\w*|yaz\w*|yap\w*|ekle\w*|koy\w*|bırak\w*|her zaman|asla|yerine|gerek\w*|lazım|"
    r"sadece|tercih\w*)\b|\b\w+(?:malı|meli|malısın|melisin)\b",
)
# A principle holds beyond this one moment.
GENERALIZER = _any(
    r"(?:^|[.!;:,]\s*|\b(?:please|should|must|you|we|and|but|i)\s+)never\b",
    r"\b(?:don'?t|do not)\b[^.\n]*,\s*ever\b|\bnever ever\b",
    r"\b(?:always|every ?time|whenever|from now on|going forward|in (?:the )?future|by default|as much as "
    r"possible|each time|in general|all (?:the )?time|any time)\b",
    r"\b(?:всегда|никогда|каждый раз|впредь|с этого момента|в будущем|по умолчанию|везде)\b",
    r"总是|永远|每次|以后|今后|从现在开始|默认|一律|始终|统一",
    r"\b(?:her zaman|asla|hiçbir zaman|her seferinde|bundan sonra|ileride|varsayılan olarak)\b|\bher \w+ (?:öncesi|sonrası|için)\b",
)

# --- explicit "remember this" requests --------------------------------------------------------
REMEMBER = _any(
    r"\b(?:please )?remember (?:that|to|this|:|,|—|-)",
    r"^\s*remember\b(?! when)",
    r"\bkeep in mind\b|\bdon'?t forget (?:that|to)\b|\bfor future reference\b|\bmake a note\b",
    r"\bfrom now on\b|\bgoing forward\b|\bnote for (?:the )?future\b",
    r"\bremind me (?:every|each|whenever|always|after|before|at every|on every)\b",
    r"\bзапомни(?:те)?\b|\bне (?:забывай(?:те)?|забудь(?:те)?)\b|\bимей(?:те)? в виду\b|\bучти(?:те)?,? что\b",
    r"\bвпредь\b|\bс этого момента\b|\bна будущее\b|\bнапоминай\b",
    r"请记住|记住|记得|别忘了|不要忘记|以后(?:都|请|要|不要|别|一律)|今后|从现在开始|从今以后",
    r"\bunutma(?:yın)?\b|\baklında (?:tut|bulunsun)\w*|\bhatırla(?:yın)?\b|\bbundan sonra\b|\bnot al\b",
)
REMEMBER_NOISE = _any(
    r"\bdo you remember\b|\bi (?:don'?t |can'?t )?remember\b|\bif i remember\b|\bremember when\b|\bremind me\b"
    r"(?! (?:every|each|whenever|always|after|before|at every|on every))|\bremember\?",
    r"\bremember (?:that|this|it)\s*(?:[,.!;]|$)",
    r"\bпомнишь\b|\bнапомни\b(?!ай)|\bне помню\b|\bзапомни (?:это|то)\s*(?:[,.!;]|$)",
    r"你还记得|记得吗|你记得|我记得|提醒我(?!每)|记住(?:这个|这一点)?\s*[。！!]?$",
    r"\bhatırlıyor mu\w*|\bhatırlat\w*|\bhatırlamıyorum\b",
)
# The request text, with the cue itself cut away (see `candidates`).
REMEMBER_STRIP = _any(
    r"^\s*(?:please\s+)?(?:remember|keep in mind|don'?t forget|note for (?:the )?future|for future reference|"
    r"make a note|from now on|going forward)\s*(?:that\b|to\b|:|,|—|-)?\s*",
    r"^\s*(?:запомни(?:те)?|не (?:забывай(?:те)?|забудь(?:те)?)|имей(?:те)? в виду|учти(?:те)?|впредь|"
    r"с этого момента|на будущее)\s*(?:,?\s*что\b|:|,|—|-)?\s*",
    r"^\s*(?:请记住|记住|记得|别忘了|不要忘记|从现在开始|从今以后|今后)\s*[:：,，]?\s*",
    r"^\s*(?:bundan sonra|unutma|hatırla)\s*[:,]?\s*",
    r"\s*[,;]?\s*(?:bunu )?(?:unutma(?:yın)?|aklında tut\w*|hatırla(?:yın)?|not al)\s*[.!]*\s*$",
)

# --- decisions with a reason ----------------------------------------------------------------
DECISION = _any(
    r"\blet'?s (?:use|go with|switch to|stick (?:with|to)|keep|choose|pick|adopt|move to|prefer|standardi[sz]e on)\b",
    r"\bwe(?:'ve| have)? (?:decided|agreed|chose|settled on)\b|\bwe(?:'ll| will| should) (?:use|go with)\b",
    r"\bi(?:'ve| have)? (?:decided|dicided)\b|\bdecision:|\bwe(?:'re| are) going (?:with|to use)\b",
    r"\bwe (?:went|go) with\b|\bwe (?:picked|settled|opted for|standardi[sz]ed on)\b|\bgoing with\b[^.\n]{1,60}\b(?:because|since)\b",
    r"\bдавай(?:те)? (?:использовать|используем|возьм\w*|оставим|перейд\w*|выбер\w*|остановимся)\b",
    r"\b(?:мы )?(?:решили|договорились|выбрали|остановились на)\b|\bбудем использовать\b",
    r"我们决定|决定(?:用|使用|采用)|改用|就用|统一用|采用|选择了?用",
    r"\b\w+(?:alım|elim)\b|\bkarar verdik\b|\b(?:seçtik|seçelim|tercih ettik|tercih edelim|geçelim)\b",
    # the same choice in other words: a preference for the team, a final call, a settled choice
    r"\b(?:i'?d rather|i prefer|we prefer) (?:we |to )?(?:use|stick (?:with|to)|go with|keep)\b|"
    r"\bwe(?:'ll| will)? stick (?:with|to)\b|\bfinal (?:call|answer|decision)\b",
    r"\bостановимся на\b|\bостанавливаемся на\b|\bрешено\b",
    r"就这么定了|就定了|定下来|敲定",
    r"\bkarar (?:kıldık|kılalım|verelim|verildi)\b|\bkarar kıl\w*",
)
REASON = _any(
    r"\b(?:because|since|as it|as they|so that|so we|given that|due to|otherwise|to avoid|the reason)\b",
    r"\b(?:потому что|так как|поскольку|чтобы|из-за|иначе)\b",
    r"因为|由于|为了|以便|否则|以免",
    r"\b(?:çünkü|zira|dolayı|yoksa|böylece|sayesinde)\b|\biçin\b",
)

# --- transient state and generic advice: not worth remembering --------------------------------
TRANSIENT = _any(
    r"\b(?:for now|right now|at the moment|atm|currently|today|tonight|this time|temporarily|for the moment|"
    r"for this (?:pr|commit|task|session|release|one)|just this once|yet|(?:one|a|small|minor) tweak)\b|"
    r"\bnow\s*[.!]*$",
    r"\b(?:сейчас|пока что|на сегодня|в этот раз|сегодня|временно)\b",
    r"目前|暂时|现在先|这次|今天|临时",
    r"\b(?:şimdilik|şu an|bu sefer|bugün|geçici olarak)\b",
)
GENERIC = _any(
    r"\b(?:write|add) (?:more |some |unit )?tests\b|\bhandle (?:the )?errors\b|\bbest practices?\b|\bclean code\b",
    r"\bbe (?:more )?careful\b|\bdouble[- ]check\b|\bcheck your work\b|\bpay attention\b|\bthink (?:it )?through\b",
    r"\bread (?:the|a) file before (?:editing|writing)\b|\bmake sure (?:it|everything) works\b|\bkeep it simple\b",
    r"\bfollow (?:the )?(?:conventions|style guide)\b|\btest your changes\b|\bdon'?t break (?:anything|things)\b",
    r"\bбудь (?:внимательнее|аккуратнее)\b|\bпиши тесты\b|\b(?:проверяй|перепроверь) (?:всё|все|работу)\b",
    r"小心(?:一点|点)|仔细检查|写测试|注意细节",
    r"\bdikkatli ol\b|\btest yaz\b|\bkontrol et\b",
)
# --- layer hints -----------------------------------------------------------------------------
BEHAVIOUR = _any(
    r"\b(?:answer|respond|reply|write|talk|speak|communicate)\w*\b[^.\n]{0,30}\b(?:in|using) (?:russian|english|"
    r"chinese|turkish|german|french|spanish|japanese|[a-z]+ish)\b",
    r"^(?:please )?(?:always )?be (?:more )?(?:concise|brief|terse)\b|\bno emojis?\b|(?:don'?t|do not|never) use "
    r"emojis?|\b(?:answers?|responses?|replies|reply|respond)\b[^.\n]{0,30}\b(?:concise|brief|terse|shorter)\b|"
    r"\byour tone\b",
    r"\b(?:отвечай|отвечайте|отвечать|пиши|пишите|писать|говори|общайся)\b[^.\n]{0,20}\b(?:по-\w+|на (?:русском|английском|"
    r"китайском|турецком))|\bбез эмодзи\b|\bкороче\b",
    r"用(?:中文|英文|英语|俄语|土耳其语)(?:回答|回复|交流|写)|回答(?:要)?简洁|不要(?:用)?表情",
    r"\b(?:türkçe|ingilizce|rusça|çince)\s+(?:cevap|yanıt|konuş|yaz)\w*|\bemoji kullanma\b",
)
CONVENTION = _any(
    r"\bcommit (?:message|subject|body)s?\b|\bcommits?\b|\bbranch(?:es)?\b|\bnaming\b|\bconvention\b|"
    r"\bin this (?:project|repo|repository|codebase)\b|\bcode style\b|\bchangelog\b|\bversion bump\b",
    r"\bкоммит\w*|\bветк\w*|\bв этом (?:проекте|репозитории)\b|\bсоглашени\w*|\bименовани\w*",
    r"提交信息|提交|分支|这个项目|命名|代码风格",
    r"\bcommit mesaj\w*|\bdal\w*\b|\bbu projede\b|\bisimlendirme\b|\bkod stili\b",
)
NEGATION = _any(
    r"\b(?:not|never|don'?t|do not|no longer|instead of|rather than|avoid|without|stop using)\b",
    r"\b(?:не|никогда|вместо|без)\b",
    r"不要|不用|别|而不是|不|避免",
    r"\b(?:değil|asla|yerine|olmadan|kullanma|yapma|çalıştırma|ekleme|silme|değiştirme)\b",
)

# --- cheap gates: a pattern above can only match when one of its keys is in the lower-cased text -----
REMEMBER_KEYS = (
    "remember", "keep in mind", "forget", "future", "from now on", "going forward", "make a note", "remind me",
    "запомн", "забы", "забуд", "в виду", "учти", "впредь", "с этого момента", "на будущее", "напоминай",
    "记", "忘", "以后", "今后", "从现在", "从今", "unutma", "aklında", "aklinda", "hatırla", "hatirla",
    "bundan sonra", "not al",
)  # fmt: skip
DECISION_KEYS = (
    "let", "decid", "dicid", "agreed", "chose", "settled", "we'll", "we will", "we should", "going with",
    "went with", "go with", "picked", "opted", "standardi",
    "going to use", "decision", "давай", "реши", "договор", "выбра", "останов", "будем",
    "决定", "改用", "就用", "统一用", "采用", "选择", "alım", "alim", "elim", "karar", "seçtik", "sectik",
    "seçelim", "secelim", "tercih", "geçelim", "gecelim",
    "rather", "prefer", "stick", "final", "останав", "решено", "定", "敲定",
)  # fmt: skip
CORRECTION_KEYS = (
    "wrong", "incorrect", "not right", "not correct", "not what", "not like", "said", "told", "asked", "meant",
    "don", "do not", "never", "stop", "quit", "always", " not ", ", not", "instead", "rather", "should",
    "надо", "нужно", "неправ", "неверн", "говорил", "сказал", "просил", "вместо", "не ", "никогда", "хватит",
    "перестань", "не так", "不", "错", "别", "说过", "应该", "而不是", "换成", "改成",
    "yanlış", "yanlis", "değil", "degil", "demiştim", "demistim", "söylemiştim", "soylemistim", "dedim",
    "yerine", "kullanma", "yapma", "çalıştırma", "calistirma", "ekleme", "silme", "değiştirme", "degistirme",
    "dokunma", "yazma", "commitleme", "asla",
)  # fmt: skip


def lowered(pattern: re.Pattern[str], *, prefilter: bool | None = None) -> re.Pattern[str]:
    """The pattern for text already lower-cased: the same, without the case folding that halves its speed
    (no pattern here spells an upper-case letter). With `prefilter` (by default for those of
    `PREFILTERED`), it runs only on a text holding one of the literals every match of it holds (see
    `lazyre`): worth it where most texts it is tried on hold none, as working them out costs about
    what compiling the pattern does."""
    twin = _LOWERED.get(pattern.pattern)
    if twin is None:
        twin = _LOWERED[pattern.pattern] = lazy(pattern.pattern)
    if prefilter or prefilter is None and any(pattern is p for p in PREFILTERED):
        twin._prefilter = True  # type: ignore[attr-defined]  # read when it is first compiled
    return twin


_LOWERED: dict[str, re.Pattern[str]] = {}
# Tried on most typed turns, and matched by few: measured on real sessions, each saves several times
# what working out its literals costs.
PREFILTERED = (CORRECTION_CUE, DECISION, GENERALIZER, GENERIC, TRANSIENT, BEHAVIOUR)


def has_any(text: str, keys: tuple[str, ...]) -> bool:
    """Whether any key occurs in the text (a fast pre-check before the slower patterns)."""
    for key in keys:  # noqa: SIM110 - a plain loop is measurably faster here than any() over a generator
        if key in text:
            return True
    return False
