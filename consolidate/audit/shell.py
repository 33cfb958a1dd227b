"""Commands as memory writes them: a code span with arguments (`` `scripts/deploy.sh --prod` ``), a
`$ ` line, or the lines of a shell code fence. Each gives a command claim and a path claim for every
project file it names — its program when that is a script, and its path arguments — so a deleted or
renamed script is found wherever it is run from."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from .claims_base import PROGRAMS, Claim, ClaimKind, looks_like_path, normalize_path
from .similar import word_set

_FENCE = re.compile(
    r"^(?P<indent> {0,3})(?P<mark>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^ {0,3}(?P=mark)[`~]*[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
_SHELL_INFO = re.compile(
    r"(?i)^(?:(?:bash|sh|shell|zsh|fish|console|shell-session|sh-session|terminal|powershell|ps1|pwsh|cmd|bat)"
    r"(?:\s|$)|$)"
)
_PROMPT_LINE = re.compile(r"(?m)^[ \t]*\$[ \t]+(?P<cmd>\S[^\n]*)$")
_TOKEN = re.compile(r"\S+")
_ENV = re.compile(r"^[A-Z_][A-Z0-9_]*=")
# Programs whose path arguments are made, moved or deleted by the command, not claimed to exist.
_WRITERS = word_set("rm rmdir mkdir touch mv cp ln install tee unzip tar git-rm git-mv")
SCRIPT_EXTENSIONS = word_set("sh bash zsh py js mjs cjs ts rb pl ps1 bat cmd")


def is_command(code: str) -> bool:
    """A code span that runs something: a known program with arguments, or a script path."""
    words = _words(code)
    if not words:
        return False
    first = words[0]
    if (first in PROGRAMS or first in _WRITERS) and len(words) > 1:
        return True
    return is_script(first) and (len(words) > 1 or "/" in first)


def is_script(token: str) -> bool:
    """`./x`, `bin/tool`, `scripts/deploy.sh`, `deploy.sh`: a program that is a file of the project."""
    if token.startswith("./") and len(token) > 2:
        return True
    if not looks_like_path(token) or any(ch in token for ch in "*?["):
        return False
    name = token.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return ext in SCRIPT_EXTENSIONS or token.startswith(("bin/", "scripts/", "script/", "tools/"))


def command_claims(code: str, start: int) -> list[Claim]:
    """The command claim of `code` (at offset `start` of the entry) and the path claims inside it."""
    stripped = code.strip()
    offset = start + code.index(stripped) if stripped else start
    tokens = list(_tokens(stripped, offset))
    if not tokens:
        return []
    text = stripped[tokens[0][1] - offset :]
    claims = [Claim("command", " ".join(text.split()), text, tokens[0][1], offset + len(stripped))]
    program = tokens[0][0]
    writer = program in _WRITERS or (
        program == "git" and len(tokens) > 1 and f"git-{tokens[1][0]}" in _WRITERS
    )
    for index, (token, at) in enumerate(tokens):
        value, at = _argument(token, at)
        if index == 0 and not is_script(value):
            continue
        if index > 0 and not looks_like_path(value):
            continue
        kind: ClaimKind = "glob" if any(ch in value for ch in "*?[") else "path"
        claims.append(
            Claim(kind, normalize_path(value), value, at, at + len(value), current=not (writer and index))
        )
    return claims


def shell_blocks(text: str) -> Iterator[tuple[int, int, list[tuple[int, str]]]]:
    """(start, end, [(offset, line)]) of every shell code fence and `$ ` line: the command lines
    they hold, comments and output left out."""
    fences = list(_FENCE.finditer(text))
    for fence in fences:
        info = fence["info"].strip()
        lines = _body_lines(fence)
        if not _SHELL_INFO.match(info):
            continue
        if not info and not any(is_command(line) for _, line in lines):
            continue  # a fence with no language and nothing that runs is not a shell block
        yield fence.start(), fence.end(), [(at, _unprompt(line)) for at, line in lines if _runs(line)]
    for match in _PROMPT_LINE.finditer(text):
        if any(f.start() <= match.start() < f.end() for f in fences):
            continue
        yield match.start(), match.end(), [(match.start("cmd"), match["cmd"])]


def shell_claims(text: str, mask: Callable[[int, int], None]) -> list[Claim]:
    """Claims of every shell block of `text`; `mask(start, end)` hides each block from later passes."""
    claims: list[Claim] = []
    for start, end, lines in shell_blocks(text):
        for at, line in lines:
            skip = len(line) - len(line.lstrip("$ \t"))
            command = _without_comment(line[skip:])
            if is_command(command):
                claims.extend(command_claims(command, at + skip))
        mask(start, end)
    return claims


def _body_lines(fence: re.Match[str]) -> list[tuple[int, str]]:
    lines, at = [], fence.start("body")
    for line in fence["body"].split("\n"):
        lines.append((at, line))
        at += len(line) + 1
    return lines


def _runs(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(("#", "//", ">", "REM "))


def _unprompt(line: str) -> str:
    return re.sub(r"^(\s*)\$\s+", r"\1", line)


def _without_comment(line: str) -> str:
    return re.split(r"\s+#\s", line, maxsplit=1)[0].rstrip()


def _words(code: str) -> list[str]:
    words = code.split()
    while words and (_ENV.match(words[0]) or words[0] in ("$", "sudo", "env")):
        words = words[1:]
    return words


def _tokens(code: str, offset: int) -> Iterator[tuple[str, int]]:
    """Tokens after any leading `$`, `sudo`, `env` and VAR=value, with their offsets."""
    started = False
    for match in _TOKEN.finditer(code):
        token = match.group(0)
        if not started and (_ENV.match(token) or token in ("$", "sudo", "env")):
            continue
        if token in ("|", "||", "&&", ";", "&"):
            return  # the first command of a pipeline or list is the one a code span names
        started = True
        yield token.strip("'\""), offset + match.start() + (1 if token[:1] in "'\"" else 0)


def _argument(token: str, at: int) -> tuple[str, int]:
    """The path part of an argument: `--config=conf/a.yaml` → `conf/a.yaml`."""
    if token.startswith("-") and "=" in token:
        name, _, value = token.partition("=")
        return value.strip("'\""), at + len(name) + 1
    return token.rstrip(",;"), at
