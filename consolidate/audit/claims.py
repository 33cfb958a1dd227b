"""The concrete, checkable things a memory entry names: paths and globs, symbols, commands, package
versions, URLs and dates. Pure text in, claims out.

A claim in a historical, negated or future context ("`old.py` was removed", "never commit `.env`",
"create `x.py`") is marked `current=False`: it does not assert that the thing exists now, so it is
never evidence that the entry is stale.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from urllib.parse import unquote

from .claims_base import (
    CODE_EXTENSIONS,
    EXTENSIONS,
    PROGRAMS,
    ROOT_FILES,
    Claim,
    ClaimKind,
    looks_like_path,
    normalize_path,
)
from .shell import command_claims, is_command, shell_claims
from .similar import word_set

__all__ = ["EXTENSIONS", "PROGRAMS", "ROOT_FILES", "Claim", "ClaimKind", "extract_claims", "normalize_path"]

_URL = re.compile(r"\bhttps?://[^\s<>()`\"']+[^\s<>()`\"'.,;:!?]")
_LINK_PATH = re.compile(r"\]\((?P<target><[^>\n]*>|[^)\s]+)(?:\s+\"[^\"\n]*\")?\)")
_MD_LINK_TARGET = re.compile(r"\]\((?:<[^>\n]*>|[^)\s]+)(?:\s+\"[^\"\n]*\")?\)")
_WIKI_LINK = re.compile(r"\[\[[^\]\n]+\]\]")
_BACKTICK = re.compile(r"(`+)(?P<code>[^`\n]+?)\1")
_PATH_BARE = re.compile(r"(?<![\w/.@~$-])(?:\./)?(?:[\w.-]+/)+[\w.*-]*\.(?P<ext>[A-Za-z0-9]{1,8})(?![\w/])")
_DIR_BARE = re.compile(r"(?<![\w/.@~$:-])(?:[\w.-]+/){1,6}(?=[\s,;:)]|$)")
_CALL = re.compile(r"(?<![\w.$`])(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)")
_QUALIFIED = re.compile(r"(?<![\w.$`/])(?P<name>[A-Z][A-Za-z0-9]+\.[a-z_][A-Za-z0-9_]+)(?![\w(/])")
_FILE_BARE = re.compile(r"(?<![\w/.@~$:-])(?P<stem>[\w-]*[A-Za-z][\w-]*)\.(?P<ext>[A-Za-z]{1,6})(?![\w/.(-])")
_DOTTED = re.compile(r"(?<![\w.$/@-])(?P<name>[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+)(?![\w(/-]|\.\w)")
_CAMEL = re.compile(r"(?<![\w.$/@-])(?P<name>[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+)(?![\w(/-]|\.\w)")
# CamelCase words that name products and notations, not classes of the project.
COMMON_CAMEL = word_set(
    "ActionScript AirPods ArchLinux BigQuery BitBucket CamelCase ChatGpt ChromeDriver ChromiumOs "
    "CircuitPython ClickHouse CloudFlare CloudFront CloudWatch CockroachDb CoffeeScript DataGrip "
    "DeepMind DeepSeek DevTools DocString DockerCompose DockerHub DropBox DynamoDb ElasticSearch "
    "ExpressJs FastApi FreeBsd GitHub GitKraken GitLab GoLand GraphQl HackerNews HuggingFace "
    "IndexedDb InfluxDb JavaScript JetBrains JupyterLab KebabCase LangChain LangGraph LibreOffice "
    "LinkedIn LiveScript LlamaIndex LocalStorage LowerCase MacBook MacOs MariaDb MatPlotLib "
    "MicroPython MkDocs MongoDb MySql NeoVim NestJs NetBsd NextJs NoSql NodeJs NumPy NuxtJs OneDrive "
    "OpenAi OpenApi OpenBsd OpenCv OpenOffice OpenRouter OpenSearch OpenShift OpenStack PascalCase "
    "PayPal PhpStorm PlayStation PostCss PostgreSql PowerPoint PowerShell PureScript PyCharm PyPy "
    "PyQt PySide PyTorch ReactJs ReadTheDocs RedHat RubyMine RxJs SciKit SciPy ServiceWorker "
    "SessionStorage SharePoint SnakeCase SolidJs SourceTree SqLite SqlAlchemy StackOverflow "
    "SvelteKit SwaggerUi TailwindCss TensorBoard TensorFlow ThinkPad TikTok TitleCase "
    "TortoiseGit TypeScript UpperCase VsCode VueJs WebGl WebKit WebRtc WebSocket WebSockets WebStorm "
    "WhatsApp WordPress WxPython YouTube"
)
_IDENT = re.compile(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\s*[^()]*\))?$")
_VERSION_TEXT = re.compile(
    r"(?<![\w.@/-])(?P<name>[A-Za-z][\w.+-]*?)"
    r"(?:(?P<sep>\s+v|\s+version\s+|\s*@\s*|\s*(?:==|>=|~=|\^|~)\s*|\s+)(?P<version>v?\d+(?:\.(?:\d+|x|\*))*))"
    r"(?![\w.-]*[A-Za-z/])"
)
RUNTIMES = {
    "python": "python",
    "python3": "python",
    "node": "node",
    "nodejs": "node",
    "node.js": "node",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "java": "java",
    "ruby": "ruby",
    "deno": "deno",
    "bun": "bun",
}

# A heading or lead-in line that forbids: what the entries under it name is what not to touch.
_PROHIBITION = re.compile(
    r"(?i)\b(?:cannot|can'?t|must(?:n'?t| not)|should(?:n'?t| not)|never|do not|don'?t|avoid|"
    r"forbidden|prohibited|not allowed|disallowed|off[- ]limits|do not touch|hands off|"
    r"anti-?patterns?|pitfalls?|mistakes? to avoid|things to avoid)\b|"
    r"нельзя|запрещ|не (?:делай|трогай|используй)|禁止|不要|不能|yasak|asla"
)
# Words near a claim that make it a statement about the past, a prohibition or a plan.
_CUES_BEFORE = re.compile(
    r"(?i)\b(?:removed|deleted|dropped|replaced|migrated|moved|renamed|retired|no longer|used to|formerly|"
    r"previously|deprecated|instead of|old|legacy|obsolete|former|don'?t|do not|never|avoid|not|no|without|"
    r"cannot|can'?t|must not|mustn'?t|should not|shouldn'?t|forbid\w*|prohibit\w*|disallow\w*|exclud\w*|"
    r"create|generate[sd]?|will|todo|plan(?:ned)?|future|would|could|ignored|untracked|gitignored|"
    r"switched from|was|were|had)\b|"
    r"удал|замен|перен[её]с|переимен|больше не|вместо|раньше|устар|\bне\b|никогда|создай|"
    r"删除|移除|替换|改名|重命名|不再|以前|原来|旧的|不要|别|"
    r"kaldır|silin|yerine|eskiden|artık|değiştiril"
)
# The cues that tell a change, after which "to / with / into <claim>" names the new state.
_CHANGE = re.compile(
    r"(?i)removed|deleted|dropped|replaced|migrated|moved|renamed|retired|switched from|instead of|"
    r"deprecated|замен\w*|перен[её]с\w*|переимен\w*|вместо|替换|改名|重命名|yerine|değiştiril\w*"
)
_CUES_AFTER = re.compile(
    r"(?i)^\W{0,3}(?:(?:is|are|was|were|has been|have been|got|had been)\s+)?(?:was|were|removed|deleted|"
    r"dropped|renamed|moved|replaced|gone|retired|deprecated|obsolete|no longer|is gone|no more|"
    r"(?:does|do)\s+not\s+exist|doesn'?t\s+exist|will be|should be created|is generated|"
    r"is ignored|is untracked)\b|"
    r"^\W{0,3}(?:удал|замен|переимен|больше не|устар)|^\W{0,3}(?:已删除|被删除|已移除|已重命名|不再)|"
    r"^\W{0,3}(?:kaldırıldı|silindi)"
)
_TRANSITION_TARGET = re.compile(r"(?i)(?:\b(?:to|with|by|into|for)\b|→|->|=>|\bна\b|为|成|改用)")


def extract_claims(text: str, *, lead: str = "", links_base: str | None = None) -> list[Claim]:
    """Every claim in `text`, in order of appearance.

    `lead` is what the entry hangs under (its heading, the line introducing its list): under "Claude
    cannot perform these operations:" nothing the entry names is asserted to exist. `links_base` is
    given for files whose links point into the project (CLAUDE.md and its imports): the folder, from
    the project root, that their relative links start from. Links in memory files point at memory
    files and are no claims.
    """
    claims: list[Claim] = []
    blanked = list(text)

    def mask(start: int, end: int) -> None:
        blanked[start:end] = " " * (end - start)

    claims += shell_claims(text, mask)
    masked = "".join(blanked)
    if links_base is not None:
        claims += _link_claims(masked, links_base)
    masked = _mask(masked, _MD_LINK_TARGET)
    masked = _mask(masked, _WIKI_LINK)
    for match in _URL.finditer(masked):
        claims.append(Claim("url", match.group(0), match.group(0), match.start(), match.end()))
    masked = _mask(masked, _URL)
    for match in _BACKTICK.finditer(masked):
        claims += code_claims(match["code"], match.start("code"), match.end("code"))
    prose = _mask(masked, _BACKTICK)
    claims.extend(_prose_claims(prose))
    claims.sort(key=lambda c: (c.start, c.kind != "command"))
    if _PROHIBITION.search(lead):
        return [_not_current(c) for c in claims]
    commands = [c for c in claims if c.kind == "command"]
    return [_with_context(text, c, commands) for c in claims]


def _mask(text: str, pattern: re.Pattern[str]) -> str:
    """Blank out matches (keeping offsets) so later patterns do not see them."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _link_claims(text: str, base: str) -> list[Claim]:
    """Relative link targets of a project file (`[guide](docs/guide.md)`), as paths from the root."""
    claims = []
    for match in _LINK_PATH.finditer(text):
        target = unquote(match["target"].strip("<>").split("#", 1)[0])
        if not target or "://" in target or target.startswith(("/", "mailto:", "~")):
            continue
        value = posixpath.normpath(posixpath.join(base, target)) if base else posixpath.normpath(target)
        if value.startswith("..") or not looks_like_path(value if "/" in value else target):
            continue
        start = match.start("target")
        claims.append(Claim("path", value, match["target"], start, start + len(match["target"])))
    return claims


