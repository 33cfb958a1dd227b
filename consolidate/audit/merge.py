"""Merged text for MERGE findings: one entry that keeps every distinct clause of the entries it
absorbs (and is shorter than they were together), and merged topic files.

Topic files are merge candidates when their bodies overlap or their names share a prefix
(`feedback_testing.md`, `feedback_testing_mocks.md`) and their bodies overlap somewhat.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from memory_layout import MemoryTree

from .claims import extract_claims
from .drafts import Draft, prefix_length
from .similar import containment, jaccard, similar_pairs, stemmed, tokens
from .units import Unit

_LINK_TAIL = re.compile(r"\s*(?:→|->|=>)?\s*(?:see\s+)?(?:\[[^\]\n]*\]\([^)\n]*\)\s*)+$", re.IGNORECASE)
_TRIGGER = re.compile(r"^\s*\*\*[^*\n]*\*\*:?\s*")
_CLAUSE = re.compile(r"(?<=[.;!?。；])\s+")
MAX_MERGED_RATIO = 0.8  # a merge that is barely shorter than its parts is two statements, not one
# A clause is dropped only when every word of it is already said, light verbs and connectives aside.
LIGHT_WORDS = stemmed(
    "come comes need needs get gets go goes make makes take takes do done keep keeps hold holds "
    "since because therefore thus hence also then however but while whereas otherwise"
)


def split_tail(content: str) -> tuple[str, str]:
    """(body, the trailing ` → [detail](file.md)` link part, or '')."""
    match = _LINK_TAIL.search(content)
    if not match or match.start() == 0:
        return content, ""
    return content[: match.start()], content[match.start() :]


def merged_entry(kept: Unit, absorbed: list[Unit]) -> str | None:
    """`kept` plus the clauses of `absorbed` it does not already say; None if not shorter."""
    body, tail = split_tail(kept.content)
    have = set(tokens(body))
    added: list[str] = []
    for unit in absorbed:
        other, _ = split_tail(unit.content)
        for clause in _CLAUSE.split(_TRIGGER.sub("", other.strip())):
            words = tokens(clause)
            if words - have - LIGHT_WORDS or _new_values(clause, merged_so_far(body, added)):
                added.append(_capitalised(_sentence(clause)))
                have |= words
    merged_body = body.rstrip()
    if added:
        merged_body = _sentence(merged_body) + " " + " ".join(added)
    text = kept.text[: prefix_length(kept)] + merged_body + tail
    original = len(kept.text) + sum(len(u.text) for u in absorbed)
    return text if len(text) <= MAX_MERGED_RATIO * original else None


def merged_so_far(body: str, added: list[str]) -> str:
    return " ".join([body, *added])


def _new_values(clause: str, text: str) -> bool:
    """A code span or number in `clause` that `text` does not contain (commands differ by a flag)."""
    values = re.findall(r"`[^`\n]+`|\b\d+(?:\.\d+)*\b", clause)
    return any(value not in text for value in values)


def _capitalised(clause: str) -> str:
    """A clause that now follows a full stop starts its sentence: "tag the commit" → "Tag the commit"
    (a lowercase word only: a code span, a path or a name with capitals inside stays as written)."""
    first = clause.split(" ", 1)[0]
    if first.isalpha() and first.islower():
        return clause[:1].upper() + clause[1:]
    return clause


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", "。", ";", ")", "`")) else text + "."


def topic_merges(tree: MemoryTree, units: list[Unit], taken: set[int]) -> list[Draft]:
    """MERGE drafts for pairs of topic files that say much the same."""
    topics = [p for p in tree.topic_files() if tree.files[p].document is not None]
    bodies = {p: _body(tree, p) for p in topics}
    sets = [tokens(bodies[p]) for p in topics]
    pairs = {(i, j) for i, j, _ in similar_pairs(sets, 0.5) if _restates(sets[i], sets[j])}
    pairs |= {(i, j) for i, j in _same_prefix(topics) if jaccard(sets[i], sets[j]) >= 0.35}
    entities = {i: _entities(bodies[topics[i]]) for i in {i for pair in pairs for i in pair}}  # paired ones
    pairs = {(i, j) for i, j in pairs if not (entities[i] and entities[j] and not entities[i] & entities[j])}
    pointers = _pointers(tree, units)
    drafts: list[Draft] = []
    used: set[int] = set()
    for i, j in sorted(pairs):
        if i in used or j in used:
            continue
        kept, gone = sorted(
            (topics[i], topics[j]), key=lambda p: (tree.files[p].document is not None, len(bodies[p]))
        )[::-1]
        draft = _topic_draft(tree, kept, gone, bodies, pointers, jaccard(sets[i], sets[j]))
        if draft is not None and not (draft.unit is not None and id(draft.unit) in taken):
            drafts.append(draft)
            used.update((i, j))
            taken.update(id(u) for u in [draft.unit, *draft.related] if u is not None)
    return drafts


def _body(tree: MemoryTree, path: str) -> str:
    doc = tree.files[path].document
    assert doc is not None
    return "".join(b.text for b in doc.blocks if b.kind != "frontmatter")


def _entities(text: str) -> frozenset[str]:
    return frozenset(c.value for c in extract_claims(text) if c.kind in ("path", "glob", "symbol"))


def _restates(a: frozenset[str], b: frozenset[str]) -> bool:
    """The smaller file says (almost) nothing the larger does not."""
    small, large = sorted((a, b), key=len)
    return containment(small, large) >= 0.9


def _same_prefix(paths: list[str]) -> list[tuple[int, int]]:
    """Pairs whose names share a prefix after the memory-type word: `feedback_x_export` and
    `feedback_x_export_notes` do, `project_a_flow` and `project_b_flow` do not. (Two names sharing
    two words, or one whole name that is the other's first word: found by grouping on the first
    words, never by comparing every pair.)"""
    by_first: dict[str, list[int]] = {}
    for index, words in enumerate(_subject_words(p) for p in paths):
        if words:
            by_first.setdefault(words[0], []).append(index)
    lengths = [len(_subject_words(p)) for p in paths]
    seconds = [(_subject_words(p) + [""])[1] for p in paths]
    found: set[tuple[int, int]] = set()
    for members in by_first.values():
        if len(members) < 2:
            continue
        by_second: dict[str, list[int]] = {}
        for index in members:
            if lengths[index] == 1:  # a one-word name prefixes every other name with that word
                found.update((min(index, other), max(index, other)) for other in members if other != index)
            else:
                by_second.setdefault(seconds[index], []).append(index)
        for group in by_second.values():
            found.update((i, j) for n, i in enumerate(group) for j in group[n + 1 :])
    return sorted(found)


def _subject_words(path: str) -> list[str]:
    words = re.split(r"[_\-\s]+", PurePosixPath(path).stem.lower())
    return words[1:] if len(words) > 1 and words[0] in _TYPE_WORDS else words


_TYPE_WORDS = frozenset(["feedback", "project", "reference", "user", "topic", "note", "notes"])


def _pointers(tree: MemoryTree, units: list[Unit]) -> dict[str, Unit]:
    """Topic file → the index or cluster entry that points at it."""
    found: dict[str, Unit] = {}
    for unit in units:
        if unit.source in ("index", "cluster"):
            for link in unit.links:
                target = tree.resolve_link(unit.file, link.file)
                if target:
                    found.setdefault(target, unit)
    return found


def _topic_draft(
    tree: MemoryTree, kept: str, gone: str, bodies: dict[str, str], pointers: dict[str, Unit], score: float
) -> Draft | None:
    kept_text = tree.files[kept].document.render()  # type: ignore[union-attr]
    extra = [p for p in re.split(r"\n\s*\n", bodies[gone]) if p.strip() and not p.lstrip().startswith("# ")]
    have = tokens(kept_text)
    new_parts = [p.strip() for p in extra if containment(tokens(p), have) < 0.8]
    content = kept_text.rstrip("\n") + ("\n\n" + "\n\n".join(new_parts) if new_parts else "") + "\n"
    if len(content) >= len(kept_text) + len(tree.files[gone].data):
        return None
    kept_pointer, gone_pointer = pointers.get(kept), pointers.get(gone)
    replacement = ""
    if kept_pointer is not None:
        replacement = (
            merged_entry(kept_pointer, [gone_pointer]) if gone_pointer else None
        ) or kept_pointer.text
    evidence = (
        f"{score:.0%} of the words of {gone} are shared with {kept}; {gone} is merged into it (text below)"
    )
    draft = Draft(
        "MERGE", kept_pointer, evidence, "MERGE", 0.65, replacement=replacement, reason="topic-files"
    )
    draft.related = [gone_pointer] if gone_pointer is not None else []
    draft.topic_file, draft.topic_content = gone, content
    draft.file = kept
    return draft
