"""The auditor and the review on real instruction files (../shared/corpus): what the dream proposes, for
checking by hand; the 1,017-line AGENTS.md used as MEMORY.md brought within budget; and how many
decisions a person makes for an old CLAUDE.md kept as memory beside the current one.

    python bench/audit_real.py proposals            # every REMOVE / EDIT / MERGE, one line each
    python bench/audit_real.py budget               # the 1,017-line AGENTS.md as MEMORY.md
    python bench/audit_real.py decisions            # old CLAUDE.md as memory beside the current one

Scenarios: each CLAUDE.md / AGENTS.md (current and historical) as MEMORY.md of an empty project
("as-memory"); each historical version as MEMORY.md beside the current file as the project's CLAUDE.md
("beside-current"); the partner repo's CLAUDE.md importing its AGENTS.md, with no MEMORY.md
("imports"). Proposals are listed once per distinct (action, category, entry): the history repeats them.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from consolidate.apply import apply_plan
from consolidate.audit import audit
from consolidate.dream.gather import GatherResult
from consolidate.dream.orient import orient
from consolidate.dream.synthesize import synthesize
from consolidate.models import DiscoveryReport
from consolidate.plan import Plan
from consolidate.review import decision_count
from consolidate.runs import journal_dir, write_scope
from consolidate.settings import Settings, load_settings
from memory_layout import measure_index

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
BIG = "claude_md/browser-use__browser-use/HEAD_85ddbfedf/AGENTS.md"
GRAPHITI_OLD = "claude_md/getzep__graphiti/history/CLAUDE.md@2025-06-27_cb4e187a.md"
GRAPHITI_NOW = "claude_md/getzep__graphiti/HEAD_993e081a/CLAUDE.md"


@dataclass
class Scenario:
    name: str
    memory: Path | None  # the file used as MEMORY.md
    claude_md: Path | None = None  # the project's CLAUDE.md
    agents_md: Path | None = None  # an AGENTS.md beside it (imported by the CLAUDE.md)


def instruction_files(corpus: Path) -> list[Path]:
    names = ("CLAUDE.md", "AGENTS.md")
    found = [p for p in (corpus / "claude_md").rglob("*.md") if p.name.split("@")[0] in names]
    found += list((corpus / "winksaville__tspec" / "history").glob("CLAUDE.md@*.md"))
    found += [corpus / "winksaville__tspec" / "CLAUDE.md"]
    return sorted(p for p in found if p.is_file())


def scenarios(corpus: Path) -> Iterator[Scenario]:
    for path in instruction_files(corpus):
        yield Scenario("as-memory", path)
    for history in sorted(corpus.glob("claude_md/*/history")) + [corpus / "winksaville__tspec" / "history"]:
        for old in sorted(history.glob("*.md@*.md")):
            name = old.name.split("@")[0]
            current = _current(history.parent, name)
            if current is not None and current.read_bytes() != old.read_bytes():
                yield Scenario("beside-current", old, current)
    partner = corpus / "winksaville__zc-ring-x1.claude" / "work_repo_zc-ring-x1"
    yield Scenario("imports", None, partner / "CLAUDE.md@54f2023.md", partner / "AGENTS.md@54f2023.md")


def _current(repo: Path, name: str) -> Path | None:
    heads = sorted(repo.glob(f"HEAD_*/{name}")) or ([repo / name] if (repo / name).is_file() else [])
    return heads[0] if heads else None


def setup(scenario: Scenario, work: Path) -> Settings:
    """A fresh git project (with the CLAUDE.md, if any) and a memory dir (with MEMORY.md, if any)."""
    shutil.rmtree(work, ignore_errors=True)
    project, memory = work / "project", work / "memory"
    project.mkdir(parents=True)
    memory.mkdir()
    if scenario.claude_md is not None:
        shutil.copyfile(scenario.claude_md, project / "CLAUDE.md")
    if scenario.agents_md is not None:
        shutil.copyfile(scenario.agents_md, project / "AGENTS.md")
    (project / "README.md").write_text("# project\n")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]):
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@x", *args], cwd=project, check=True)
    if scenario.memory is not None:
        shutil.copyfile(scenario.memory, memory / "MEMORY.md")
    return load_settings(project, memory_dir=memory, home=work / "cfg")


def plan_for(settings: Settings, max_decisions: int | None = None) -> Plan:
    snapshot = orient(settings, create=False)
    gathered = GatherResult(audit=audit(settings, tree=snapshot.tree), discovery=DiscoveryReport())
    return synthesize(snapshot, gathered, engine="bench", max_decisions=max_decisions).plan


def proposals(corpus: Path, dump: Path | None = None) -> None:
    seen: dict[tuple[str, str, str], list[str]] = {}
    rows: dict[tuple[str, str, str], str] = {}
    details: dict[tuple[str, str, str], dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "w"
        for scenario in scenarios(corpus):
            settings = setup(scenario, work)
            plan = plan_for(settings)
            where = (scenario.memory or scenario.claude_md or Path("?")).relative_to(corpus)
            for p in plan.proposals:
                if p.action not in ("REMOVE", "EDIT", "MERGE"):
                    continue
                entry = _entry(p)
                key = (p.action, p.category, entry)
                seen.setdefault(key, []).append(f"{scenario.name}:{where}")
                fact = p.evidence[0].quote if p.evidence else ""
                details.setdefault(
                    key, {"where": str(where), "scenario": scenario.name, **_portable(p, work)}
                )
                rows.setdefault(
                    key,
                    f"{p.action} {p.category}/{p.reason} | {entry[:90]!r} | {p.rationale[:150]} | {fact[:160]}",
                )
    for number, (key, line) in enumerate(rows.items(), start=1):
        places = seen[key]
        print(f"R{number:03d} | {places[0]} (+{len(places) - 1} more) | {line}")
    if dump is not None:
        items = [{**details[k], "id": f"R{n:03d}", "seen": len(seen[k])} for n, k in enumerate(rows, start=1)]
        dump.write_text(json.dumps(items, indent=1, ensure_ascii=False))
    total = sum(len(v) for v in seen.values())
    print(f"\n{len(rows)} distinct proposals ({total} with the repeats across versions and scenarios)")


def _portable(p, work: Path) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The proposal as JSON with the temporary folder it was made in written `<work>`: two runs on the
    same corpus give the same file, byte for byte."""
    return json.loads(json.dumps(p.model_dump(mode="json")).replace(str(work), "<work>"))


