"""The matcher on real memory files, one block left out: what "already recorded" says of a rule the
memory does not hold.

Each block of a real CLAUDE.md or AGENTS.md (a list item with its nested items, a paragraph with its
code, `consolidate.discover.units.markdown_blocks`) is taken out of its file and its first line is judged
against the rest, as the scan and the dream judge a learning. A block the rest states in other words is
read as RECORDED rightly; any other RECORDED (or FORBIDDEN) is a false "already recorded". Compare two
versions of the code on the same files (`--json` and a diff) to see what a change moves. Needs
../shared/corpus.

    python bench/matcher_leave_one_out.py            # verdict counts per file
    python bench/matcher_leave_one_out.py --show     # each RECORDED / FORBIDDEN block with what it matched
    python bench/matcher_leave_one_out.py --json     # every verdict, by file and block, to compare runs
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

from consolidate.discover.matcher import Matcher
from consolidate.discover.units import markdown_blocks

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FILES = (
    "winksaville__zc-ring-x1.claude/work_repo_zc-ring-x1/AGENTS.md@54f2023.md",
    "winksaville__tspec/history/CLAUDE.md@2026-02-03_852fe800.md",
    "winksaville__tspec/history/CLAUDE.md@2026-02-11_85fa6d83.md",
    "winksaville__tspec/history/CLAUDE.md@2026-02-23_3ec1aefd.md",
)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def judged(text: str) -> list[tuple[int, str, str, str]]:
    """(block number, verdict, the block's first line, what it matched) of each prose block."""
    found = []
    for number, (_, block) in enumerate(markdown_blocks(text)):
        first = _ITEM.sub("", block.split("\n")[0]).strip()
        if len(first) < 25 or first.startswith(("|", "<!--", "@", "```")):
            continue
        verdict = Matcher.of_texts([text.replace(block, "", 1)]).judge(first)
        found.append((number, verdict.category, first, " / ".join(verdict.related.split("\n"))))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    paths = [args.corpus / name for name in FILES]
    paths += sorted((args.corpus / "claude_md").glob("*/HEAD_*/**/*.md"))
    if not all(p.is_file() for p in paths[: len(FILES)]):
        sys.exit(f"no corpus at {args.corpus}")
    every: dict[str, list[tuple[int, str, str, str]]] = {}
    for path in paths:
        name = str(path.relative_to(args.corpus))
        every[name] = judged(path.read_text(encoding="utf-8", errors="replace"))
        if not args.json:
            print(f"{name}: {dict(Counter(category for _, category, _, _ in every[name]))}")
        if args.show and not args.json:
            for number, category, first, related in every[name]:
                if category in ("RECORDED", "FORBIDDEN"):
                    print(f"  block {number}: {category} — {first[:110]}\n      matched: {related[:110]}")
    if args.json:
        print(json.dumps(every, indent=1, ensure_ascii=False))
        return
    total = Counter(category for found in every.values() for _, category, _, _ in found)
    print(f"all: {sum(total.values())} blocks, {dict(total)}")


if __name__ == "__main__":
    main()
