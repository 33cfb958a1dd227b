"""Fidelity of synthesis on saved agent reports: does what the discoverer found reach the plan whole?

For every case of REPORTS that has a `signal-discoverer.json` and a matching case folder in CASES (as
`bench/tspec_cases.py` writes them), the case is copied to a temporary folder (the saved cases are
never written), `consolidate dream --engine reports:<dir> --json` builds the plan, and each non-NOISE
candidate of the report is followed into it:

- intact — one proposal writes every content word of the candidate's principle (a sentence that tells
  what happened in the sessions, "The user rejected …", is moved to the review note, not written:
  counted apart);
- cut — a proposal carries it, but words of the principle are missing from what it writes;
- dropped — no proposal carries it (a proposal whose diff says it "cannot be applied as planned" carries
  nothing: approving it writes nothing); the plan says why (already recorded, waiting in the backlog, a
  secret, a skill suggestion, a quality rule) or it is lost without a word.

A drop counts as correct when its reason is true: a learning waiting in the backlog, a secret, a skill
suggestion; an "already recorded" or quality drop only when checked by hand (`--verdicts FILE`, keys
`<case>#C<n>`, values `{"verdict": "right"|"wrong", "why": …}`; `--show` lists every drop to check).
Every line the proposals write is checked for broken Markdown and trailing fragments.

The rules the user saved — the taught rules of `consolidate/evaluate/labels/tspec.json` whose version
is a case's commit — are followed too, with `--rules FILE`: hand labels of which candidate states
which rule (keys `<case>#C<n>`, values a rule id or a list of them). A rule is *reported* when one of
its candidates is in the report, *in the plan* when a proposal writes one of them intact.

    python bench/llm_fidelity.py REPORTS CASES [--verdicts FILE] [--rules FILE] [--show] [--json]
        [--code DIR]

`--code DIR` runs the dream from another checkout (its package on PYTHONPATH), to compare versions on
the same reports. Without the reports or the cases the script says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from consolidate.dream.additions import session_story  # noqa: E402
from consolidate.dream.similarity import STOP  # noqa: E402
from memory_layout.wellformed import line_problems, text_problems  # noqa: E402

REPORT = "signal-discoverer.json"
EVALS = Path(__file__).resolve().parents[2] / "evals" / "tspec-llm"  # saved reports, kept outside the repo
LABELS = Path(__file__).resolve().parents[1] / "consolidate" / "evaluate" / "labels" / "tspec.json"
_WORD = re.compile(r"[^\W_][\w'’-]*[^\W_]|[^\W_]", re.UNICODE)
CORRECT = ("backlog", "secret", "meta")


def content_words(text: str) -> set[str]:
    """Lower-cased words of three or more characters, stop words left out, Markdown ignored."""
    flat = re.sub(r"\]\([^)]*\)", "]", text.lower()).replace("`", " ").replace("*", " ")
    return {w.strip("'’-") for w in _WORD.findall(flat) if len(w) >= 3 and w not in STOP}


def _stem(word: str) -> str:
    for suffix in ("ies", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def covered(words: set[str], written: set[str]) -> float:
    if not words:
        return 1.0
    stems = {_stem(w) for w in written}
    return sum(1 for w in words if w in written or _stem(w) in stems) / len(words)


@dataclass
class Outcome:
    case: str
    index: int
    principle: str
    layers: list[str]
    category: str
    status: str  # intact | cut | dropped
    proposal: str = ""
    reason: str = ""  # for a drop: what the plan says
    matched: str = ""  # for "already recorded": the entry it matched
    verdict: str = ""  # right | wrong | unchecked
    missing: list[str] = field(default_factory=list)
    story: int = 0  # sentences of the principle and why telling the session's story, moved to the note

    @property
    def key(self) -> str:
        return f"{self.case}#C{self.index}"

    @property
    def correct(self) -> bool:
        return self.status == "intact" or (self.status == "dropped" and self.verdict == "right")


@dataclass
class CaseResult:
    case: str
    outcomes: list[Outcome] = field(default_factory=list)
    broken: list[tuple[str, str, str]] = field(default_factory=list)  # proposal, line, problem
    lines: int = 0
    error: str = ""


def written_texts(proposal: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, text) of everything a proposal writes: index lines and file bodies."""
    found: list[tuple[str, str]] = []
    for change in proposal.get("changes", []):
        op = change.get("op")
        if op == "add_entry":
            found.append(("entry", change.get("text", "")))
        elif op in ("replace_entry", "replace_text"):
            kind = (
                "entry"
                if op == "replace_entry" or not str(change.get("file", "")).startswith("/")
                else "file"
            )
            found.append((kind if op == "replace_entry" else "file", change.get("new", "")))
        elif op == "write_file":
            found.append(("file", change.get("content", "")))
        elif op == "cluster_section":
            found.append(("entry", change.get("pointer", "")))
    return found


