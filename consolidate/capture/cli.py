"""What `consolidate queue` and `consolidate tick` do with their arguments, and what they print."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .config import load_config
from .places import claude_home, repo_root, state_root
from .queue import Queue, bucket_for, open_queue

PREVIEW = 100


def run_queue(args: argparse.Namespace) -> int:
    from ..commands.options import project_of

    bucket = bucket_for(project_of(args) or os.getcwd())
    as_json = getattr(args, "json", False)
    with open_queue(getattr(args, "claude_home", None)) as queue:
        if args.action == "status":
            _status(queue, bucket, as_json)
        elif args.action == "peek":
            _peek(queue.pending(bucket, args.channel), as_json)
        else:
            ids = [queue.resolve(bucket, prefix.lower()) for prefix in args.ids]
            acked = queue.ack(bucket, ids)
            _emit(as_json, {"acked": acked}, "".join(f"acked {i[:12]}\n" for i in acked))
    return 0


def _status(queue: Queue, bucket: str, as_json: bool) -> None:
    counts = queue.counts(bucket)
    total = sum(counts.values())
    lines = [f"{bucket}: {total} pending"] + [f"  {channel}: {n}" for channel, n in counts.items()]
    _emit(as_json, {"project": bucket, "pending": counts, "total": total}, "\n".join(lines) + "\n")


def _peek(items: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(items, ensure_ascii=False, indent=2) + "\n")
        return
    if not items:
        sys.stdout.write("queue is empty\n")
    for item in items:
        payload = " ".join(item["payload"].split())
        preview = payload if len(payload) <= PREVIEW else payload[: PREVIEW - 1] + "…"
        sys.stdout.write(f"{item['id'][:12]}  {item['channel']:<12} {item['created_at']}  {preview}\n")


def _emit(as_json: bool, data: dict[str, Any], text: str) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n" if as_json else text)


def run_tick_command(args: argparse.Namespace) -> int:
    from ..commands.options import project_of
    from .tick import TickScope, run_tick

    home = claude_home(args.claude_home)
    state = state_root(home)
    cwd = os.path.realpath(project_of(args) or os.getcwd())
    config = load_config(state, repo_root(cwd))
    for problem in config.problems:
        sys.stderr.write(f"consolidate: {problem}\n")
    live = Path(args.transcript) if args.transcript else None
    scope = TickScope(home, state, cwd, config, live_transcript=live, byte_budget=args.max_bytes)
    result = run_tick(scope, datetime.now(UTC))
    if args.json:
        data = {
            "added": result.added,
            "lessons": result.lessons,
            "lines": result.lines(),
            **result.stats.to_dict(),
        }
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    elif result.lines():
        sys.stdout.write("\n".join(result.lines()) + "\n")
    return 0