def code_claims(code: str, start: int, end: int) -> list[Claim]:
    """What a backticked span claims: a command (and the paths it names), a flag, a path, a glob, a
    version spec or a symbol."""
    stripped = code.strip()
    offset = start + (code.index(stripped) if stripped else 0)
    if " " in stripped and is_command(stripped):
        return command_claims(stripped, offset)
    claim = classify_code(stripped, offset, offset + len(stripped))
    return [claim] if claim is not None else []


def classify_code(code: str, start: int, end: int) -> Claim | None:
    """What a backticked span without arguments is: a flag, path, glob, version spec or symbol."""
    code = code.strip()
    first = code.split()[0] if code.split() else ""
    if first.startswith("$") and len(code.split()) > 1:
        code = code[len(first) :].strip()
        first = code.split()[0]
    if " " in code and (first in PROGRAMS or first.startswith(("./", "bin/", "scripts/"))):
        return Claim("command", " ".join(code.split()), code, start, end)
    if code.startswith("-"):
        return Claim("flag", code.split("=")[0].split()[0], code, start, end)
    if " " in code:
        return None
    spec = re.fullmatch(
        r"(?P<name>[A-Za-z@][\w@/.-]*?)\s*(?:==|>=|~=|\^|~|@)\s*(?P<v>\d+(?:\.(?:\d+|x|\*))*)", code
    )
    if spec:
        return Claim("version", package_key(spec["name"]), code, start, end, version=spec["v"])
    if looks_like_path(code):
        kind: ClaimKind = "glob" if any(ch in code for ch in "*?[") else "path"
        return Claim(kind, normalize_path(code), code, start, end)
    if _IDENT.match(code) and is_code_identifier(code):
        return Claim("symbol", symbol_name(code), code, start, end)
    return None


