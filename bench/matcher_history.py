"""The matcher on real project history: a changed rule is never "already recorded".

For each two consecutive versions of tspec's CLAUDE.md (../shared/corpus/winksaville__tspec/history/), each
prose line of the newer version that the older one lacks (a rule added, reworded or changed) is judged
against the older version by the matcher the scan and the dream share, read as they read a CLAUDE.md.
A changed number, list, name or step the matcher calls RECORDED would be set aside as already recorded: a
lost UPDATE. Each RECORDED line is judged by hand below (version, line: the same rule, or a changed one).
Needs ../shared/corpus.

    python bench/matcher_history.py            # counts and the score of the RECORDED lines
    python bench/matcher_history.py --show     # each RECORDED line with the statement it matched
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from consolidate.discover.matcher import Matcher

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")

# (version sha, line of the newer version): the line says the older version's rule as it is (True) or
# changes it (False: an UPDATE) — judged by hand.
SAME_RULE = {
    ("9ba91938", 59): True,  # "Package build orchestration" for "Build orchestration": reworded
    ("9ba91938", 60): True,  # "package discovery" for "member discovery": reworded
    ("dfe7dff6", 106): True,  # the step as it was, renumbered
    ("dfe7dff6", 107): True,  # the step as it was, renumbered
    ("45908c8f", 61): True,  # a list said in part (one type removed) is said
    ("c16305ba", 122): True,  # the step as it was, "the" added
    ("ae399646", 110): True,  # the step as it was, renumbered
    ("08839fd3", 100): False,  # another operation on the same path (amending, not reminding)
    ("852fe800", 28): False,  # another trait named
    ("852fe800", 40): False,  # the list of commands grew
    ("9ba91938", 7): False,  # the overview now says the package level
    ("9ba91938", 74): False,  # single-package, not single-crate: a changed fact in the same words
    ("85fa6d83", 62): False,  # what the command does, added
    ("9cd5c042", 100): False,  # another step on the same file (result, not plan)
    ("9cd5c042", 101): False,  # items move to Done, not to In Progress
    ("dfe7dff6", 85): False,  # the section's fields changed
    ("dfe7dff6", 104): False,  # the step now says how to bump
    ("45908c8f", 83): False,  # two sections, not three
    ("45908c8f", 85): False,  # the section's fields grew
    ("ce744bcc", 85): False,  # a field renamed
    ("25237872", 142): False,  # "and wait" added
    ("ae399646", 106): False,  # -dev0 and the marker commit added
}


def changed_lines(old: str, new: str) -> list[tuple[int, str]]:
    """(line number, text) of each prose line of `new` that `old` lacks, list markers left out."""
    known = set(old.splitlines())
    found: list[tuple[int, str]] = []
    fence = False
    for number, line in enumerate(new.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        text = line.strip()
        if fence or line in known or len(text) < 20 or text.startswith(("#", "|")):
            continue
        found.append((number, _ITEM.sub("", line).strip()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    history = args.corpus / "winksaville__tspec" / "history"
    if not history.is_dir():
        sys.exit(f"no corpus at {args.corpus}")
    order = [line.split()[0] for line in (history / "HISTORY.txt").read_text().splitlines() if line.strip()]
    counts: Counter[str] = Counter()
    right = wrong = unjudged = 0
    for old, new in zip(order, order[1:], strict=False):
        older, newer = (history / old).read_text(), (history / new).read_text()
        matcher = Matcher.of_texts([older])
        sha = new.rsplit("_", 1)[-1].removesuffix(".md")
        for number, text in changed_lines(older, newer):
            verdict = matcher.judge(text)
            counts[verdict.category] += 1
            if verdict.category != "RECORDED":
                continue
            same = SAME_RULE.get((sha, number))
            right += same is True
            wrong += same is False
            unjudged += same is None
            if args.show:
                mark = {True: "same rule", False: "CHANGED", None: "UNJUDGED"}[same]
                print(f"  {sha} line {number}: {mark} ({verdict.how}) — {text[:100]}")
                print(f"      matched: {' '.join(verdict.related.split())[:100]}")
    total = sum(counts.values())
    print(
        f"tspec history: {total} changed lines; " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    )
    print(
        f"  RECORDED by hand: {right} the same rule, {wrong} a changed rule (a lost UPDATE), {unjudged} unjudged"
    )


if __name__ == "__main__":
    main()
