"""What each `consolidate learnings` action does; the command module only parses arguments."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..capture.places import claude_home, state_root
from ..errors import UsageError
from .episodes import Episode
from .report import finding_dict, markdown_report, score_rows
from .scoring import lint
from .store import EpisodeStore, open_store


def run_action(args: argparse.Namespace, now: datetime | None = None) -> int:
    now = now or datetime.now(UTC)
    store = _store(args)
    handler = {
        "capture": _capture,
        "score": _score,
        "lint": _lint,
        "report": _report,
        "promote": _promote,
    }.get(args.action)
    if handler is not None:
        return handler(args, store, now)
    if args.action == "confirm":
        episode = store.confirm(args.id, now)
        _say(
            args,
            {"id": episode.id, "guard": True},
            f"{episode.id}: guard confirmed; it now denies matching calls\n",
        )
        return 0
    status = {"archive": "archived", "bump": None}[args.action]
    episode = store.bump(args.id, now) if status is None else store.set_status(args.id, status, now)
    _say(args, {"id": episode.id, "freq": episode.freq, "status": episode.status}, _line(episode))
    return 0


def _store(args: argparse.Namespace) -> EpisodeStore:
    from ..commands.options import project_of

    state = state_root(claude_home(getattr(args, "claude_home", None)))
    project = project_of(args)
    if getattr(args, "global_store", False):
        if project is not None:
            raise UsageError("--global and a project exclude each other")
        return open_store(state, None)
    return open_store(state, project or os.getcwd())


def _capture(args: argparse.Namespace, store: EpisodeStore, now: datetime) -> int:
    results = []
    for data in read_inputs(sys.stdin.read()):
        episode, is_new = store.capture(data, now)
        results.append({"id": episode.id, "new": is_new, "freq": episode.freq})
        if not getattr(args, "json", False):
            verb = "captured" if is_new else "bumped (near-duplicate rule)"
            sys.stdout.write(f"{verb} {episode.id}: freq {episode.freq}\n")
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(results) + "\n")
    return 0


def read_inputs(text: str) -> list[Any]:
    """Episodes on stdin: one JSON object, an array of them, or one object per line."""
    if not text.strip():
        raise UsageError('capture reads JSON on stdin, e.g. {"rule": "…", "impact": "high"}')
    try:
        data = json.loads(text)
        return data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        pass
    except RecursionError:
        raise UsageError("capture input is nested too deeply to be an episode") from None
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise UsageError(f"stdin line {number}: not valid JSON ({exc.msg})") from None
    return items


def _score(args: argparse.Namespace, store: EpisodeStore, now: datetime) -> int:
    episodes = [e for e in store.episodes().values() if args.all or e.status == "active"]
    rows = score_rows(episodes, now)
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return 0
    from ..console import print_table

    table = [
        [r["id"], f"{r['score']:.2f}", r["freq"], r["impact"], r["age_days"], r["status"], r["rule"][:80]]
        for r in rows
    ]
    print_table(["Id", "Score", "Freq", "Impact", "Age (d)", "Status", "Rule"], table)
    return 0


def _lint(args: argparse.Namespace, store: EpisodeStore, now: datetime) -> int:
    findings = lint(store.episodes().values(), now)
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps([finding_dict(f) for f in findings], ensure_ascii=False, indent=2) + "\n")
        return 0
    if not findings:
        sys.stdout.write("lint: nothing to do\n")
    for f in findings:
        sys.stdout.write(
            f"{f.kind:8} {f.episode.id}  {f.score:.2f}  {f.episode.rule[:70]}\n         → {f.advice}\n"
        )
    return 0


def _report(args: argparse.Namespace, store: EpisodeStore, now: datetime) -> int:
    sys.stdout.write(markdown_report(store.episodes(), now))
    return 0


def _promote(args: argparse.Namespace, store: EpisodeStore, now: datetime) -> int:
    from .promote import already_promoted, promotion_plan

    episode = store.get(args.id)
    settings = _settings(args)
    claude_md = settings.layout.project_claude_md
    if episode.status == "promoted":
        sys.stdout.write(f"{episode.id} is already promoted\n")
        return 0
    if already_promoted(episode, claude_md):
        store.set_status(episode.id, "promoted", now)
        sys.stdout.write(f"{episode.id}: the rule is already in {claude_md}; marked promoted\n")
        return 0
    plan = promotion_plan(episode, settings, now, args.section)
    if args.plan_out:
        Path(args.plan_out).write_text(plan.to_json(), encoding="utf-8")
        sys.stdout.write(
            f"wrote {args.plan_out}; review and `consolidate apply {args.plan_out} --project {plan.project}`, then "
            f"`consolidate learnings promote {episode.id}` marks it promoted\n"
        )
        return 0
    return _apply_promotion(args, store, plan, episode, now)


def _apply_promotion(
    args: argparse.Namespace, store: EpisodeStore, plan: Any, episode: Episode, now: datetime
) -> int:
    from ..applying import run_apply

    report = run_apply(plan, _settings(args), only=None, yes=args.yes, stdin=sys.stdin, out=sys.stdout)
    if report is None or not any(r.done for r in report.results):
        return 0 if report is None or report.ok else 1
    store.set_status(episode.id, "promoted", now)
    sys.stdout.write(f"{episode.id} promoted\n")
    return 0


def _settings(args: argparse.Namespace) -> Any:
    from ..commands.options import settings_of

    return settings_of(args)


def _line(episode: Episode) -> str:
    return f"{episode.id}: freq {episode.freq}, {episode.status}\n"


def _say(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    sys.stdout.write(json.dumps(data) + "\n" if getattr(args, "json", False) else text)
