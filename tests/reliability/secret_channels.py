"""Plant the generated secrets in every channel text reaches the tool by, run everything that writes,
and count the secrets found anywhere on disk afterwards. Used by the bounded test and by
`bench/secret_corpus.py` (more seeds)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from consolidate.capture.places import transcripts_dir
from consolidate.cli import main
from tests.capture.fixtures import Session
from tests.hooks.helpers import hook
from tests.reliability.secret_corpus import Secret, leaks

Plant = Callable[[Session, Secret], None]


def _bash(session: Session, command: str, error: str = "") -> None:
    session.assistant("Running it.", tools=[{"name": "Bash", "input": {"command": command}}])
    session.tool_result(error or "ok", is_error=bool(error))


def _correction(session: Session, secret: Secret) -> None:
    _bash(session, "make deploy")
    session.user(f"no, use {secret.sentence} instead")


def _error_fix(session: Session, secret: Secret) -> None:
    token = shlex.quote(secret.text)
    _bash(session, f"deploy --token {token} --fast", "deploy: unknown option --fast")
    _bash(session, f"deploy --token {token}")


def _rejection(session: Session, secret: Secret) -> None:
    session.assistant("Deploying.", tools=[{"name": "Bash", "input": {"command": "make deploy"}}])
    reason = "The user doesn't want to proceed with this tool use. the user said:\n"
    session.tool_result(reason + f"use {secret.sentence} for this", is_error=True)


def _record(kind: str, key: str) -> Plant:
    def plant(session: Session, secret: Secret) -> None:
        session.records.append({"type": kind, key: secret.sentence, "sessionId": session.session_id})

    return plant


CHANNELS: dict[str, Plant] = {
    "remember-turn": lambda s, x: s.user(f"remember that {x.sentence}").assistant("Noted."),
    "decision": lambda s, x: s.user(f"let's use the blue cluster because {x.sentence}").assistant("OK."),
    "correction": _correction,
    "marker-comment": lambda s, x: s.assistant(f"Done.\n<!-- learning: {x.sentence} -->"),
    "marker-visible": lambda s, x: s.assistant(f"📝 Learned: {x.sentence}"),
    "lesson": lambda s, x: s.assistant(
        f"#lesson\nrule: {x.sentence}\nwhy: the deploy failed without it\ntool: Bash\ncommand: deploy\n#/lesson"
    ),
    "error-fix": _error_fix,
    "rejection": _rejection,
    "tool-output": lambda s, x: s.tool_result(f"Error: {x.sentence}", is_error=True),
    "custom-title": _record("custom-title", "customTitle"),
    "ai-title": _record("ai-title", "aiTitle"),
    "summary": _record("summary", "summary"),
}
COMMAND_CHANNELS = ("hook-prompt", "hook-pretool", "remember-command", "learnings-capture")


@dataclass
class Outcome:
    plantings: int
    leaks: list[tuple[str, str]] = field(default_factory=list)
    files: int = 0


def plant_sessions(claude_home: Path, project: Path, secrets: list[Secret]) -> list[Path]:
    """One session per channel, every secret planted in it; returns the transcripts written."""
    folder = transcripts_dir(claude_home, project)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number, (name, plant) in enumerate(CHANNELS.items()):
        session = Session(session_id=f"00000000-0000-4000-8000-{number:012d}", cwd=str(project))
        session.user(f"let's work on the {name} part")
        for secret in secrets:
            plant(session, secret)
        path = folder / f"{session.session_id}.jsonl"
        path.write_text(session.lines(), encoding="utf-8")
        written.append(path)
    return written


def _quiet(argv: list[str], stdin: str = "") -> int:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            return main(argv)
    finally:
        sys.stdin = old


def run_everything(claude_home: Path, project: Path, secrets: list[Secret], work: Path) -> None:
    """Hooks, tick, scan, snapshot, dream, remember and learnings capture over the planted sessions."""
    transcripts = plant_sessions(claude_home, project, secrets)
    where = ["--claude-home", str(claude_home)]
    live = transcripts[0]
    base = {"session_id": live.stem, "transcript_path": str(live), "cwd": str(project)}
    hook("SessionStart", {**base, "hook_event_name": "SessionStart", "source": "startup"})
    for secret in secrets:
        hook("UserPromptSubmit", {**base, "hook_event_name": "UserPromptSubmit", "prompt": secret.sentence})
        hook(
            "PreToolUse",
            {
                **base,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": secret.sentence},
            },
        )
    hook("Stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False})
    _quiet(["tick", "--project", str(project), *where])
    _quiet(["scan", str(project), "--all", "--json", *where])
    _quiet(["snapshot", str(project), "--out", str(work / "snapshot"), *where])
    _quiet(["dream", str(project), "--yes", "--plan-out", str(work / "plan.json"), *where])
    for secret in secrets:
        _quiet(["remember", f"when deploying: {secret.sentence}", "--yes", "--project", str(project), *where])
        capture = {"rule": secret.sentence, "why": f"it broke: {secret.text}", "impact": "high"}
        _quiet(
            ["learnings", "capture", "--project", str(project), "--claude-home", str(claude_home)],
            json.dumps(capture),
        )
    # SessionStart again: the handoff and the lessons the captures made are read back and shown
    hook(
        "SessionStart", {**base, "session_id": "next", "hook_event_name": "SessionStart", "source": "startup"}
    )
    hook("Stop", {**base, "hook_event_name": "Stop", "stop_hook_active": False})


def disk_texts(roots: list[Path], skip: set[Path]) -> dict[str, str]:
    """Every file under the roots (git's own objects and the planted transcripts aside), as text."""
    texts = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in filenames:
                path = Path(dirpath) / name
                if path in skip or not path.is_file():
                    continue
                texts[str(path)] = path.read_bytes().decode("utf-8", "replace") + "\n" + str(path)
            for name in dirnames:
                texts[str(Path(dirpath) / name) + "/"] = str(Path(dirpath) / name)  # names leak too
    return texts


def measure(
    claude_home: Path, project: Path, secrets: list[Secret], work: Path, roots: list[Path]
) -> Outcome:
    run_everything(claude_home, project, secrets, work)
    planted = set(transcripts_dir(claude_home, project).glob("*.jsonl"))
    texts = disk_texts(roots, planted)
    outcome = Outcome(plantings=len(secrets) * (len(CHANNELS) + len(COMMAND_CHANNELS)), files=len(texts))
    outcome.leaks = leaks(secrets, texts)
    return outcome
