"""consolidate hook EVENT (reads Claude Code's hook JSON on stdin)"""

from __future__ import annotations

import argparse

SHARED = ("claude-home",)
HELP = "run a Claude Code hook: SessionStart, UserPromptSubmit, PreToolUse or Stop (JSON on stdin)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("event", help="the hook event name, as Claude Code names it")


def run(args: argparse.Namespace) -> int:
    import os

    from ..hooks.launch import answer, state_dir

    env = dict(os.environ)
    if args.claude_home:
        env["CLAUDE_CONFIG_DIR"] = args.claude_home
    if env.get("CONSOLIDATE_CHILD") == "1":
        return 0
    return answer(args.event, env, state_dir(env))
