"""The learnings engine: episodes of mistakes and corrections, scored, linted and promoted.

What the hooks read (episodes, scoring, store, lessons) uses the standard library only; promotion and
the command's actions import the plan and apply machinery when they run.
"""
