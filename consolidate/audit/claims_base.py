"""The claim type and the word lists that tell a path, a program or a file name when one is written."""

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
# A file name written without a folder in prose is a claim only with one of these: a code or
# configuration file, not a document or a picture whose name is also an ordinary word.
CODE_EXTENSIONS = word_set(
    "py pyi js mjs cjs ts tsx jsx json jsonc toml yaml yml sh bash zsh go rs rb java kt kts c h cc cpp "
    "hpp cs sql lock cfg ini vue svelte swift php proto gradle mk lua zig ex exs dart tf hcl scala"
)
ROOT_FILES = word_set(
    "Makefile GNUmakefile Dockerfile Justfile justfile Procfile Gemfile Rakefile Vagrantfile Brewfile "
    "CODEOWNERS LICENSE Containerfile Jenkinsfile Taskfile"
)
PROGRAMS = word_set(
    "npm npx pnpm yarn bun make just pytest python python3 uv uvx poetry pip pip3 pipx cargo go docker "
    "docker-compose kubectl git tox nox ruff mypy black isort flake8 eslint prettier tsc vitest jest node "
    "deno mvn gradle ./gradlew bundle rake rails mix dotnet bash sh zsh pre-commit alembic django-admin "
    "flask uvicorn gunicorn hatch pdm rye terraform helm gh cmake ninja swift source"
)


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


def looks_like_path(code: str) -> bool:
    """`src/app.py`, `tests/**/*.py`, `Makefile`, `.env`: a file or folder of the project."""
    if "://" in code or code.startswith(("~", "$", "<", "@")) or re.search(r"[<>{}|\"'=]", code):
        return False
    name = code.rstrip("/").rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if "/" in code:
        return bool(re.fullmatch(r"[\w./*?\[\]@+-]+", code)) and not code.startswith("/")
    if any(ch in code for ch in "*?") and ext:
        return True
    return name in ROOT_FILES or ext.lower() in EXTENSIONS or bool(re.fullmatch(r"\.[\w.-]+", name))


def normalize_path(path: str) -> str:
    path = path.strip().strip("`")
    while path.startswith("./"):
        path = path[2:]
    return path
