"""consolidate status [PROJECT] [--json]"""

from __future__ import annotations

import argparse
import json
import sys

from .options import add_project, settings_of

HELP = "show the memory index against its budget, sections, defects and the last consolidation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument("--json", action="store_true", help="print the status as JSON")


def run(args: argparse.Namespace) -> int:
    from ..runs import check_memory_files
    from ..status import build_status

    settings = settings_of(args)
    check_memory_files(settings)
    status = build_status(settings)
    if args.json:
        sys.stdout.write(json.dumps(status, indent=2, ensure_ascii=False) + "\n")
        return 0
    _print_status(status)
    return 0


def _print_status(status: dict) -> None:
    from ..console import print_table

    out = sys.stdout
    index = status["index"]
    out.write(f"memory dir: {status['memory_dir']}\n")
    if not status["exists"]:
        out.write("MEMORY.md: not created yet\n")
    state = "OVER BUDGET" if index["over_budget"] else "within budget"
    out.write(
        f"index: {index['lines']}/{index['budget_lines']} lines, {index['bytes']}/{index['budget_bytes']} bytes ({state})\n"
    )
    out.write(
        f"last consolidation: {status['last_consolidation'] or 'never'}; sessions since: {status['sessions_since']}\n"
    )
    out.write(f"topic files: {len(status['topic_files'])}; cluster files: {len(status['cluster_files'])}\n")
    pending = ", ".join(f"{count} {channel}" for channel, count in status["pending_queue"].items()) or "none"
    out.write(f"pending in the capture queue: {pending}\n")
    out.write(f"team memory: {_team_line(status['team'])}\n")
    out.write(f"pending plan: {_pending_line(status['pending_plan'])}\n")
    out.write(f"backlog: {_backlog_line(status['backlog'])}\n\n")
    if status["sections"]:
        print_table(
            ["Section", "Entries"], [[s["name"] or "(top)", s["entries"]] for s in status["sections"]]
        )
        out.write("\n")
    if status["defects"]:
        rows = [[d["kind"], d["file"], d["line"] or "", d["detail"]] for d in status["defects"]]
        print_table(["Defect", "File", "Line", "Detail"], rows)
    else:
        out.write("no defects\n")


def _backlog_line(backlog: dict) -> str:
    if backlog.get("problem"):
        return backlog["problem"]
    retired = f"; {backlog['rejected']} rejected, never proposed again" if backlog["rejected"] else ""
    if not backlog["waiting"]:
        return f"no learning waits{retired}"
    return f"{backlog['waiting']} learning(s) wait; the next dream proposes them first{retired}"


def _team_line(team: dict | None) -> str:
    if team is None:
        return "none (not a git repository)"
    if not team["exists"]:
        return "none yet (`consolidate share` creates .claude/team-memory/)"
    index, who = team["index"], ", ".join(team["sharers"]) or "nobody recorded"
    loaded = "imported by CLAUDE.md" if team["imported"] else "NOT imported by CLAUDE.md (not loaded)"
    budget = "OVER BUDGET" if index["over_budget"] else "within budget"
    return (
        f"{team['entries']} entries, {team['topic_files']} topic files, {index['lines']}/{index['budget_lines']} "
        f"lines ({budget}), {loaded}; shared by {who}; {len(team['defects'])} defect(s)"
    )


def _pending_line(pending: dict | None) -> str:
    from ..periodic.store import recorded_part

    if pending is None:
        return "none (`consolidate dream --prepare` makes one; SessionEnd does when a dream is due)"
    failure = str(pending.get("last_failure") or "")
    reason = failure.partition("dream --prepare failed: ")[2] or failure
    failed = f"; the background run of {failure[:20]} failed: {reason}" if failure else ""
    if "error" in pending:
        return pending["error"] + failed
    if pending.get("created_at") is None:
        return "none" + failed
    actions = ", ".join(f"{n} {a}" for a, n in pending["by_action"].items()) or "no proposals"
    usage = pending.get("usage")
    cost = (
        f", {usage['input_tokens'] + usage['output_tokens']} tokens, ${usage['cost_usd']:.4f}"
        if usage
        else ""
    )
    changed = (
        f"; files changed since ({pending['changes']}): review rebuilds it"
        if pending["changed_since"]
        else ""
    )
    return (
        f"{pending['proposals']} proposal(s) to decide ({actions}{recorded_part(pending)}), "
        f"made {pending['created_at']} "
        f"({pending['age_hours']} h ago) by {pending['engine']}{cost}{changed} — `consolidate review`{failed}"
    )
