"""Claude Code hooks: `consolidate hook <Event>` reads the event's JSON on stdin and answers on stdout.

Standard library and our own light modules only — a hook runs on every prompt and every tool call.
"""