def _entry(p) -> str:  # type: ignore[no-untyped-def]
    texts = [getattr(c, "text", "") or getattr(c, "old", "") for c in p.changes]
    first = next((t for t in texts if t), p.summary)
    return " ".join(first.split())


def budget(corpus: Path) -> None:
    source = corpus / BIG
    with tempfile.TemporaryDirectory() as tmp:
        settings = setup(Scenario("budget", source), Path(tmp) / "w")
        before = measure_index(source.read_bytes())
        plan = plan_for(settings, max_decisions=10)
        report = apply_plan(plan, write_scope(settings), journal_dir=journal_dir(settings))
        after = measure_index((settings.memory_dir / "MEMORY.md").read_bytes())
        kept = set().union(*(_substantive(p.read_text()) for p in settings.memory_dir.rglob("*.md")))
        lines = _substantive_lines(source.read_text())
        kept_lines = [line for line in lines if line in kept]
        files = len(list(settings.memory_dir.rglob("*.md")))
        print(f"{source.relative_to(corpus)}: {before.lines} lines / {before.bytes:,} bytes")
        print(
            f"decisions: {decision_count(plan)}; proposals: {len(plan.proposals)}; applied: "
            f"{sum(r.done for r in report.results)}; failed: {sum(not r.done for r in report.results)}"
        )
        print(
            f"MEMORY.md after: {after.lines} lines / {after.bytes:,} bytes; files in the memory dir: {files}"
        )
        print(
            f"substantive lines kept in the memory dir: {len(kept_lines)} of {len(lines)} "
            f"({len(kept_lines) / len(lines):.1%})"
        )
        for note in plan.notes:
            print(f"note: {note}")


def _substantive_lines(text: str) -> list[str]:
    """Lines with a word in them: not blank, not only markup (fences, rules, closing tags)."""
    return [line.strip() for line in text.splitlines() if re.search(r"\w", line)]


def _substantive(text: str) -> set[str]:
    return set(_substantive_lines(text))


def decisions(corpus: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = setup(Scenario("decisions", corpus / GRAPHITI_OLD, corpus / GRAPHITI_NOW), Path(tmp) / "w")
        plan = plan_for(settings, max_decisions=10)
        print(f"memory: {GRAPHITI_OLD}; project CLAUDE.md: {GRAPHITI_NOW}")
        print(
            f"proposals: {len(plan.proposals)} in {len(plan.groups)} group(s); decisions: {decision_count(plan)}; "
            f"waiting for the next run: {plan.waiting}"
        )
        for group in plan.groups:
            print(f"  {group.id}: [{group.action} ×{len(group.items)}] {group.category}: {group.summary}")
        for p in plan.proposals:
            if p.group is None:
                print(f"  {p.id}: [{p.action}] {p.summary}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="*", help="proposals, budget and/or decisions (default: all three)")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--json", type=Path, help="proposals: also write each one in full to this file")
    args = parser.parse_args()
    wrong = [w for w in args.what if w not in ("proposals", "budget", "decisions")]
    if wrong:
        parser.error(f"unknown part(s): {', '.join(wrong)} (choose from proposals, budget, decisions)")
    if not args.corpus.is_dir():
        print(f"skipped: the shared corpus is not at {args.corpus.resolve()} (pass --corpus PATH)")
        return
    for what in args.what or ["proposals", "budget", "decisions"]:
        if what == "proposals":
            proposals(args.corpus.resolve(), args.json)
        else:
            {"budget": budget, "decisions": decisions}[what](args.corpus.resolve())


if __name__ == "__main__":
    main()
