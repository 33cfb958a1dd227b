"""A real Claude Code session (the bundled CLI against the fake API) ends; the plugin's SessionEnd hook
starts the background dream, which finishes after the CLI has killed the hook and exited."""

from __future__ import annotations

import json
import time
from pathlib import Path

from consolidate.capture.places import memory_dir
from consolidate.engines import AUDITOR, DISCOVERER
from consolidate.periodic import store
from tests.fakeapi.server import text
from tests.plugin.test_plugin import _session


def test_session_end_of_a_real_session_prepares_a_plan(
    fake_api, example, isolated_env, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("CONSOLIDATE_CHILD")  # the hooks of this session are the subject
    slow = tmp_path / "slow.json"  # longer than the ~1.5 s Claude Code gives a SessionEnd hook
    answer = {"sleep": 4, "answer": {"findings": [], "candidates": []}}
    slow.write_text(json.dumps({AUDITOR: [answer], DISCOVERER: [answer]}))
    state = Path(isolated_env / ".consolidate-state")
    state.mkdir(exist_ok=True)
    (state / "config.toml").write_text(
        f'[reminder]\nhours = 0\nsessions = 0\n\n[periodic]\nengine = "scripted:{slow}"\n'
    )
    fake_api.script("", [text("DONE")])
    _session("hello", str(example.project))
    folder = store.pending_dir(state, memory_dir(isolated_env / ".claude", example.project))
    assert (folder / store.RUNNING_FILE).exists(), "SessionEnd did not start the background run"
    assert store.read_summary(folder) is None  # the session is over; the run is still working
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (store.read_summary(folder) is None or store.running_pid(folder)):
        time.sleep(0.2)
    summary = store.read_summary(folder)
    assert summary is not None, "the background run did not finish with a pending plan"
    assert summary["engine"] == "scripted" and summary["project"] == str(example.project)
    assert not (state / "periodic.log").exists()
