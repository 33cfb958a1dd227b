"""The concrete, checkable things a memory entry names: paths and globs, symbols, commands, package
versions, URLs and dates. Pure text in, claims out.

A claim in a historical, negated or future context ("`old.py` was removed", "never commit `.env`",
"create `x.py`") is marked `current=False`: it does not assert that the thing exists now, so it is
never evidence that the entry is stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from .similar import word_set

ClaimKind = Literal["path", "glob", "symbol", "command", "version", "url", "flag"]

EXTENSIONS = word_set(
    "py pyi js mjs cjs ts tsx jsx md mdx json jsonc jsonl toml yaml yml txt sh bash zsh go rs rb java kt "
    "kts c h cc cpp hpp cs css scss sass less html htm sql lock cfg ini env vue svelte swift php proto "
    "graphql gql xml gradle mk ipynb csv tsv lua zig ex exs dart tf hcl conf properties plist sol scala "
    "clj erl hs ml nix r jl pl ps1 bat cmd rst tex svg png jpg gif wasm"
)
ROOT_FILES = word_set(
    "Makefile GNUmakefile Dockerfile Justfile justfile Procfile Gemfile Rakefile Vagrantfile Brewfile "
    "CODEOWNERS LICENSE Containerfile Jenkinsfile Taskfile"
)
PROGRAMS = word_set(
    "npm npx pnpm yarn bun make just pytest python python3 uv uvx poetry pip pip3 pipx cargo go docker "
    "docker-compose kubectl git tox nox ruff mypy black isort flake8 eslint prettier tsc vitest jest node "
    "deno mvn gradle ./gradlew bundle rake rails mix dotnet bash sh zsh pre-commit alembic django-admin "
    "flask uvicorn gunicorn hatch pdm rye terraform helm gh cmake ninja swift"
)

_URL = re.compile(r"\bhttps?://[^\s<>()`\"']+[^\s<>()`\"'.,;:!?]")
_MD_LINK_TARGET = re.compile(r"\]\((?:<[^>\n]*>|[^)\s]+)(?:\s+\"[^\"\n]*\")?\)")
_WIKI_LINK = re.compile(r"\[\[[^\]\n]+\]\]")
_BACKTICK = re.compile(r"(`+)(?P<code>[^`\n]+?)\1")
_PATH_BARE = re.compile(r"(?<![\w/.@~$-])(?:\./)?(?:[\w.-]+/)+[\w.*-]*\.(?P<ext>[A-Za-z0-9]{1,8})(?![\w/])")
_DIR_BARE = re.compile(r"(?<![\w/.@~$:-])(?:[\w.-]+/){1,6}(?=[\s,;:)]|$)")
_CALL = re.compile(r"(?<![\w.$`])(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\(\)")
_QUALIFIED = re.compile(r"(?<![\w.$`/])(?P<name>[A-Z][A-Za-z0-9]+\.[a-z_][A-Za-z0-9_]+)(?![\w(/])")
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

# Words near a claim that make it a statement about the past, a prohibition or a plan.
_CUES_BEFORE = re.compile(
    r"(?i)\b(?:removed|deleted|dropped|replaced|migrated|moved|renamed|retired|no longer|used to|formerly|"
    r"previously|deprecated|instead of|old|legacy|obsolete|former|don'?t|do not|never|avoid|not|no|without|"
    r"create|generate[sd]?|will|todo|plan(?:ned)?|future|would|could|ignored|untracked|gitignored|"
    r"switched from|was|were|had)\b|"
    r"удал|замен|перен[её]с|переимен|больше не|вместо|раньше|устар|\bне\b|никогда|создай|"
    r"删除|移除|替换|改名|重命名|不再|以前|原来|旧的|不要|别|"
    r"kaldır|silin|yerine|eskiden|artık|değiştiril"
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


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    value: str  # normalised: a path, a symbol, a command line, a package name, a URL
    text: str  # exactly as written in the entry
    start: int
    end: int
    current: bool = True  # asserts the thing exists / holds now
    version: str = ""  # for kind "version": the version as written ("2.x", "v18", "3.11")
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)


def extract_claims(text: str) -> list[Claim]:
    """Every claim in `text`, in order of appearance."""
    claims: list[Claim] = []
    masked = _mask(text, _MD_LINK_TARGET)
    masked = _mask(masked, _WIKI_LINK)
    for match in _URL.finditer(masked):
        claims.append(Claim("url", match.group(0), match.group(0), match.start(), match.end()))
    masked = _mask(masked, _URL)
    for match in _BACKTICK.finditer(masked):
        claim = classify_code(match["code"].strip(), match.start("code"), match.end("code"))
        if claim is not None:
            claims.append(claim)
    prose = _mask(masked, _BACKTICK)
    claims.extend(_prose_claims(prose))
    claims.sort(key=lambda c: c.start)
    return [_with_context(text, c) for c in claims]


def _mask(text: str, pattern: re.Pattern[str]) -> str:
    """Blank out matches (keeping offsets) so later patterns do not see them."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def classify_code(code: str, start: int, end: int) -> Claim | None:
    """What a backticked span is: a command, flag, path, glob, version spec or symbol."""
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
    if _looks_like_path(code):
        kind: ClaimKind = "glob" if any(ch in code for ch in "*?[") else "path"
        return Claim(kind, normalize_path(code), code, start, end)
    if _IDENT.match(code) and is_code_identifier(code):
        return Claim("symbol", symbol_name(code), code, start, end)
    return None


def _looks_like_path(code: str) -> bool:
    if "://" in code or code.startswith(("~", "$", "<", "@")) or re.search(r"[<>{}|\"'=]", code):
        return False
    name = code.rstrip("/").rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if "/" in code:
        return bool(re.fullmatch(r"[\w./*?\[\]@+-]+", code)) and not code.startswith("/")
    if any(ch in code for ch in "*?") and ext:
        return True
    return name in ROOT_FILES or ext.lower() in EXTENSIONS or bool(re.fullmatch(r"\.[\w.-]+", name))


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


def normalize_path(path: str) -> str:
    path = path.strip().strip("`")
    while path.startswith("./"):
        path = path[2:]
    return path


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
    for match in _VERSION_TEXT.finditer(prose):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        claim = _version_claim(match)
        if claim is not None:
            found.append(claim)
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


def _with_context(text: str, claim: Claim) -> Claim:
    """Mark a claim that the surrounding clause puts in the past, negates or plans."""
    clause_start = max(text.rfind(sep, 0, claim.start) for sep in (". ", "; ", "! ", "? ", "\n", "。", "；"))
    before = text[clause_start + 1 : claim.start]
    before_words = " ".join(re.split(r"\s+", before.strip())[-6:])
    after = text[claim.end : claim.end + 40]
    cues = list(_CUES_BEFORE.finditer(before_words))
    if cues and _TRANSITION_TARGET.search(before_words[cues[-1].end() :]):
        cues = []  # "switched from X to <claim>": the claim is the new state
    if cues or _CUES_AFTER.search(after):
        return Claim(
            claim.kind, claim.value, claim.text, claim.start, claim.end, False, claim.version, claim.extra
        )
    return claim