def check_lines(proposal: dict[str, Any]) -> tuple[int, list[tuple[str, str, str]]]:
    count, broken = 0, []
    for kind, text in written_texts(proposal):
        lines = text.splitlines() or [text]
        count += len([line for line in lines if line.strip()])
        if kind == "entry":
            first, *rest = lines
            problems = [(first, p) for p in line_problems(first, entry=True)]
            problems += [(line, p) for _, line, p in text_problems("\n".join(rest))]
        else:
            problems = [(line, p) for _, line, p in text_problems(text, entries=True)]
        broken += [(proposal.get("id", "?"), line, problem) for line, problem in problems]
    return count, broken


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", text).split()).lower()


def note_reason(note: str) -> tuple[str, str] | None:
    """(reason, subject) of a synthesis note about a candidate it left out."""
    patterns = [
        (r"^already recorded(?: as (?P<matched>.+?))?: (?P<subject>.+)$", "recorded"),
        (r"^left for a later run[^:]*: (?P<subject>.+)$", "cap"),
        (r"^dropped \((?P<why>[^)]*)\): (?P<subject>.+)$", "quality"),
        (r"^meta: consider a skill or command for: (?P<subject>.+)$", "meta"),
    ]
    for pattern, reason in patterns:
        match = re.match(pattern, note)
        if match:
            why = match.groupdict().get("why") or ""
            if "secret" in why:
                reason = "secret"
            return (f"{reason}: {why}" if why and reason == "quality" else reason), match["subject"]
    return None


def subject_matches(subject: str, principle: str) -> bool:
    wanted = _plain(subject).rstrip("…").strip()
    have = _plain(principle)
    if wanted and have.startswith(wanted[: max(20, len(wanted) - 2)]):
        return True
    words = content_words(wanted)
    return bool(words) and covered(words, content_words(have)) >= 0.9


def unappliable(proposal: dict[str, Any]) -> bool:
    """A proposal the dream could not preview: applying it fails, so it writes nothing."""
    return str(proposal.get("diff", "")).startswith("# cannot be applied")


def follow(case: str, index: int, candidate: dict[str, Any], plan: dict[str, Any]) -> Outcome:
    principle = str(candidate.get("principle", ""))
    layers = candidate.get("layers") or [candidate.get("layer", "L2")]
    outcome = Outcome(
        case, index, principle, list(layers), str(candidate.get("category", "FILL_GAP")), "dropped"
    )
    kept, told = session_story(principle, keep_first=True)  # the session's story is moved to the note
    outcome.story = len(told) + len(session_story(str(candidate.get("why", "")))[1])
    words = content_words(kept)
    best, best_id, best_missing, best_skip = 0.0, "", sorted(words), None
    blocked = ""
    for proposal in plan.get("proposals", []):
        if "discoverer" not in proposal.get("sources", []):
            continue
        written = content_words(" ".join(text for _, text in written_texts(proposal)))
        score = covered(words, written)
        if unappliable(proposal):
            if score >= 0.5 and not blocked:
                blocked = str(proposal["diff"]).strip().lstrip("# ")
            continue
        if score > best:
            best, best_id, best_skip = score, proposal.get("id", ""), proposal.get("skipped")
            stems = {_stem(w) for w in written}
            best_missing = sorted(w for w in words if w not in written and _stem(w) not in stems)
    if best_skip and best >= 0.5:  # a proposal kept aside as already recorded: shown, can be kept
        outcome.reason = "recorded"
        outcome.matched = str(best_skip.get("matched", "") if isinstance(best_skip, dict) else best_skip)
        outcome.proposal = best_id
        return outcome
    if best >= 1.0:
        outcome.status, outcome.proposal = "intact", best_id
        return outcome
    for item in plan.get("backlog", []):
        if subject_matches(str(item.get("principle", "")), principle):
            outcome.reason = f"backlog: {item.get('reason', '')}".rstrip(": ")
            return outcome
    for note in plan.get("notes", []):
        found = note_reason(note)
        if found and subject_matches(found[1], principle):
            outcome.reason = found[0]
            return outcome
    if best >= 0.3:
        outcome.status, outcome.proposal, outcome.missing = "cut", best_id, best_missing
        return outcome
    outcome.reason = f"unappliable: {blocked}" if blocked else "lost: no proposal and no note"
    return outcome


