"""The plain value classes the hooks load behave as the dataclasses they replace."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from consolidate.capture.config import Config
from consolidate.learnings.episodes import Episode, Trigger
from consolidate.plain import asdict, replace
from consolidate.transcripts.records import Record, ToolUse
from consolidate.transcripts.session import TranscriptFile
from consolidate.transcripts.state import FileIdentity, ScanState


def test_equality_repr_and_defaults() -> None:
    assert Record("user", uuid="u1") == Record("user", uuid="u1") != Record("user", uuid="u2")
    assert Record("user") != ToolUse("i", "Bash", {})
    assert repr(Trigger(tool="Bash")) == "Trigger(tool='Bash', command='', path='', project='', guard=False)"
    first, second = Episode("EP-1", "t", "rule"), Episode("EP-1", "t", "rule")
    first.tags.append("x")
    assert second.tags == [] and first != second  # a fresh list each, as default_factory gave
    assert Config().channels is not Config().channels and Config() == Config()


def test_frozen_values_cannot_change_and_hash() -> None:
    identity = FileIdentity(1, 2, 3, 4, 5, "h")
    with pytest.raises(AttributeError, match="frozen"):
        identity.size = 9  # type: ignore[misc]
    assert {identity, FileIdentity(1, 2, 3, 4, 5, "h")} == {identity}
    with pytest.raises(TypeError):
        hash(Record("user"))  # a mutable value is not hashable


def test_replace_and_asdict() -> None:
    identity = FileIdentity(1, 2, 3, 4, 5, "h")
    assert replace(identity, size=7) == FileIdentity(1, 2, 7, 4, 5, "h") and identity.size == 3
    with pytest.raises(TypeError, match="no field 'sise'"):
        replace(identity, sise=7)
    episode = Episode("EP-1", "t", "rule", trigger=Trigger(command="pytest"))
    assert asdict(episode)["trigger"] == {
        "tool": "",
        "command": "pytest",
        "path": "",
        "project": "",
        "guard": False,
    }


def test_copies_and_pickles_keep_every_slot() -> None:
    state = ScanState(saved={1: "kept"})  # type: ignore[dict-item]
    for value in (TranscriptFile(Path("/a.jsonl"), "s", "a1"), Config(top_lessons=2), state):
        for copied in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert copied == value and copied is not value
    assert pickle.loads(pickle.dumps(state)).saved == {1: "kept"}
