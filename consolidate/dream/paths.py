"""A numbered file a rule names, spelt as the project spells it.

A rule generalised from "write the plan to notes/chore-2" names `notes/chore-N`; when the project's
files (or its memory, or the sessions the rule comes from) name `notes/chores-1`, `notes/chores-2`, the
rule says `notes/chores-N`: the spelling a future session can find. Only a name of the same shape — the
same folder and stem, a plural `s` and the number aside — is taken: the project's files first, then the
memory and the evidence, and only when every such name agrees; when they disagree (the user wrote
`chore-3` once, the file is `chores-3.md`) the rule names the folder alone, when it has one. The
evidence is what the user typed, typos and all: it does not respell a name the learning's own words
spell again elsewhere ("the current `notes/chores-N.md`, or a new `chores-(N+1).md`", a note naming
`chores-2.md`) — whoever wrote the learning saw that spelling; the files and the memory still decide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

_NUMBERED = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[A-Za-z][\w.]*?(?:-|_)?(?:N|\d+))(\.(?:md|txt|rst))?(?![\w/-])"
)
_EXTENSION = re.compile(r"\.(?:md|txt|rst)$", re.IGNORECASE)


def _shape(name: str) -> str:
    """Its folder and stem, lower-cased, a plural `s` and the number (or `N`) left out."""
    base = _EXTENSION.sub("", name.strip("`'\".,;:()").lower())
    return re.sub(r"s?[-_]?(?:\d+|n)$", "#", base)


def _general(name: str) -> str:
    """The name with its number written `N`, its extension left out."""
    return re.sub(r"\d+$", "N", _EXTENSION.sub("", name))


def real_names(
    principle: str,
    memory: Iterable[str],
    evidence: Iterable[str],
    root: Path | None = None,
    own: Iterable[str] = (),
) -> str:
    """`principle` with each numbered name written with `N` (`notes/chore-N`) spelt as the files under
    `root` spell a name of its shape, else as the `memory` or else the `evidence` names one, when it
    spells it one way; when it spells it several ways the rule names the folder alone (`notes/`), or
    keeps its own name. The evidence does not respell a name that the principle or the learning's
    `own` other texts (its detail, reason, note) spell again, with a number or `(N+1)`."""
    memory_texts, evidence_texts, own_texts = list(memory), list(evidence), list(own)

    def spelt(match: re.Match[str]) -> str:
        token, extension = match[1], match[2] or ""
        if not re.search(r"[-_]N$", token):
            return match[0]  # a rule naming one numbered file names that one
        sources = [_listing(root, token), memory_texts]
        elsewhere = principle[: match.start()] + principle[match.end() :]
        if not _spelt_again(token, [elsewhere, *own_texts]):
            sources.append(evidence_texts)
        for source in sources:
            seen = _spellings(token, source)
            if len(seen) == 1:
                return seen.pop() + extension
            if seen:
                return token.rsplit("/", 1)[0] + "/" if "/" in token else match[0]
        return match[0]

    return _NUMBERED.sub(spelt, principle)


def _spelt_again(token: str, texts: list[str]) -> bool:
    """Whether `texts` name a numbered file spelt as the token is (`chores-2.md`, `chores-(N+1).md` for
    `notes/chores-N`)."""
    stem = re.escape(token.rsplit("/", 1)[-1][:-1])
    again = re.compile(rf"(?<![\w-]){stem}(?:\d|\(N\b)")
    return any(again.search(text) for text in texts)


def _spellings(token: str, texts: Iterable[str]) -> set[str]:
    """How `texts` spell the numbered names of the token's shape (with `N` for the number)."""
    folder = "/" in token
    wanted = _shape(token)
    seen: set[str] = set()
    for text in texts:
        for found in _NUMBERED.finditer(text):
            name = found[1] if folder else found[1].rsplit("/", 1)[-1]
            if _shape(name) == wanted and re.search(r"(?:\d|[-_]N)$", name):
                seen.add(_general(name))
    return seen


def _listing(root: Path | None, token: str) -> list[str]:
    """The names of the project's files the token may name: those of the folder it names (`notes/` of
    `notes/chore-N`), or for a bare name those at the top and one folder down (hidden ones left out)."""
    if root is None:
        return []
    if "/" in token:
        folder = token.rsplit("/", 1)[0]
        return [f"{folder}/{name}" for name in _files(root / folder)]
    found = list(_files(root))
    for sub in _folders(root):
        found += _files(sub)
    return found


def _files(folder: Path) -> list[str]:
    try:
        return [p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    except OSError:
        return []


def _folders(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")]
    except OSError:
        return []