def judge(outcome: Outcome, verdicts: dict[str, Any], has_backlog: bool) -> None:
    if outcome.status != "dropped":
        return
    given = verdicts.get(outcome.key)
    if isinstance(given, dict) and given.get("verdict") in ("right", "wrong"):
        outcome.verdict = given["verdict"]
    elif outcome.reason.startswith(("secret", "meta")) or (
        outcome.reason.startswith("backlog") and has_backlog
    ):
        outcome.verdict = "right"
    elif outcome.reason == "cap" or outcome.reason.startswith(("lost", "unappliable", "quality: too long")):
        outcome.verdict = "wrong"  # a "later run" that never comes, a silent loss, a long rule refused
    else:
        outcome.verdict = "unchecked"


def prepare(case_dir: Path, report: Path, work: Path) -> tuple[Path, Path, Path]:
    """A private copy of the case (project, memory dir, CLAUDE.md files) and of the report."""
    project = work / "tspec"
    shutil.copytree(case_dir / "tspec", project, symlinks=True)
    home = work / "claude"
    (home / "projects").mkdir(parents=True)
    if (case_dir / "claude" / "CLAUDE.md").is_file():
        shutil.copy(case_dir / "claude" / "CLAUDE.md", home / "CLAUDE.md")
    for memory in (case_dir / "claude" / "projects").glob("*/memory"):
        key = "".join(c if c.isalnum() and c.isascii() else "-" for c in str(project.resolve()))
        shutil.copytree(memory, home / "projects" / key / "memory")
    reports = work / "reports"
    reports.mkdir()
    shutil.copy(report, reports / REPORT)
    if (report.parent / "started_at").is_file():
        shutil.copy(report.parent / "started_at", reports / "started_at")
    return project, home, reports


def run_dream(project: Path, home: Path, reports: Path, code: Path | None) -> dict[str, Any]:
    env = {**os.environ, "CONSOLIDATE_STATE_DIR": str(home / "consolidate"), "NO_COLOR": "1"}
    env.pop("CONSOLIDATE_ENGINE", None)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    command = [sys.executable, "-m", "consolidate", "dream", str(project), "--engine", f"reports:{reports}"]
    command += ["--json", "--claude-home", str(home)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=project, timeout=300)
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"dream exited {done.returncode}: {done.stderr.strip().splitlines()[-1:]}")
    plan: dict[str, Any] = json.loads(done.stdout)
    return plan


def score_case(
    case: str, report: Path, case_dir: Path, code: Path | None, verdicts: dict[str, Any]
) -> CaseResult:
    result = CaseResult(case)
    data = json.loads(report.read_text(encoding="utf-8"))
    # A plain folder name: a random one (tempfile's) can look like a token to a secret scan of paths.
    work = Path(tempfile.gettempdir()) / f"consolidate-fidelity-{os.getpid()}" / case
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        plan = run_dream(*prepare(case_dir, report, work), code)
    except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as exc:
        result.error = str(exc)
        return result
    finally:
        shutil.rmtree(work.parent, ignore_errors=True)
    for index, candidate in enumerate(data.get("candidates", []), start=1):
        if candidate.get("category") == "NOISE":
            continue
        outcome = follow(case, index, candidate, plan)
        judge(outcome, verdicts, "backlog" in plan)
        result.outcomes.append(outcome)
    for proposal in plan.get("proposals", []):
        if "discoverer" in proposal.get("sources", []):
            count, broken = check_lines(proposal)
            result.lines += count
            result.broken += broken
    return result


def saved_rules(cases: list[str]) -> list[tuple[str, str, str]]:
    """(case, rule id, about) of the taught rules whose CLAUDE.md version is a case's commit."""
    rules = json.loads(LABELS.read_text(encoding="utf-8"))["rules"]
    by_version = {case.rsplit("_", 1)[-1]: case for case in cases}
    return [
        (by_version[r["version"]], r["id"], r["about"])
        for r in rules
        if r["status"] == "taught" and r["version"] in by_version
    ]


def rule_recall(results: list[CaseResult], labels: dict[str, Any]) -> list[dict[str, Any]]:
    """Each saved rule of the scored cases: reported (a labeled candidate is in the report), and the
    best a proposal did with it (intact, cut, or why it was dropped)."""
    outcomes = {o.key: o for r in results for o in r.outcomes}
    rank = {"intact": 0, "cut": 1, "dropped": 2}
    rows = []
    for case, rule, about in saved_rules([r.case for r in results if not r.error]):
        keys = [
            k
            for k, v in labels.items()
            if k.startswith(f"{case}#") and rule in ([v] if isinstance(v, str) else v)
        ]
        found = sorted((outcomes[k] for k in keys if k in outcomes), key=lambda o: rank[o.status])
        best = found[0] if found else None
        rows.append(
            {
                "case": case,
                "rule": rule,
                "about": about,
                "reported": best is not None,
                "status": best.status if best else "not reported",
                "candidate": best.key if best else "",
                "reason": best.reason if best else "",
            }
        )
    return rows


