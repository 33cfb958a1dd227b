"""Classify one memory entry: trigger pointer, always-on pointer, bare pointer (a defect) or note.

Pointer format (every index entry is a load trigger, not a label):
- trigger:   `**When <task-condition>:** <one-line takeaway>. → [detail](file.md)`
- always-on: `<terse fact>. → [detail](file.md)`
A link with nothing to say about when to open it is a bare pointer: loaded every session, never used.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache


class EntryKind(StrEnum):
    TRIGGER = "trigger"
    ALWAYS_ON = "always-on"
    BARE = "bare"
    NOTE = "note"


@dataclass(frozen=True)
class Link:
    text: str
    target: str

    @property
    def file(self) -> str:
        """The linked path without its `#anchor`."""
        return self.target.split("#", 1)[0]


LIST_MARKER = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[-*+]|\d{1,9}[.)])(?P<space>[ \t]+|$)")
_MD_LINK = re.compile(r"\[(?P<text>[^\]\n]*)\]\((?P<target><[^>\n]*>|[^)\s]+)(?:\s+\"[^\"\n]*\")?\)")
_WIKI_LINK = re.compile(r"\[\[(?P<name>[^\]|#\n]+)(?:[|#][^\]\n]*)?\]\]")
_BARE_FILENAME = re.compile(r"^`?[\w./-]+\.md`?$")
_TRIGGER = re.compile(
    r"^\*\*\s*(?P<cond>(?:when|before|after|if|while|whenever)\b[^*]*?)\s*:?\s*\*\*\s*:?\s*(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_ARROW_TAIL = re.compile(r"\s*(?:→|->|=>)\s*(?:see\s+)?$", re.IGNORECASE)
_FILLER = re.compile(r"(?:→|->|=>|—|–|-|:|\.|,|;|\(|\)|\bsee\b|\bdetails?\b|\bmore\b|\s)+", re.IGNORECASE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_BACKTICKS = re.compile(r"`+")


def code_spans(line: str) -> tuple[list[tuple[int, int]], bool]:
    """The (start, end) of each code span in `line`, and whether every backtick run closed (a
    backslash-escaped backtick is plain text)."""
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line) if not _escaped(line, m.start())]
    spans: list[tuple[int, int]] = []
    closed = True
    index = 0
    while index < len(runs):
        start, end = runs[index]
        size = end - start
        closing = next((j for j in range(index + 1, len(runs)) if runs[j][1] - runs[j][0] == size), None)
        if closing is None:  # a run no run of its length closes is literal text; the spans after it stand
            closed = False
            index += 1
            continue
        spans.append((start, runs[closing][1]))
        index = closing + 1
    return spans, closed


def _escaped(line: str, index: int) -> bool:
    backslashes = len(line[:index]) - len(line[:index].rstrip("\\"))
    return backslashes % 2 == 1


def _code_regions(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every fenced block and inline code span of `text`: a `[[bin]]` or
    `[x](y.md)` written as code is an example, never a link to follow, check or rewrite."""
    if "`" not in text and "~~~" not in text:
        return []
    regions: list[tuple[int, int]] = []
    position = 0
    prose: list[tuple[int, int]] = []
    while (opening := _FENCE_OPEN.search(text, position)) is not None:
        prose.append((position, opening.start()))
        fence = opening[1]
        closer = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        line_end = text.find("\n", opening.end())
        closing = closer.search(text, line_end + 1) if line_end != -1 else None
        end = closing.end() if closing else len(text)
        regions.append((opening.start(), end))
        position = end
    prose.append((position, len(text)))
    for start, end in prose:
        for line in re.finditer(r"[^\n]+", text[start:end]):
            offset = start + line.start()
            regions.extend((offset + a, offset + b) for a, b in code_spans(line[0])[0])
    return sorted(regions)


def _in_code(regions: list[tuple[int, int]], index: int) -> bool:
    at = bisect.bisect_right(regions, (index, 1 << 62)) - 1
    return at >= 0 and regions[at][0] <= index < regions[at][1]


def _outside_code(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    regions = _code_regions(text)
    return [m for m in pattern.finditer(text) if not _in_code(regions, m.start())]


def _sub_outside_code(pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str], text: str) -> str:
    regions = _code_regions(text)
    return pattern.sub(lambda m: m.group(0) if _in_code(regions, m.start()) else replace(m), text)


def strip_marker(line: str) -> str:
    """The text of a list item's first line without its bullet or number."""
    match = LIST_MARKER.match(line)
    return line[match.end() :] if match else line.lstrip()


def is_memory_target(target: str) -> bool:
    """A link that points at a local Markdown file (not a URL, not an anchor)."""
    file = target.strip("<>").split("#", 1)[0]
    return bool(file) and not _SCHEME.match(file) and file.lower().endswith(".md")


def find_links(text: str) -> list[Link]:
    """Markdown links and `[[wiki]]` links to memory files, in order of appearance (none in code)."""
    found: list[tuple[int, Link]] = []
    for pattern in (_MD_LINK, _WIKI_LINK):
        for match in _outside_code(pattern, text):
            if target := _target_of(match):
                shown = match["text"] if pattern is _MD_LINK else match["name"].strip()
                found.append((match.start(), Link(shown, target)))
    return [link for _, link in sorted(found, key=lambda pair: pair[0])]


