"""Errors a user can cause or meet; the CLI turns each into one line and an exit code."""

from __future__ import annotations


class ConsolidateError(Exception):
    """A failure of the run (exit 1) with a one-line reason."""

    exit_code = 1


class UsageError(ConsolidateError):
    """Bad arguments or bad input such as an invalid plan (exit 2)."""

    exit_code = 2


class NoAnswer(ConsolidateError):
    """The person left the review prompt without answering (end of input, Ctrl-C): nothing applied."""

    def __init__(self, message: str, exit_code: int = 0) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class LockedError(ConsolidateError):
    """Another run holds the lock for this memory dir."""
