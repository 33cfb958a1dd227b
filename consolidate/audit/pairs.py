"""Findings about entries taken together: exact duplicates and entries CLAUDE.md already says
(REDUNDANT), near-duplicates (MERGE), an older entry a newer one replaced (SUPERSEDED) and two
entries that state different values for the same thing (CONTRADICT).

Candidates come from an exact similarity join (`similar`) and small inverted indexes, never from all pairs.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

from .claims import RUNTIMES, Claim
from .drafts import Draft
from .merge import merged_entry
from .similar import containment, jaccard, similar_pairs, stemmed, tokens
from .units import Unit
from .versions import conflicting

MERGE_THRESHOLD = 0.5
VALUE_THRESHOLD = 0.4  # the share of words two statements of one thing with other values have in common
MIN_STANDALONE_WORDS = 8  # a shorter duplicate in another section may depend on its heading
_REQUIREMENT = re.compile(
    r"(?i)\b(?:uses?|using|requires?|needs?|pinned|pin|targets?|runs? on|on|built on|upgrade[ds]? to)\s*$"
)
_IDENTIFIER = re.compile(
    r"(?:#|\b(?:case|step|item|issue|ticket|pr|no\.?|number|phase|part|round))\s*$", re.I
)
_VALUE = re.compile(r"(?<![\w./-])\d+(?:\.\d+)*(?:\.x)?(?![\w/-])")
# A phrase before its keyword starts after the previous `.;,` (or at the start): anchoring it there
# keeps the search linear (unanchored, the lazy group is retried from every position of a long run).
_MIGRATIONS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\b(?:switched|migrated|moved|changed|went|upgraded|ported)\s+(?:over\s+)?from\s+(?P<old>[^.;,]+?)\s+(?:to|→|->)\s+(?P<new>[^.;,]+)",
        r"\breplaced\s+(?P<old>[^.;,]+?)\s+(?:with|by)\s+(?P<new>[^.;,]+)",
        r"\b(?:no longer|don'?t|do not|stop)\s+us(?:e|es|ing)\s+(?P<old>[^.;,]+)",
        r"\buse\s+(?P<new>\S+)\s+instead of\s+(?P<old>[^.;,]+)",
        r"(?<!\S)(?P<old>\S+)\s+(?:is|are)\s+(?:now\s+)?deprecated",
        r"перешли\s+с\s+(?P<old>[^.;,]+?)\s+на\s+(?P<new>[^.;,]+)",
        r"(?:^|(?<=[.;,]))(?P<new>[^.;,]+?)\s+вместо\s+(?P<old>[^.;,]+)",
        r"从(?P<old>[^，。；,.;]+?)(?:迁移|切换|换)到(?P<new>[^，。；,.;]+)",
        r"不再使用(?P<old>[^，。；,.;]+)",
        r"(?:^|(?<=[.;,]))(?P<old>[^.;,]+?)\s+yerine\s+(?P<new>[^.;,]+)",
    )
]
_MIGRATION_VERBS = stemmed(
    "switched migrated moved changed went upgraded ported replaced longer don't use uses using stop "
    "instead deprecated now перешли вместо yerine"
)


def recency(unit: Unit) -> tuple[datetime, int]:
    """Newer sorts later: by the git or file date of the entry, then by its position."""
    when = unit.date or datetime.min
    return when.replace(tzinfo=None), unit.order


def pair_findings(
    units: list[Unit], references: list[Unit], manifest_packages: frozenset[str] = frozenset()
) -> list[Draft]:
    """REDUNDANT, CONTRADICT, SUPERSEDED and MERGE drafts; each memory unit in at most one of them.

    Version disagreements over a package a manifest pins are left to the per-entry check.
    """
    memory = [u for u in units if u.is_memory]
    sets = [tokens(u.content) for u in memory]
    taken: set[int] = set()
    drafts = _exact_duplicates(memory, taken)
    drafts += _superseded(memory, sets, taken)
    drafts += _value_conflicts(memory, sets, taken)
    drafts += _version_conflicts(memory, taken, manifest_packages)
    drafts += _redundant_with(memory, sets, references, taken)
    drafts += _merges(memory, sets, similar_pairs(sets, MERGE_THRESHOLD), taken)
    return drafts


def _key(unit: Unit) -> str:
    return " ".join(unit.content.casefold().split())


def _exact_duplicates(memory: list[Unit], taken: set[int]) -> list[Draft]:
    first: dict[str, Unit] = {}
    drafts = []
    for unit in sorted(memory, key=recency):
        key = _key(unit)
        if len(key) < 12:
            continue
        if key in first and unit.is_entry:
            kept = first[key]
            evidence = f"the same text is already at {kept.file}:{kept.line}"
            standalone = kept.section == unit.section or len(tokens(unit.content)) >= MIN_STANDALONE_WORDS
            if standalone:
                drafts.append(
                    Draft(
                        "REDUNDANT", unit, evidence, "REMOVE", 0.95, related=[kept], reason="exact-duplicate"
                    )
                )
            else:
                evidence += f" (under '{kept.section}'; here under '{unit.section}', where it may mean something else)"
                drafts.append(
                    Draft("REDUNDANT", unit, evidence, "NONE", 0.6, related=[kept], reason="exact-duplicate")
                )
            taken.add(id(unit))
        first.setdefault(key, unit)
    return drafts


def migrations(text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """(old terms, new terms) of every "switched from X to Y"-style statement in `text`."""
    found = []
    for pattern in _MIGRATIONS:
        for match in pattern.finditer(text):
            groups = match.groupdict()
            old = tokens(groups.get("old") or "") - _MIGRATION_VERBS
            new = _leading_term(groups.get("new") or "")
            if old and len(old) <= 3:
                found.append((frozenset(old), frozenset(new)))
    return found


def _leading_term(phrase: str) -> frozenset[str]:
    """The thing switched to: the first content word of "Vitest for unit tests"."""
    for word in re.findall(r"[^\W_]+", phrase.casefold()):
        if word in tokens(word) and word not in _MIGRATION_VERBS:
            return frozenset([word])
    return frozenset()


def _superseded(memory: list[Unit], sets: list[frozenset[str]], taken: set[int]) -> list[Draft]:
    by_token: dict[str, list[int]] = defaultdict(list)
    for index, items in enumerate(sets):
        for token in items:
            by_token[token].append(index)
    drafts = []
    for newer_index, newer in enumerate(memory):
        for old, new in migrations(newer.content):
            for index in _mentioning(by_token, old):
                older = memory[index]
                if index == newer_index or id(older) in taken or recency(older) >= recency(newer):
                    continue
                if new & sets[index] or len((sets[index] & sets[newer_index]) - old) < 2:
                    continue
                drafts.append(_superseded_draft(older, newer, sets[index], sets[newer_index], old))
                taken.add(id(older))
    return drafts


def _mentioning(by_token: dict[str, list[int]], terms: Iterable[str]) -> list[int]:
    lists = [set(by_token.get(t, ())) for t in terms]
    return sorted(set.intersection(*lists)) if lists else []


def _superseded_draft(
    older: Unit, newer: Unit, old_set: frozenset[str], new_set: frozenset[str], old: frozenset[str]
) -> Draft:
    evidence = f"a newer entry ({newer.file}:{newer.line}) says {', '.join(sorted(old))} was replaced"
    extra = old_set - new_set - {"use", "uses", "using", "we"}
    removable = (
        older.is_entry and not older.links and older.source in ("index", "cluster") and len(extra) <= 2
    )
    draft = Draft(
        "SUPERSEDED",
        older,
        evidence,
        "REMOVE" if removable else "NONE",
        0.75 if removable else 0.55,
        related=[newer],
    )
    draft.reason, draft.fact = "replaced", f"{newer.file}:{newer.line}: {newer.content[:160]}"
    return draft


def _values(unit: Unit) -> frozenset[str]:
    """Numbers and commands: what two statements of the same thing can disagree on. A number that
    names something (`#12`, `case 3`, `issue 40`) is an identifier, not a value."""
    numbers = {
        m.group(0) for m in _VALUE.finditer(unit.content) if not _IDENTIFIER.search(unit.content[: m.start()])
    }
    return frozenset(numbers | {c.value for c in unit.claims if c.kind == "command"})


def _words_around_values(unit: Unit) -> frozenset[str]:
    """The words of the entry once its numbers and code spans are blanked out."""
    return tokens(_VALUE.sub(" ", re.sub(r"`[^`\n]*`", " ", unit.content)))


def _entities(unit: Unit) -> frozenset[str]:
    return frozenset(c.value for c in unit.claims if c.kind in ("path", "glob", "symbol"))


def different_subjects(a: Unit, b: Unit) -> bool:
    """Both name files or symbols, and none in common: they are about different things."""
    ea, eb = _entities(a), _entities(b)
    return bool(ea and eb and not ea & eb)


def _value_conflicts(memory: list[Unit], sets: list[frozenset[str]], taken: set[int]) -> list[Draft]:
    """Near-identical statements that differ only in a value: "port is 8080" vs "port is 3000"."""
    drafts = []
    # each entry's values, computed once; an entry with none is in no conflict of values, so only the
    # entries with values are joined (the same pairs, in the same order, as a join of all entries
    # whose pairs with no value on one side are passed over)
    values = [_values(u) for u in memory]
    valued = [i for i, found in enumerate(values) if found]
    entities: dict[int, frozenset[str]] = {}
    words: dict[int, frozenset[str]] = {}
    for x, y, _ in similar_pairs([sets[i] for i in valued], VALUE_THRESHOLD):
        i, j = valued[x], valued[y]
        va, vb = values[i], values[j]
        if not va or not vb or not (va - vb) or not (vb - va):
            continue
        a, b = memory[i], memory[j]
        if id(a) in taken or id(b) in taken:
            continue
        ea, eb = _memo(entities, i, a, _entities), _memo(entities, j, b, _entities)
        if ea and eb and not ea & eb:  # `different_subjects`
            continue
        words_a, words_b = _memo(words, i, a, _words_around_values), _memo(words, j, b, _words_around_values)
        if min(len(words_a), len(words_b)) < 3 or jaccard(words_a, words_b) < 0.75:
            continue
        older, newer = sorted((a, b), key=recency)
        evidence = (
            f"{newer.file}:{newer.line} says {', '.join(sorted(_values(newer) - _values(older)))} where this says "
            f"{', '.join(sorted(_values(older) - _values(newer)))}; check which holds"
        )
        drafts.append(Draft("CONTRADICT", older, evidence, "NONE", 0.5, related=[newer], reason="value"))
        taken.add(id(older))
    return drafts


def _memo(
    cache: dict[int, frozenset[str]], index: int, unit: Unit, compute: Callable[[Unit], frozenset[str]]
) -> frozenset[str]:
    found = cache.get(index)
    if found is None:
        found = cache[index] = compute(unit)
    return found


def _asserted_version(unit: Unit, claim: Claim) -> bool:
    """A runtime version, or one the entry says is used or required (not a list of model families)."""
    if claim.kind != "version" or not claim.current:
        return False
    return claim.value in RUNTIMES.values() or bool(_REQUIREMENT.search(unit.content[: claim.start]))


def _version_conflicts(memory: list[Unit], taken: set[int], manifest_packages: frozenset[str]) -> list[Draft]:
    """Two entries stating incompatible versions of the same package (no manifest to settle it)."""
    stated: dict[str, list[tuple[Unit, str]]] = defaultdict(list)
    for unit in memory:
        for claim in unit.claims:
            if _asserted_version(unit, claim) and claim.value not in manifest_packages:
                stated[claim.value].append((unit, claim.version))
    drafts = []
    for package, mentions in stated.items():
        mentions.sort(key=lambda m: recency(m[0]))
        newest_unit, newest_version = mentions[-1]
        for unit, version in mentions[:-1]:
            if unit is newest_unit or id(unit) in taken or not conflicting(version, newest_version):
                continue
            evidence = (
                f"{newest_unit.file}:{newest_unit.line} says {package} {newest_version}; this says {version}"
            )
            drafts.append(
                Draft("CONTRADICT", unit, evidence, "NONE", 0.5, related=[newest_unit], reason="version")
            )
            taken.add(id(unit))
    return drafts


def _redundant_with(
    memory: list[Unit], sets: list[frozenset[str]], references: list[Unit], taken: set[int]
) -> list[Draft]:
    """Entries CLAUDE.md (L0/L1) already says, by containment in one of its sentences or bullets."""
    if not references:
        return []
    ref_sets = [tokens(s) for r in references for s in _sentences(r.content)]
    ref_units = [r for r in references for _ in _sentences(r.content)]
    combined = list(sets) + ref_sets
    drafts = []
    offset = len(sets)
    for i, j, _ in similar_pairs(combined, 0.3):
        if i >= offset or j < offset:
            continue
        unit, ref = memory[i], ref_units[j - offset]
        if id(unit) in taken or len(sets[i]) < 3 or containment(sets[i], combined[j]) < 0.8:
            continue
        share = containment(sets[i], combined[j])
        where = "the user's CLAUDE.md" if ref.source == "user-claude" else "the project's CLAUDE.md"
        differ = _values_not_in(unit.content, ref.content)
        if differ:
            evidence = f"{where} says this with other values: {', '.join(differ[:3])} here is not in it; check which holds"
            drafts.append(
                Draft("CONTRADICT", unit, evidence, "NONE", 0.5, related=[ref], reason="in-claude-md")
            )
            drafts[-1].fact = _said_at(unit, ref)
            taken.add(id(unit))
            continue
        exact = share >= 0.9 and jaccard(sets[i], combined[j]) >= 0.6
        removable = exact and unit.is_entry and not unit.links and unit.source in ("index", "cluster")
        evidence = (
            f"{where} already says this ({share:.0%} of its words), and every session loads it"
            if removable
            else f"{where} says much of this ({share:.0%} of its words); check whether the rest matters"
        )
        draft = Draft(
            "REDUNDANT",
            unit,
            evidence,
            "REMOVE" if removable else "NONE",
            0.8 if removable else 0.55,
            related=[ref],
            reason="in-claude-md",
        )
        draft.fact, draft.subject = _said_at(unit, ref), ref.file
        drafts.append(draft)
        taken.add(id(unit))
    return drafts


def _values_not_in(text: str, reference: str) -> list[str]:
    """Code spans and numbers of `text` that `reference` does not hold as a whole value: a changed
    default (`"True"` → `"auto"`) or version (`X.Y.Z-dev` → `X.Y.Z-dev0`)."""
    pattern = r"`[^`\n]+`|(?<![\w.])\d+(?:\.\d+)*(?![\w.])"
    plain = reference.replace("\\", "")
    held = {v.strip("`") for v in re.findall(pattern, plain)} | set(re.findall(r"[\w.:/-]+", plain))
    found = re.findall(pattern, text.replace("\\", ""))
    return [v for v in dict.fromkeys(found) if v.strip("`") not in held]


def _said_at(unit: Unit, ref: Unit) -> str:
    """Where CLAUDE.md says it: the line, and its words when they are not the entry's own."""
    where = f"{Path(ref.file).name if ref.source == 'project-claude' else '~/.claude/CLAUDE.md'}:{ref.line}"
    if _key(unit) == " ".join(ref.content.casefold().split()):
        return f"{where} says it word for word"
    return f"{where}: {ref.content.strip()[:160]}"