def quoted_links(text: str, resolves: Callable[[str], bool]) -> str:
    """`text` with each link to a memory file that does not lead anywhere (`resolves(target)` is false)
    written as code: a rule quoting a line of another file ("below the `[done.md](done.md)` line")
    says what that line reads, it does not point at a file of its own."""
    dead = [
        (match.start(), match.end())
        for pattern in (_MD_LINK, _WIKI_LINK)
        for match in _outside_code(pattern, text)
        if (target := _target_of(match)) and not resolves(target)
    ]
    if not dead:
        return text
    for start, end in sorted(dead, reverse=True):
        text = text[:start] + _as_code(text[start:end]) + text[end:]
    return text


def _target_of(match: re.Match[str]) -> str:
    """The memory file a Markdown or `[[wiki]]` link match points at ("" for a URL, an anchor)."""
    if "target" in match.re.groupindex:
        target = match["target"].strip("<>")
        return target if is_memory_target(target) else ""
    name = match["name"].strip()
    return name if name.lower().endswith(".md") else f"{name}.md"


def _as_code(text: str) -> str:
    """`text` as one inline code span, fenced by a backtick run longer than any inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _without_links(text: str) -> str:
    return _WIKI_LINK.sub(" ", _MD_LINK.sub(" ", text))


@dataclass(frozen=True)
class Pointer:
    """What an entry says: its kind, trigger condition, takeaway and links."""

    kind: EntryKind
    trigger: str | None
    takeaway: str
    links: tuple[Link, ...]


@lru_cache(maxsize=8192)
def classify(content: str) -> Pointer:
    """Classify entry text (list marker already stripped; continuation lines allowed)."""
    text = content.strip()
    links = tuple(find_links(text))
    trigger_match = _TRIGGER.match(text)
    trigger = trigger_match["cond"].strip() if trigger_match else None
    body = trigger_match["rest"] if trigger_match else text
    takeaway = _ARROW_TAIL.sub("", _without_links(body)).strip()
    if not links:
        if _BARE_FILENAME.match(text):
            return Pointer(EntryKind.BARE, None, "", (Link(text.strip("`"), text.strip("`")),))
        return Pointer(EntryKind.NOTE, trigger, takeaway, links)
    if trigger is not None and _FILLER.sub("", takeaway):
        return Pointer(EntryKind.TRIGGER, trigger, takeaway, links)
    if trigger is None and _FILLER.sub("", takeaway):
        return Pointer(EntryKind.ALWAYS_ON, None, takeaway, links)
    return Pointer(EntryKind.BARE, trigger, takeaway, links)


def trigger_pointer(condition: str, takeaway: str, file: str | None = None, label: str = "detail") -> str:
    """Render a trigger-form pointer line (without the list marker)."""
    condition = condition.strip().rstrip(":").strip()
    if condition.lower().startswith("when "):
        condition = condition[5:]
    text = f"**When {condition}:** {_sentence(takeaway)}"
    return f"{text} → [{label}]({file})" if file else text


def always_on_pointer(fact: str, file: str | None = None) -> str:
    """Render an always-on pointer line (without the list marker)."""
    text = _sentence(fact)
    return f"{text} → [detail]({file})" if file else text


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text if text.rstrip(")\"'”*").endswith((".", "!", "?", "…")) or not text else f"{text}."


def unlink(text: str, dead: Callable[[str], bool]) -> str:
    """`text` with every memory link whose target is `dead` turned into its plain label."""

    def plain(match: re.Match[str]) -> str:
        target = match["target"].strip("<>") if match.re is _MD_LINK else f"{match['name'].strip()}.md"
        if not is_memory_target(target) or not dead(target):
            return match.group(0)
        return match["text"] if match.re is _MD_LINK else match["name"].strip()

    return _sub_outside_code(_WIKI_LINK, plain, _sub_outside_code(_MD_LINK, plain, text))


def retarget_links(text: str, target_of: Callable[[str], str | None]) -> str:
    """`text` with each memory link sent where `target_of(target)` says; a link it has no place for
    (None) becomes its plain label, so nothing is left pointing at a file that is not there."""

    def move(match: re.Match[str]) -> str:
        wiki = match.re is _WIKI_LINK
        target = f"{match['name'].strip()}.md" if wiki else match["target"].strip("<>")
        if not is_memory_target(target):
            return match.group(0)
        new = target_of(target)
        label = match["name"].strip() if wiki else match["text"]
        return label if new is None else f"[{label}]({new})"

    return _sub_outside_code(_WIKI_LINK, move, _sub_outside_code(_MD_LINK, move, text))


def has_broken_link(text: str) -> bool:
    """Text with link syntax (`](`) that does not parse as a link, e.g. a target with a space."""
    regions = _code_regions(text)
    syntax = sum(1 for m in re.finditer(r"\]\(", text) if not _in_code(regions, m.start()))
    return syntax > len(_outside_code(_MD_LINK, text))


def rebase_links(text: str, source_dir: str, target_dir: str) -> str:
    """Rewrite relative memory links in `text` as seen from `target_dir` instead of `source_dir`."""

    def rewrite(match: re.Match[str]) -> str:
        target = match["target"].strip("<>")
        if not is_memory_target(target) or target.startswith("/"):
            return match.group(0)
        file, _, anchor = target.partition("#")
        absolute = posixpath.normpath(posixpath.join(source_dir or ".", file))
        moved = posixpath.relpath(absolute, target_dir or ".")
        new_target = moved + (f"#{anchor}" if anchor else "")
        if match["target"].startswith("<"):  # `<my notes.md>` stays bracketed, or it stops being a link
            new_target = f"<{new_target}>"
        return match.group(0).replace(f"({match['target']}", f"({new_target}", 1)

    return _sub_outside_code(_MD_LINK, rewrite, text)
