"""A command's words without shlex's lexer where it has no quote or backslash: the same words shlex gives."""

from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.discover.triggers import command_head, shell_words

_PIECES = ["cargo", "test", "-p", "x", " ", "\t", "\n", "\r", "&&", "|", ";", "#", "$(a)", "=", "FOO=1", "é",
           "\x0b", "\xa0", "\u2003", "'", '"', "\\", "*", "~/", "2>&1"]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_the_same_words_as_shlex(command: str) -> None:
    try:
        expected = shlex.split(command)
    except ValueError:  # an unclosed quote: the plain words
        expected = command.split()
    assert shell_words(command) == expected


def test_the_head_of_a_command() -> None:
    assert command_head("cd x && FOO=1 cargo test -p y | tail") == "cargo test"
    assert command_head("git commit -m 'a b'") == "git commit"
    assert command_head('echo "unclosed') == 'echo "unclosed'  # shlex refuses it: the plain words
