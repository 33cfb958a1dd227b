"""How a remembered rule is filed: the command words cut away, a topic file named after its subject,
a short title, one line saying when it matters, and the memory type of the section it lands in."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from ..discover.lexicon import REMEMBER_STRIP
from ..discover.text import capitalised
from .drafts import TYPE_SECTIONS

SECTION_TYPES = {name.casefold(): kind for kind, name in TYPE_SECTIONS.items()}
SLUG_WORDS = 4
TITLE_CHARS = 50
DESCRIPTION_CHARS = 150
_POLITE = re.compile(
    r"^\s*(?:please|pls|пожалуйста|请|lütfen)\b[,\s]*|[,\s]*\b(?:please|thanks|thank you|пожалуйста|спасибо|"
    r"lütfen|teşekkürler)\b[.!\s]*$|[，,\s]*谢谢[。！!\s]*$",
    re.IGNORECASE,
)
_STOP = frozenset({
    "a", "an", "the", "to", "of", "in", "on", "at", "for", "with", "and", "or", "but", "is", "are", "was", "be",
    "been", "this", "that", "these", "those", "it", "its", "we", "our", "you", "your", "my", "i", "use", "using",
    "used", "always", "please", "should", "must", "can", "will", "would", "just", "also", "then", "when",
    "whenever", "before", "after", "if", "so", "do", "does", "via", "by", "from", "into", "as", "run",
    "v", "na", "s", "po", "ne", "chto", "dlya", "eto", "tolko", "cherez", "nado", "nuzhno", "vsegda",  # Russian
    "ile", "ve", "bu", "icin", "da", "de", "bir", "her",  # Turkish, without its accents
})  # fmt: skip
_NOT = frozenset({"instead", "not", "rather"})
_RULE = re.compile(
    r"\b(?:don'?t|do not)\b|"
    r"^(?:(?:we |you )?(?:use|run|always|never|avoid|prefer|keep|put|write|call|add|make|"
    r"check|ask|answer|reply|commit|push|pin|install|deploy|start|stop|set|name|import))\b|"
    r"\b(?:instead of|rather than|must|should|never|always|only (?:use|via|through|with))\b|"
    r"^(?:используй|запускай|пиши|отвечай|избегай|ставь|делай|не )|"
    r"\b(?:всегда|никогда|нельзя|нужно|надо|только через|вместо)\b|"
    r"^(?:用|不要|别|总是|永远|必须)|一律|都用|要用|不要|而不是|"
    r"\b(?:kullan\w*|asla|her zaman|yapma|çalıştır\w*|yerine)\b",
    re.IGNORECASE,
)
_INSTEAD = re.compile(
    r"(?:\binstead of|\brather than|,\s*not)\s+(?P<other>`[^`]+`|[\w.\-/ ]{2,40}?)(?=[,.;]|$| so\b| because\b)",
    re.IGNORECASE,
)
_NEVER = re.compile(r"\b(?:never|don'?t|do not)\s+(?P<act>.{3,60}?)(?=[,;!]|\.\s|\.?$)", re.IGNORECASE)
_MOMENT = re.compile(r"\b(?P<when>(?:before|after|while|when) \w+ing\b[^,.;:]{0,40})", re.IGNORECASE)
_CYRILLIC = {
    **dict(zip("абвгдезийклмнопрстуфхыэ", "abvgdeziyklmnoprstufhye", strict=True)),
    **{
        "ё": "e",
        "ж": "zh",
        "ц": "ts",
        "ч": "ch",
        "ш": "sh",
        "щ": "sch",
        "ю": "yu",
        "я": "ya",
        "ъ": "",
        "ь": "",
    },
}


def without_command_words(text: str) -> str:
    """The fact itself: no "remember that", "from now on", "запомни:", "记住：", "…, unutma" around it."""
    body = " ".join(text.split())
    for _ in range(3):  # "please remember: from now on …" carries more than one
        stripped = _POLITE.sub("", REMEMBER_STRIP.sub("", body, count=1)).strip(" ,;:—-，。：；、")
        if stripped == body:
            break
        body = stripped
    return capitalised(body)


# More verbs an instruction opens with. Many are nouns too ("Release notes go to CHANGELOG.md",
# "Test fixtures live in tests/"), so one counts only when the words after it are not a subject and
# its verb (`_FACT`).
_IMPERATIVE = re.compile(
    r"^(?:amend|append|archive|backport|be|branch|build|bump|cache|cherry-pick|cite|clean|clone|close|"
    r"comment|confirm|copy|create|delete|describe|document|double-check|drop|edit|ensure|exclude|"
    r"explain|export|fetch|follow|format|give|include|keep|leave|link|lint|list|log|look|mark|mention|"
    r"merge|move|omit|open|pass|prefix|prepend|print|publish|pull|quote|read|rebase|rebuild|refer|"
    r"regenerate|reinstall|release|remind|remove|rename|reply|report|rerun|re-run|restart|review|"
    r"save|search|show|sign|skip|sort|split|squash|stage|stick|store|suggest|switch|tag|tell|test|"
    r"treat|try|type|update|upgrade|upload|validate|verify|wait|wrap)\b",
    re.IGNORECASE,
)
_FACT = re.compile(
    r"^[\w-]+\s+[\w-]+\s+(?:is|are|was|were|has|have|had|go|goes|live|lives|run|runs|use|uses|need|needs|"
    r"take|takes|come|comes|get|gets|stay|stays|sit|sits|belong|belongs|break|breaks|fail|fails|"
    r"contain|contains|include|includes|require|requires|expire|expires)\b",
    re.IGNORECASE,
)


def is_rule(text: str) -> bool:
    """A rule for how to work (feedback), rather than a fact about the project: rule words, or an
    English instruction that opens with its verb ("tag the release commit", "bump the version first")."""
    text = text.strip()
    if _RULE.search(text):
        return True
    english = text.isascii()  # "Test veritabanı her gece sıfırlanıyor" is a Turkish fact
    return english and bool(_IMPERATIVE.match(text)) and not _FACT.match(text)


def section_type(section: str, fallback: str) -> str:
    """The memory type of a section: Feedback, Project, Reference and User are types themselves."""
    return SECTION_TYPES.get(section.strip().casefold(), fallback)


def subject_slug(trigger: str, principle: str, taken: set[str] | None = None, kind: str = "") -> str:
    """A file name stem from the subject — the trigger when there is one, else the takeaway — in the
    words that carry it (`uv_add_not_pip`), in ASCII. When `<kind>_<stem>.md` is `taken` (a second rule
    for the same trigger, a fact that says more than one remembered), the takeaway's next words tell
    the two apart (`releasing_push_tag`, `ci_runners_ubuntu_24_04`)."""
    words = _slug_words(trigger if trigger.strip() else principle)
    first = words[: SLUG_WORDS + 1] if words[SLUG_WORDS - 1 : SLUG_WORDS] == ["not"] else words[:SLUG_WORDS]
    slug = whole_words(first, 40)  # never "…_not" without what it rules out, never a word cut
    if not slug:
        return "note_" + hashlib.sha1(principle.encode("utf-8")).hexdigest()[:6]
    if taken is None:
        return slug
    more = _slug_words(principle) if trigger.strip() else words[SLUG_WORDS:]
    stem = slug
    for word in more:
        if f"{kind}_{stem}.md" not in taken or len(stem) + len(word) > 60:
            break
        if word not in stem.split("_"):
            stem = f"{stem}_{word}"
    return stem if f"{kind}_{stem}.md" not in taken else slug


def whole_words(words: list[str], limit: int) -> str:
    """The words joined by `_` within `limit` characters, never a word cut ("…_debuggin"); a first
    word longer than the limit alone is cut."""
    slug = ""
    for word in words:
        joined = f"{slug}_{word}" if slug else word
        if len(joined) > limit:
            break
        slug = joined
    return slug or (words[0][:limit] if words else "")


def _slug_words(text: str) -> list[str]:
    latin = re.findall(r"[A-Za-z][A-Za-z0-9]*", text)
    foreign = sum(1 for c in text if c.isalpha() and not c.isascii())
    if latin and foreign > sum(len(w) for w in latin):  # "деплой через `make deploy`": the code names it
        text = " ".join(latin)
    words: list[str] = []
    for word in re.findall(r"[^\W_]+", _ascii(text).lower()):
        word = "not" if word in _NOT else word
        if word in _STOP or (word == "not" and (not words or words[-1] == "not")):
            continue
        words.append(word)
    while words and words[-1] == "not":
        words.pop()
    return words


def _ascii(text: str) -> str:
    """Latin letters for Cyrillic and accented text; anything else (CJK) is dropped."""
    text = "".join(_CYRILLIC.get(c, _CYRILLIC.get(c.lower(), c)) for c in text).replace("ı", "i")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def title(principle: str) -> str:
    """A short title: the takeaway itself when short, else cut at a word within 50 characters."""
    text = principle.strip().rstrip(".。!")
    if len(text) <= TITLE_CHARS:
        return text
    cut = text[: TITLE_CHARS - 1].rsplit(" ", 1)[0].rstrip(",;:—- ")
    return cut + "…"


def when_it_matters(trigger: str, principle: str, everywhere: bool = False) -> str:
    """When the rule matters, for deciding whether to open the file: the trigger as a condition
    ("When bumping the version"), else the moment or the tool the rule names ("When about to use pip",
    "Before pushing"), else the scope it holds in ("In every session in this project")."""
    takeaway = principle.strip()
    condition = trigger.strip().rstrip(":").strip().removeprefix("When ").removeprefix("when ")
    if condition:
        return f"When {condition}"
    if match := _INSTEAD.search(takeaway):
        return f"When about to use {match['other'].strip()}"
    if (match := _NEVER.search(takeaway)) and (act := match["act"].strip().rstrip("….;:, ")):
        return f"When about to {act}"
    if match := _MOMENT.search(takeaway):
        moment = match["when"].strip()
        return f"{moment[:1].upper()}{moment[1:]}"
    return "In every session of every project" if everywhere else "In every session in this project"
