"""The learnings engine: episodes of mistakes and corrections, scored, linted and promoted.

Light at import time (standard library only): the hooks read the lessons on every tool call.
"""