def rule_summary(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {
        "rules_saved": len(rows),
        "rules_reported": sum(r["reported"] for r in rows),
        "rules_in_plan": sum(r["status"] == "intact" for r in rows),
        "rules_cut": sum(r["status"] == "cut" for r in rows),
    }


def summary(results: list[CaseResult]) -> dict[str, Any]:
    outcomes = [o for r in results for o in r.outcomes]
    dropped = [o for o in outcomes if o.status == "dropped"]
    total = len(outcomes)
    return {
        "cases": len(results),
        "failed_cases": [r.case for r in results if r.error],
        "candidates": total,
        "intact": sum(o.status == "intact" for o in outcomes),
        "cut": sum(o.status == "cut" for o in outcomes),
        "dropped": len(dropped),
        "dropped_right": sum(o.verdict == "right" for o in dropped),
        "dropped_wrong": sum(o.verdict == "wrong" for o in dropped),
        "dropped_unchecked": sum(o.verdict == "unchecked" for o in dropped),
        "faithful_share": round(sum(o.correct for o in outcomes) / total, 3) if total else None,
        "lines_written": sum(r.lines for r in results),
        "broken_lines": sum(len(r.broken) for r in results),
        "recorded_drops": sum(o.reason == "recorded" for o in dropped),
        "story_sentences_to_note": sum(o.story for o in outcomes),
    }


def show(results: list[CaseResult], out: Any) -> None:
    for result in results:
        if result.error:
            out.write(f"\n{result.case}: ERROR {result.error}\n")
            continue
        for o in result.outcomes:
            if o.status == "intact":
                continue
            head = f"{o.key} [{'/'.join(o.layers)} {o.category}] {o.status}"
            detail = (
                f" ({o.reason}; {o.verdict})"
                if o.status == "dropped"
                else f" in {o.proposal}, missing {o.missing}"
            )
            out.write(f"\n{head}{detail}\n  principle: {o.principle}\n")
            if o.matched:
                out.write(f"  matched:   {o.matched}\n")
        for pid, line, problem in result.broken:
            out.write(f"\n{result.case} {pid} broken line ({problem}): {line}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "reports",
        type=Path,
        nargs="?",
        default=EVALS / "round2",
        help="folder of <case>/signal-discoverer.json",
    )
    parser.add_argument(
        "cases",
        type=Path,
        nargs="?",
        default=EVALS / "cases",
        help="folder of the cases (bench/tspec_cases.py)",
    )
    parser.add_argument("--verdicts", type=Path, help="hand verdicts of drops (JSON)")
    parser.add_argument("--rules", type=Path, help="hand labels: which candidate states which saved rule")
    parser.add_argument("--code", type=Path, help="run the dream from this checkout instead")
    parser.add_argument("--show", action="store_true", help="list every drop, cut and broken line")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    found = sorted(p for p in args.reports.glob(f"*/{REPORT}") if (args.cases / p.parent.name).is_dir())
    if not found:
        print(f"skipped: no {REPORT} under {args.reports} with a case in {args.cases}", file=sys.stderr)
        return 0
    verdicts = json.loads(args.verdicts.read_text()) if args.verdicts and args.verdicts.is_file() else {}
    results = [score_case(p.parent.name, p, args.cases / p.parent.name, args.code, verdicts) for p in found]
    totals = summary(results)
    rules = rule_recall(results, json.loads(args.rules.read_text())) if args.rules else []
    if args.rules:
        totals.update(rule_summary(rules))
    if args.json:
        rows = [{**o.__dict__, "key": o.key} for r in results for o in r.outcomes]
        broken = [
            {"case": r.case, "proposal": p, "line": t, "problem": q} for r in results for p, t, q in r.broken
        ]
        data = {"summary": totals, "outcomes": rows, "broken": broken, "rules": rules}
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    print("| case | candidates | intact | cut | dropped (right/wrong/unchecked) | lines | broken |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        drops = [o for o in r.outcomes if o.status == "dropped"]
        counts = "/".join(str(sum(o.verdict == v for o in drops)) for v in ("right", "wrong", "unchecked"))
        print(
            f"| {r.case} | {len(r.outcomes)} | {sum(o.status == 'intact' for o in r.outcomes)} | "
            f"{sum(o.status == 'cut' for o in r.outcomes)} | {len(drops)} ({counts}) | {r.lines} | "
            f"{len(r.broken)}{' ERROR' if r.error else ''} |"
        )
    print(json.dumps(totals, indent=1))
    if args.show:
        show(results, sys.stdout)
    for row in rules:
        where = f" {row['candidate']}" + (f" ({row['reason']})" if row["reason"] else "")
        print(f"rule {row['case']} {row['rule']}: {row['status']}{where if row['reported'] else ''}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
