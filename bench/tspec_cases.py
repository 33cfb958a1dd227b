"""Real-history cases for the LLM path, built from the tspec sessions of `../shared/corpus/`.

A case is a version of the project's CLAUDE.md that added rules (listed by commit in CASES). The case's
project gets the previous version as its CLAUDE.md; its Claude home gets every session with records in
(since, commit], cut at the commit time, with the assistant's own edits of CLAUDE.md blanked — the
learning must come from what was said, not from the edit that wrote it down. `.last-consolidation` is
`since`: the previous case's commit, at most 3 days back.

    python bench/tspec_cases.py OUT [--corpus DIR]

Each case folder holds `tspec/` (a git repo with the previous CLAUDE.md), `claude/` (the Claude home)
and `case.json` (the version, the previous version, the window and the session count). The rules a case
should yield are the lines its version added: `case.json` names both versions, so they are read from
the corpus, never copied here. `bench/llm_fidelity.py` scores saved agent reports on these cases.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
PROJECT = "winksaville__tspec"
CASES = [
    "08839fd3",
    "679cca98",
    "9ba91938",
    "f4c640c9",
    "85fa6d83",
    "6f588fed",
    "9cd5c042",
    "dfe7dff6",
    "614c3215",
    "1e84b168",
    "c16305ba",
    "25237872",
    "ae399646",
    "b1261e3f",
    "3ec1aefd",
]
WINDOW = timedelta(days=3)
BLANK = "[removed for evaluation]"


def key(path: str) -> str:
    """Claude Code's project key of a path (ASCII letters and digits kept, the rest `-`)."""
    return "".join(c if c.isalnum() and c.isascii() else "-" for c in path)


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def versions(corpus: Path) -> list[tuple[str, str, datetime]]:
    """(file name, short sha, commit time) of every CLAUDE.md version, oldest first."""
    rows = []
    for line in (corpus / "history" / "HISTORY.txt").read_text().splitlines():
        name, sha, when, *_ = line.split("  ")
        rows.append((name, sha[:8], datetime.strptime(when, "%Y-%m-%dT%H:%M:%S%z").astimezone(UTC)))
    return rows


def blank_claude_edits(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the assistant's Edit/Write of a CLAUDE.md emptied."""
    message = record.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("content"), list):
        return record
    for block in message["content"]:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            given = block.get("input") or {}
            path = str(given.get("file_path") or given.get("notebook_path") or "")
            if path.endswith("CLAUDE.md") and block.get("name") in ("Edit", "Write", "MultiEdit"):
                block["input"] = {"file_path": path, "old_string": BLANK, "new_string": BLANK}
    return record


def cut_session(source: Path, target: Path, since: datetime, until: datetime) -> bool:
    """Copy the records of `source` up to `until`; False (nothing written) when none is after `since`."""
    kept, active = [], False
    for line in source.read_text(errors="replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        stamp = record.get("timestamp")
        if stamp:
            moment = parse_time(stamp)
            if moment > until:
                break
            if moment > since:
                active = True
        kept.append(json.dumps(blank_claude_edits(record), ensure_ascii=False))
    if not active:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(kept) + "\n")
    return True


def git(project: Path, *args: str, when: datetime) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": when.isoformat(), "GIT_COMMITTER_DATE": when.isoformat()}
    subprocess.run(["git", *args], cwd=project, check=True, env=env)


def build_case(corpus: Path, out: Path, row: tuple[str, str, datetime], before: str, since: datetime) -> Path:
    name, sha, when = row
    case = out / f"{when:%m%d}_{sha}"
    if case.exists():
        shutil.rmtree(case)
    project = case / "tspec"
    project.mkdir(parents=True)
    shutil.copy(corpus / "history" / before, project / "CLAUDE.md")
    git(project, "init", "-q", when=since)
    git(project, "add", "-A", when=since)
    git(project, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init", when=since)
    sessions = case / "claude" / "projects" / key(str(project.resolve()))
    memory = sessions / "memory"
    memory.mkdir(parents=True)
    (memory / ".last-consolidation").write_text(since.strftime("%Y-%m-%dT%H:%M:%SZ"))
    count = 0
    for source in sorted((corpus / ".claude").glob("*.jsonl")):
        if not cut_session(source, sessions / source.name, since, when):
            continue
        count += 1
        agents = corpus / ".claude" / source.stem / "subagents"
        for agent in sorted(agents.glob("*.jsonl")) if agents.is_dir() else []:
            cut_session(
                agent, sessions / source.stem / "subagents" / agent.name, since - timedelta(days=30), when
            )
    summary = {
        "version": name,
        "previous": before,
        "since": since.isoformat(),
        "until": when.isoformat(),
        "sessions": count,
    }
    (case / "case.json").write_text(json.dumps(summary, indent=1))
    return case


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out",
        type=Path,
        nargs="?",
        default=Path(tempfile.gettempdir()) / "consolidate-tspec-cases",
        help="folder to write the cases into (default: one in the temp dir)",
    )
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the shared corpus (default ../shared/corpus)"
    )
    args = parser.parse_args(argv)
    corpus = args.corpus / PROJECT
    if not (corpus / "history" / "HISTORY.txt").is_file():
        print(f"skipped: no tspec history at {corpus} (the shared corpus is not here)", file=sys.stderr)
        return 0
    rows = versions(corpus)
    by_sha = {sha: index for index, (_, sha, _) in enumerate(rows)}
    previous: datetime | None = None
    for sha in CASES:
        index = by_sha[sha]
        when = rows[index][2]
        since = max(previous or when - WINDOW, when - WINDOW)
        previous = when
        case = build_case(corpus, args.out, rows[index], rows[index - 1][0], since)
        print(f"{case.name}: since {since:%Y-%m-%dT%H:%M:%SZ}, until {when:%Y-%m-%dT%H:%M:%SZ}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
