"""HYGIENE: the index defects `memory_layout.health.check_tree` finds, as findings with an action.

A bare pointer gets a trigger-form rewrite built from its topic file's frontmatter; a dangling
pointer loses only its link (or the whole line when the link was all it had); an orphan topic file is
reported only, since writing its pointer is the synthesiser's job.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path, PurePosixPath

from memory_layout import Defect, MemoryTree, check_tree
from memory_layout.health import linked_files
from memory_layout.pointers import EntryKind, classify, trigger_pointer

from .drafts import Draft, prefix_length
from .units import Unit

_ACTIONS = {
    "over-budget-lines": ("CLUSTER", 0.6, "retire what the audit found, then cluster crowded sections"),
    "over-budget-bytes": ("CLUSTER", 0.6, "retire what the audit found, then cluster crowded sections"),
    "crowded-section": ("CLUSTER", 0.6, "move the section's pointers to clusters/<section>.md"),
    "long-entry": ("NONE", 0.5, "keep index entries to one short line; move the detail to a topic file"),
    "orphan-topic": ("NONE", 0.5, "no action here: adding a trigger pointer for it is the synthesiser's job"),
    "broken-frontmatter": ("NONE", 0.5, "fix the YAML by hand"),
    "unclosed-fence": ("NONE", 0.5, "close the code fence"),
    "unreadable": ("NONE", 0.5, "skipped"),
}
_GENERIC_LINK_TEXT = re.compile(r"(?i)^(?:details?|more|see|here|link|notes?|[\w./-]+\.md)$")
_WHEN = re.compile(
    r"(?i)^(?:use |read |open |load )?(?:when|whenever|before|if)\s+(?P<cond>[^:.;—]+)[:.;—-]?\s*(?P<rest>.*)$"
)


def hygiene_findings(tree: MemoryTree, units: list[Unit], project_root: Path | None = None) -> list[Draft]:
    """HYGIENE drafts; a link that leads nowhere in the memory dir but names a file of the project
    (`[tests/AGENTS.md](tests/AGENTS.md)`) is a reference the agent can open, not a dangling pointer."""
    at = {(u.file, u.line): u for u in units if u.is_entry}
    drafts = []
    renames = _Renames(tree)  # built once: the links are resolved once, not once per dangling pointer
    for defect in check_tree(tree):
        if defect.kind == "dangling-pointer" and _in_project(project_root, defect.detail):
            continue
        unit = at.get((defect.file, defect.line))
        if defect.kind == "bare-pointer" and unit is not None:
            bare = _bare(tree, unit, defect)
            drafts.extend([bare] if bare else [])
        elif defect.kind == "dangling-pointer" and unit is not None:
            drafts.append(_dangling(renames, unit, defect))
        elif defect.kind in _ACTIONS:
            action, confidence, advice = _ACTIONS[defect.kind]
            draft = Draft("HYGIENE", unit, f"{defect.kind}: {defect.detail}; {advice}", action, confidence)  # type: ignore[arg-type]
            draft.file, draft.line = defect.file, defect.line
            drafts.append(draft)
        if drafts and not drafts[-1].reason:
            drafts[-1].reason = defect.kind
    return drafts


def _in_project(root: Path | None, detail: str) -> bool:
    target = detail.removesuffix(" does not exist")
    if root is None or not target or target.startswith(("/", "..")):
        return False
    try:
        return (root / target).exists()
    except OSError:
        return False


def _bare(tree: MemoryTree, unit: Unit, defect: Defect) -> Draft | None:
    link = unit.links[0] if unit.links else None
    target = tree.resolve_link(unit.file, link.file) if link else None
    evidence = f"bare-pointer: {defect.detail}; a pointer must say when to open the file"
    if link is None or target is None or target not in tree.files:
        return None  # the dangling-pointer finding covers it
    condition, takeaway = describe_topic(tree, target)
    text = unit.text[: prefix_length(unit)] + trigger_pointer(condition, takeaway, link.target)
    return Draft("HYGIENE", unit, evidence, "EDIT", 0.7, replacement=text)


def describe_topic(tree: MemoryTree, path: str) -> tuple[str, str]:
    """(task condition, takeaway) for a pointer to `path`, from its frontmatter or first lines."""
    doc = tree.files[path].document
    matter = doc.frontmatter if doc is not None else None
    name = (matter.name if matter else None) or _humanize(PurePosixPath(path).stem)
    description = (matter.description if matter else None) or _first_sentence(tree, path) or name
    description = " ".join(description.split())
    when = _WHEN.match(description)
    if when and when["rest"].strip():
        return when["cond"].strip(), when["rest"].strip()
    return f"working on {_humanize(name)}", description[:140]


def _humanize(name: str) -> str:
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", name).replace("_", " ").replace("-", " ").split()
    if words and words[0].lower() in ("feedback", "project", "reference", "user", "topic"):
        words = words[1:] or words
    return " ".join(words).lower()


def _first_sentence(tree: MemoryTree, path: str) -> str:
    doc = tree.files[path].document
    if doc is None:
        return ""
    for block in doc.blocks:
        if block.kind in ("other", "entry") and block.text.strip():
            text = re.sub(r"^[-*+]\s+", "", block.text.strip())
            return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0][:140]
    return ""


def _dangling(renames: _Renames, unit: Unit, defect: Defect) -> Draft:
    missing = defect.detail.removesuffix(" does not exist")
    evidence = f"dangling-pointer: {missing} does not exist in the memory dir"
    moved = renames.closest(missing)
    if moved is not None:
        text = unit.text.replace(f"({missing}", f"({moved}", 1)
        return Draft(
            "HYGIENE", unit, f"{evidence}; {moved} looks like the same file", "EDIT", 0.6, replacement=text
        )
    stripped = _without_link(unit.text, missing)
    if stripped == unit.text and classify(unit.content).kind is not EntryKind.BARE:
        return Draft("HYGIENE", unit, f"{evidence}; fix or drop the link by hand", "NONE", 0.5)
    if stripped != unit.text and re.sub(r"[\W_]+", "", stripped[prefix_length(unit) :]):
        return Draft(
            "HYGIENE",
            unit,
            f"{evidence}; keep the takeaway, drop the link",
            "EDIT",
            0.7,
            replacement=stripped,
        )
    return Draft("HYGIENE", unit, f"{evidence}; the line is only the broken link", "REMOVE", 0.8)


class _Renames:
    """Topic files no pointer reaches, by the trigrams of their names: where a dangling pointer's file
    may have moved. A missing name is compared with the few files that share the most trigrams with
    it, so D dangling pointers against T files cost about D·20 comparisons, not D·T."""

    CANDIDATES = 20

    def __init__(self, tree: MemoryTree) -> None:
        reachable = linked_files(tree)
        self.files = [(p, PurePosixPath(p).stem.lower()) for p in tree.topic_files() if p not in reachable]
        self.by_gram: dict[str, list[int]] = {}
        for number, (_, stem) in enumerate(self.files):
            for gram in _trigrams(stem):
                self.by_gram.setdefault(gram, []).append(number)

    def closest(self, missing: str) -> str | None:
        wanted = PurePosixPath(missing).stem.lower()
        shared: Counter[int] = Counter()
        for gram in _trigrams(wanted):
            shared.update(self.by_gram.get(gram, ()))
        if len(wanted) < 3:
            shared.update(range(len(self.files)))  # too short for trigrams: compare with all
        best, score = None, 0.0
        for number, _ in shared.most_common(self.CANDIDATES):
            path, stem = self.files[number]
            ratio = SequenceMatcher(None, wanted, stem).ratio()
            if ratio > score:
                best, score = path, ratio
        return best if score >= 0.85 else None


def _trigrams(text: str) -> set[str]:
    return {text[i : i + 3] for i in range(len(text) - 2)}


# One pattern for every link (compiled once); the callbacks keep the links to other files.
_ANY_LINK = re.compile(
    r"\s*(?:→|->|=>)?\s*(?:see\s+)?\[(?P<label>[^\]\n]*)\]\(<?(?P<target>[^)\s#>]+)(?:#[^)\s]*)?>?(?:\s+\"[^\"]*\")?\)"
)
_ANY_WIKI = re.compile(r"\[\[(?P<stem>[^\]|#]+)(?:[|#][^\]]*)?\]\]")


def _without_link(text: str, target: str) -> str:
    def keep_text(match: re.Match[str]) -> str:
        if match["target"] != target:
            return match.group(0)
        label = match["label"].strip()
        return "" if _GENERIC_LINK_TEXT.match(label) else f" {label}"

    stem = PurePosixPath(target).stem
    result = _ANY_LINK.sub(keep_text, text)
    return _ANY_WIKI.sub(lambda m: "" if m["stem"] == stem else m.group(0), result).rstrip()
