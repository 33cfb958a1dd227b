"""Find and redact secrets (tokens, keys, passwords) before anything is printed or stored.

One layer for every write: what the tool stores — memory, CLAUDE.md, plans, state, the queue, episodes,
the handoff, logs, file names — passes through `redact` (text), `redact_data` (JSON-shaped values) or
is refused by `has_secret`; a text that is nothing but a secret (`only_secret`) is dropped, never kept
redacted. Redact first, then cut: a cut can break the shape a rule needs.

The rules are data (`consolidate.secret_rules`); each runs only when one of its keywords occurs in the
text, and the shape rules (32-hex and high-entropy tokens) only when the text holds a long unbroken
token, so most text costs a few substring searches. Standard library only: the hooks use it too.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

from .lazyre import lazy
from .plain import Frozen
from .secret_rules import RULES

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from typing import Any


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLACEHOLDER = lazy(
    r"(?i)^(?:\*+|x{3,}|\.{3}|…|<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\{[^}]*\}\}|%\(?[a-z_]+\)?s?|"
    r"\[redacted[^\]]*\]|redacted|changeme|change[_-]?me|example|placeholder|secret|password|passwd|pass|"
    r"token|(?:your|my)[_-]?(?:password|passwd|pass|pw|secret|token|key|api[_-]?key)|none|null|nil|true|false|undefined|empty|required|optional|"
    r"todo|tbd|foo|bar|baz|test|dummy|fake|sample|hidden|n/a|xxx+|\*{3,})$"
)
# Words that follow "the password is/was" without being one.
_NOT_A_PASSWORD = _words(
    """a an the not no in on at of to for from with by as it its this that these those now still also only
    always never being been be set stored saved kept hashed salted encrypted encoded hidden masked shown
    printed logged required optional needed missing empty blank wrong incorrect invalid correct right
    valid expired reset changed rotated same different too very weak strong long short secure insecure
    generated random unique sent given provided read loaded taken passed checked validated verified
    managed handled cached defined configured ignored used visible available case sensitive
    plaintext cleartext bcrypt argon2 scrypt sha256 managed mandatory forgotten unknown unset none null
    here there what which where why how who same either neither both all any every each other another
    hardcoded hard-coded prompted asked entered typed pasted injected supplied fetched pulled rendered
    mounted exported sourced leaked compromised broken fine ok okay good bad stale old new current
    default literally actually probably just simply really again then than so but or and if when
    automatically manually securely safely properly"""
)
_FUNCTION_WORDS = _words(
    """a an the is are was were be been being am do does did not no nor and or but if then else when
    while of to in on at by for from with without into onto over under about as it its this that these
    those there here what which who whom whose why how must should shall will would can could may might
    least most more less than very too also only just use using used set stored saved kept needs need
    required see ask asked tell told from your our their my his her they them we you he she"""
)
_ENGLISH_SUFFIX = lazy(r"(?:ed|ing|ly|tion|sion|able|ible|ment|ness|ous|ive|ful|less|ize|ise)$")
_LABEL_WORDS = _words(
    """password passwd passphrase pass pwd secret secrets token tokens key keys api access auth bearer
    basic private client credential credentials the is was are a an of for to and our my your this that
    env var value db redacted"""
)
_STRONG_NAME = lazy(
    r"(?i)password|passwd|passphrase|secret|api[_-]?key|apikey|access[_-]?key|auth[_-]?(?:key|token)|private[_-]?key"
)
_LONG_TOKEN = re.compile(r"[A-Za-z0-9+/=_\-]{24,}")
_TRAILING = ".,;:!?)]}>"
_MARKER = lazy(r"\[REDACTED:[^\]]*\]")


class SecretMatch(Frozen):
    __slots__ = FIELDS = ("kind", "start", "end")
    kind: str
    start: int
    end: int

    def __init__(self, kind: str, start: int, end: int) -> None:
        self._set(kind=kind, start=start, end=end)


class _Rules:
    """The ruleset, indexed by keyword; each regex is compiled the first time its keyword is seen."""

    def __init__(self) -> None:
        self.by_keyword: dict[str, list[int]] = {}
        self.shapes: list[int] = []
        self.compiled: dict[tuple[int, bool], re.Pattern[str]] = {}
        self.bounded: set[int] = set()
        for index, (_, keywords, _, _) in enumerate(RULES):
            for keyword in keywords:
                self.by_keyword.setdefault(keyword, []).append(index)
            if not keywords:
                self.shapes.append(index)

    def wanted(self, text: str, lowered: str) -> list[int]:
        found = {i for keyword, ids in self.by_keyword.items() if keyword in lowered for i in ids}
        if _LONG_TOKEN.search(text):
            found.update(self.shapes)
        return sorted(found)

    def pattern(self, index: int, lowered: bool) -> re.Pattern[str]:
        """The rule's regex. A `(?i)` rule runs case-sensitively on the lower-cased text (six times
        faster than IGNORECASE) unless lower-casing moved offsets (`lowered` False). A leading `\\b` is
        checked after the match, so that the regex starts with its literal prefix."""
        key = (index, lowered)
        if key not in self.compiled:
            source = RULES[index][2]
            insensitive = source.startswith("(?i)")
            body = source.removeprefix("(?i)")
            if body.startswith(r"\b"):
                self.bounded.add(index)
                body = body[2:]
            self.compiled[key] = re.compile(body, re.IGNORECASE if insensitive and not lowered else 0)
        return self.compiled[key]

    def insensitive(self, index: int) -> bool:
        return RULES[index][2].startswith("(?i)")


_RULES = _Rules()


def find_secrets(text: str) -> list[SecretMatch]:
    """Non-overlapping secret spans, earliest first (the longest wins where two overlap)."""
    if not text:
        return []
    if len(text) <= 4096:
        return list(_find_short(text))  # the same short texts are checked again and again
    return _find(text)


@lru_cache(maxsize=4096)
def _find_short(text: str) -> tuple[SecretMatch, ...]:
    return tuple(_find(text))


# A record's id or time as Claude Code writes it (a lower-case UUID, with the `#n` of an episode; an ISO
# time in UTC): no rule finds a secret in one (a test runs every rule over such texts), so the ids a
# signal carries are passed over without running the rules that a long token wakes.
_PLAIN_ID = lazy(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:#[0-9]{1,9})?"
    r"|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?Z"
)
_PLAIN_ID_LENGTH = 46


def _find(text: str) -> list[SecretMatch]:
    if len(text) <= _PLAIN_ID_LENGTH and _PLAIN_ID.fullmatch(text):
        return []
    return _find_by_rules(text)


def _find_by_rules(text: str) -> list[SecretMatch]:
    lowered = text.lower()
    same_offsets = len(lowered) == len(text)
    found: list[SecretMatch] = []
    for index in _RULES.wanted(text, lowered):
        kind, _, _, check = RULES[index]
        on_lower = same_offsets and _RULES.insensitive(index)
        pattern = _RULES.pattern(index, on_lower)
        bounded = index in _RULES.bounded
        for match in pattern.finditer(lowered if on_lower else text):
            if bounded and _inside_word(text, match.start()):
                continue
            span = _secret_span(match)
            if span is None:
                continue
            start, end = span
            value = text[start:end]
            if check:
                name, _, argument = check.partition(":")
                trimmed = _CHECKS[name](value, match, argument) if argument else _CHECKS[name](value, match)
                if not trimmed:
                    continue
                end = start + trimmed
            found.append(SecretMatch(kind, start, end))
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    result: list[SecretMatch] = []
    for candidate in found:
        if not result or candidate.start >= result[-1].end:
            result.append(candidate)
    return result


def _inside_word(text: str, at: int) -> bool:
    return at > 0 and _is_word(text[at - 1]) and _is_word(text[at])


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _secret_span(match: re.Match[str]) -> tuple[int, int] | None:
    groups = match.re.groupindex
    for name in ("secret", "dq", "sq", "bq"):
        if name in groups and match.start(name) >= 0:
            return match.span(name)
    if "secret" in groups or "dq" in groups:
        return None  # the rule names its secret and this match has none
    start, end = match.span()
    while end > start and match.string[end - 1] in " \t\r\n":
        end -= 1  # a wrapped-token rule may end on the line break
    return start, end


# --- validators: each returns the length of the secret to redact (0: not a secret) --------------------


def _strip(value: str) -> str:
    """The value without the punctuation that ends its sentence."""
    return value.rstrip(_TRAILING.replace("]", "") if value.startswith("[") else _TRAILING)


def _looks_placeholder(value: str) -> bool:
    return bool(_PLACEHOLDER.match(value)) or value.startswith(("$", "%(", "{{", "<"))


def _is_reference(value: str) -> bool:
    """An env var, a call or a path: where the secret is, not the secret."""
    lowered = value.lower()
    return (
        value.startswith(("/", "./", "../", "~/", "$", "@"))
        or "(" in value
        or lowered.startswith(("process.env", "os.environ", "env.", "secrets.", "vault:", "op://", "ssm:"))
        or bool(re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", value))  # another variable's name
    )


def _check_value(value: str, match: re.Match[str]) -> int:
    value = _strip(value)
    if len(value) < 3 or _looks_placeholder(value) or value.isdigit() and len(value) < 6:
        return 0
    return len(value)


def _check_url(value: str, match: re.Match[str]) -> int:
    password = value.split(":", 1)[1]
    if not password or _looks_placeholder(password):
        return 0
    return len(value)


def _check_basic(value: str, match: re.Match[str]) -> int:
    before = match.string[max(0, match.start() - 24) : match.start()].lower()
    if "authorization" in before:
        return len(value)
    import base64  # here: a `Basic` credential is rare, and every hook that writes redacts
    import binascii

    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return 0
    return len(value) if b":" in decoded and decoded.isascii() else 0


def _check_assigned(value: str, match: re.Match[str]) -> int:
    quoted = match.start("dq") >= 0 or match.start("sq") >= 0 or match.start("bq") >= 0
    clean = value if quoted else _strip(value)
    if len(clean) < 4 or _looks_placeholder(clean) or _is_reference(clean):
        return 0
    if clean.startswith(("http://", "https://")) and "@" not in clean:
        return 0
    name = _assigned_name(match)
    strong = bool(_STRONG_NAME.search(name)) or bool(re.search(r"[_.-]", name))
    if strong:
        if clean.isalpha() and len(clean) < 8 and not quoted:
            return 0
        if clean.isdigit() and len(clean) < 6:
            return 0
        return len(clean)
    return len(clean) if _random_looking(clean) else 0


def _assigned_name(match: re.Match[str]) -> str:
    """The whole variable name: the keyword the rule matched and what precedes it (`DB_` of `DB_PASS`)."""
    text, start = match.string, match.start()
    begin = start
    while begin > 0 and start - begin < 60 and (text[begin - 1].isalnum() or text[begin - 1] in "_.-"):
        begin -= 1
    keyword = re.match(r"[\w.-]+", match.group(0))
    return text[begin:start] + (keyword.group(0) if keyword else "")


def _check_prose(value: str, match: re.Match[str]) -> int:
    quoted = match.start("dq") >= 0 or match.start("sq") >= 0 or match.start("bq") >= 0
    clean = value if quoted else _strip(value)
    lowered = clean.lower()
    if len(clean) < 4 or _looks_placeholder(clean) or _is_reference(clean) or lowered in _NOT_A_PASSWORD:
        return 0
    if quoted or not clean.isalpha():
        return len(clean) if not clean.isdigit() or len(clean) >= 4 else 0
    if len(clean) < 6 or _ENGLISH_SUFFIX.search(lowered):
        return 0
    return len(clean)


def _check_passphrase(value: str, match: re.Match[str]) -> int:
    """Three or more words that say nothing together: the run is cut at the first function word."""
    words = re.split(r"([ -])", value)
    kept = 0
    for index in range(0, len(words), 2):
        if words[index].lower() in _FUNCTION_WORDS:
            break
        kept = index + 1
    run = words[:kept]
    content = run[::2]
    lowered = [w.lower() for w in content]
    if len(content) < 3 or sum(w in _NOT_A_PASSWORD for w in lowered) >= 2:
        return 0
    if sum(bool(re.search(r"(?:ed|ing|ly)$", w)) for w in lowered) >= 2:
        return 0  # "generated randomly every deploy": prose about the password
    return len("".join(run))


def _random_looking(value: str) -> bool:
    """At least 8 characters mixing letters with digits or symbols: not a word, not a number."""
    if len(value) < 8 or _is_reference(value):
        return False
    has_alpha = any(c.isalpha() for c in value)
    has_other = any(c.isdigit() for c in value) or any(not c.isalnum() and c not in "_-." for c in value)
    return has_alpha and has_other


def _check_random(value: str, match: re.Match[str]) -> int:
    clean = _strip(value)
    if _looks_placeholder(clean) or not _random_looking(clean) or clean.startswith("http"):
        return 0
    return len(clean)


def _check_hex(value: str, match: re.Match[str]) -> int:
    text, start, end = match.string, match.start(), match.end()
    if len(value) != 32 or start > 0 and _is_word(text[start - 1]) or end < len(text) and _is_word(text[end]):
        return 0  # exactly 32, standing alone: a git sha (40) or a sha256 (64) is not a credential
    if start > 0 and text[start - 1] == "/" and "://" in text[max(0, start - 200) : start].split()[-1:][0]:
        return 0  # an id in a link's path, not a credential
    has_digit = any(c.isdigit() for c in value)
    has_letter = any(c.isalpha() for c in value)
    return len(value) if has_digit and has_letter else 0


def _check_wrap(value: str, match: re.Match[str], lengths: str) -> int:
    """A token that may have been wrapped: both runs when they add up to its exact length, else the
    first run when it is long enough to be (most of) a token."""
    exact, least = (int(n) for n in lengths.split(":"))
    first = match.end("a") - match.start("a")
    if match.start("b") >= 0 and first + match.end("b") - match.start("b") == exact:
        return match.end("b") - match.start()
    return match.end("a") - match.start() if first >= min(least, 16) else 0


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


_DIGIT = lazy(r"\d")
_SEGMENT = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _check_entropy(value: str, match: re.Match[str]) -> int:
    """A long token mixing upper case, lower case and digits, random-looking rather than made of words.
    A path (`/tmp/tmp6ag64yx8/w/project/CLAUDE`) is judged part by part: a temporary or generated
    directory name is not a credential, a token stored as one of its parts still is."""
    body = value.rstrip("=")
    parts = body.split("/")
    words = sum(bool(_PATH_WORD.fullmatch(part)) for part in parts)
    if words >= 2 or words and _PATH_START.match(body):
        return len(value) if any(_random_token(part) for part in parts if len(part) >= 24) else 0
    return len(value) if _random_token(body) else 0


# A path has parts that are words (`tmp`, `acme-api`, `Users`, `CLAUDE`): two of them, or one when it
# starts at the root (what `~/`, `./` and `$HOME/` leave to the token) or with a word (`src/…`). A random
# base64 token is that rarely (about once in two thousand).
_PATH_START = lazy(r"/|[a-z]{3,}/")
_PATH_WORD = lazy(r"[A-Z]?[a-z]{2,}(?:[-_][a-z]+)*|[A-Z]{3,}")


def _random_token(body: str) -> bool:
    if body.islower() or body.isupper() or not _DIGIT.search(body):
        return False  # a token mixes both cases and digits
    segments = _SEGMENT.findall(body)
    if segments and sum(len(s) for s in segments) / len(segments) >= 3.2:
        return False  # camelCase, snake_case or path made of words and numbers
    # about the 1st percentile of random base62/base64 tokens of that length
    threshold = 3.6 if len(body) < 32 else 3.9 if len(body) < 40 else 4.1
    return entropy(body) >= threshold


_CHECKS: dict[str, Any] = {
    "wrap": _check_wrap,
    "value": _check_value,
    "url": _check_url,
    "basic": _check_basic,
    "assigned": _check_assigned,
    "prose": _check_prose,
    "passphrase": _check_passphrase,
    "random": _check_random,
    "hex": _check_hex,
    "entropy": _check_entropy,
}


# --- the API every writer calls ---------------------------------------------------------------------------


def redact(text: str) -> str:
    """`text` with every secret replaced by `[REDACTED:<kind>]`."""
    matches = find_secrets(text)
    if not matches:
        return text
    parts, last = [], 0
    for secret in matches:
        parts.append(text[last : secret.start])
        parts.append(f"[REDACTED:{secret.kind}]")
        last = secret.end
    parts.append(text[last:])
    return "".join(parts)


def has_secret(text: str) -> bool:
    return bool(find_secrets(text))


contains_secret = has_secret


def redact_clip(text: str, limit: int, ellipsis: str = "…") -> str:
    """Redact, then cut to `limit` characters (never the other way round: a cut secret can slip by)."""
    clean = redact(text)
    if len(clean) <= limit:
        return clean
    cut = clean[: max(0, limit - len(ellipsis))]
    opened = cut.rfind("[REDACTED:")
    if opened >= 0 and "]" not in cut[opened:]:
        cut = cut[:opened]  # never leave half a marker
    return cut + ellipsis


def without_secrets(text: str) -> str:
    """The text with its secrets taken out (not marked): for names made from text, such as file names."""
    return " ".join(_MARKER.sub(" ", redact(text)).split())


def redact_data(value: Any) -> Any:
    """A JSON-shaped value with every string in it (keys included) redacted; the value itself when it
    holds no secret. Each string is checked on its own: a short text checked before (a signal's texts
    were redacted when it was made) costs a lookup, and a rule runs only on the strings holding its
    keyword, not on all of them joined."""
    strings: set[str] = set()  # each string once: the keys of every record, the ids they share
    _collect(value, strings)
    for text in strings:
        if find_secrets(text):
            return _redact_each(value)
    return value


def _collect(value: Any, into: set[str]) -> None:
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                into.add(key)
            if isinstance(item, str):  # most values: taken here, without a call
                into.add(item)
            elif isinstance(item, dict | list | tuple):
                _collect(item, into)
    elif isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, str):
                into.add(item)
            elif isinstance(item, dict | list | tuple):
                _collect(item, into)


def _redact_each(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: _redact_each(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_each(v) for v in value]
    return value


def only_secret(text: str) -> bool:
    """Whether the text says nothing once its secrets are out (`DB_PASS=…`, "the password is …")."""
    matches = find_secrets(text)
    if not matches:
        return "[REDACTED" in text and not _meaningful(re.sub(r"\[REDACTED[^\]]*\]", " ", text))
    parts, last = [], 0
    for secret in matches:
        parts.append(text[last : secret.start])
        last = secret.end
    parts.append(text[last:])
    return not _meaningful(" ".join(parts).replace("[REDACTED", " "))


def _meaningful(rest: str) -> bool:
    words = [w for w in re.findall(r"[^\W\d_]{3,}", rest) if w.lower() not in _LABEL_WORDS]
    return len(words) >= 3