def _sentences(text: str) -> list[str]:
    parts = [p for p in re.split(r"(?<=[.!?。])\s+|\n+", text) if len(p.split()) >= 2]
    return parts or [text]


def _merges(
    memory: list[Unit], sets: list[frozenset[str]], candidates: list[tuple[int, int, float]], taken: set[int]
) -> list[Draft]:
    """Pairs, best overlap first, each entry in one merge at most (chains of look-alikes are not merged)."""
    drafts = []
    for i, j, score in candidates:
        a, b = memory[i], memory[j]
        if id(a) in taken or id(b) in taken or not (a.is_entry and b.is_entry):
            continue
        if not _mergeable(a, b, sets[i], sets[j], score):
            continue
        kept, absorbed = sorted((a, b), key=lambda u: (bool(u.links), len(tokens(u.content)), recency(u)))[
            ::-1
        ]
        text = merged_entry(kept, [absorbed])
        if text is None:
            continue
        evidence = (
            f"{score:.0%} of the words are shared with {absorbed.file}:{absorbed.line}; merged text below"
        )
        drafts.append(
            Draft(
                "MERGE",
                kept,
                evidence,
                "MERGE",
                0.7,
                replacement=text,
                related=[absorbed],
                reason="near-copy",
            )
        )
        taken.update((id(a), id(b)))
    return drafts


def _mergeable(a: Unit, b: Unit, set_a: frozenset[str], set_b: frozenset[str], score: float) -> bool:
    """Overlap above half and the same subject: one restates the other, or both name the same file
    or symbol. Entries that differ by a word on each side and name nothing in common are usually one
    template about two different things, not a duplicate."""
    if score <= MERGE_THRESHOLD or different_subjects(a, b):
        return False
    values_a, values_b = _values(a), _values(b)
    if values_a and values_b and values_a != values_b:
        return False  # different commands or numbers: two statements, not a restatement
    if not (set_a - set_b) or not (set_b - set_a):
        return True
    return bool(_entities(a) & _entities(b)) and score >= 0.6