def is_code_identifier(code: str) -> bool:
    """A name that only code would use: snake_case, camelCase, a call or a qualified name.

    Plain words (`main`, `ruff`, `dev`) are not checked: their absence proves nothing.
    """
    base = re.sub(r"\(.*\)$", "", code)
    return (
        code.endswith(")")
        or bool(re.search(r"[.:#]", base))
        or "_" in base.strip("_")
        or base.startswith("__")
        or bool(re.search(r"[a-z][A-Z]", base))
        or bool(re.fullmatch(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+", base))
    )


def symbol_name(code: str) -> str:
    """`Class.method()` → `Class.method`; `mod::func(x)` → `mod.func`."""
    base = re.sub(r"\(.*\)$", "", code.strip())
    return re.sub(r"::|#", ".", base)


def package_key(name: str) -> str:
    """The comparable name of a package or runtime: lower case, `_`/`.` as `-`, runtimes unified."""
    lowered = name.lower().strip()
    if lowered in RUNTIMES:
        return RUNTIMES[lowered]
    return re.sub(r"[-_.]+", "-", lowered)


def _prose_claims(prose: str) -> list[Claim]:
    found: list[Claim] = []
    for match in _PATH_BARE.finditer(prose):
        if match["ext"].lower() in EXTENSIONS:
            kind: ClaimKind = "glob" if "*" in match.group(0) else "path"
            found.append(
                Claim(kind, normalize_path(match.group(0)), match.group(0), match.start(), match.end())
            )
    for match in _CALL.finditer(prose):
        found.append(Claim("symbol", match["name"], match.group(0), match.start(), match.end()))
    for match in _QUALIFIED.finditer(prose):
        if match["name"].rsplit(".", 1)[1].lower() not in EXTENSIONS:
            found.append(Claim("symbol", match["name"], match.group(0), match.start(), match.end()))
    taken = [(c.start, c.end) for c in found]
    found += [c for c in _prose_names(prose) if not any(s < c.end and c.start < e for s, e in taken)]
    taken = [(c.start, c.end) for c in found]
    for match in _VERSION_TEXT.finditer(prose):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        claim = _version_claim(match)
        if claim is not None:
            found.append(claim)
    return found


def _prose_names(prose: str) -> list[Claim]:
    """File names without a folder (`config.toml`), `module.function` and CamelCase class names
    written in prose."""
    found: list[Claim] = []
    for match in _FILE_BARE.finditer(prose):
        stem, ext = match["stem"], match["ext"]
        if ext.lower() in CODE_EXTENSIONS and not (stem[:1].isupper() and ext == "js"):
            found.append(Claim("path", match.group(0), match.group(0), match.start(), match.end()))
    for match in _DOTTED.finditer(prose):
        parts = match["name"].split(".")
        if any("_" in p.strip("_") for p in parts) and parts[-1] not in EXTENSIONS:
            found.append(Claim("symbol", match["name"], match.group(0), match.start(), match.end()))
    for match in _CAMEL.finditer(prose):
        if match["name"] not in COMMON_CAMEL:
            found.append(Claim("symbol", match["name"], match.group(0), match.start(), match.end()))
    return found


def _version_claim(match: re.Match[str]) -> Claim | None:
    name, version, sep = match["name"], match["version"], match["sep"] or ""
    key = package_key(name)
    explicit = bool(re.search(r"\.|x|v", version)) or sep.strip() != ""
    if key not in RUNTIMES.values() and not explicit:
        return None  # "step 2", "port 8080": no version unless the package is known (see versions)
    if len(name) < 2 or name.lower() in _NOT_PACKAGES:
        return None
    return Claim("version", key, match.group(0).strip(), match.start("name"), match.end(), version=version)


_NOT_PACKAGES = word_set(
    "in on at to of for and or the a an is are was be by with from than since version step phase "
    "line lines port ports item items page pages section chapter part issue pr pull ticket bug v "
    "round day days week weeks month months year years hour hours minute minutes sec seconds ms "
    "at least about around over under up top max min rc beta alpha release tier level stage option "
    "figure table run runs attempt case test tests node_modules utf iso ipv http https php"
)


def _not_current(claim: Claim) -> Claim:
    return Claim(
        claim.kind, claim.value, claim.text, claim.start, claim.end, False, claim.version, claim.extra
    )


def _with_context(text: str, claim: Claim, commands: Sequence[Claim] = ()) -> Claim:
    """Mark a claim that the surrounding clause puts in the past, negates or plans. A path inside a
    command is read in the context of the command (its own flags are no cue)."""
    if not claim.current:
        return claim
    anchor = next(
        (c.start for c in commands if c.start <= claim.start < c.end and c is not claim), claim.start
    )
    anchor = _code_start(text, anchor)
    clause_start = max(text.rfind(sep, 0, anchor) for sep in (". ", "; ", "! ", "? ", "\n", "。", "；"))
    before = text[clause_start + 1 : anchor]
    before_words = " ".join(re.split(r"\s+", before.strip())[-6:])
    after = text[claim.end : claim.end + 40]
    cues = list(_CUES_BEFORE.finditer(before_words))
    if (
        cues
        and _CHANGE.fullmatch(cues[-1].group(0))
        and _TRANSITION_TARGET.search(before_words[cues[-1].end() :])
    ):
        cues = []  # "switched from X to <claim>": the claim is the new state
    if cues or _CUES_AFTER.search(after):
        return _not_current(claim)
    return claim


def _code_start(text: str, at: int) -> int:
    """Where the code span holding offset `at` opens (its backticks), or `at` outside code."""
    line_start = text.rfind("\n", 0, at) + 1
    ticks = [m.start() for m in re.finditer(r"`+", text[line_start:at])]
    return line_start + ticks[-1] if len(ticks) % 2 == 1 else at
