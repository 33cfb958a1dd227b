"""Property: whatever proposals are applied to whatever memory dir, undo restores every byte."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from consolidate.apply import apply_plan
from consolidate.journal import latest_undoable
from consolidate.plan import Plan
from consolidate.runs import journal_dir, write_scope
from consolidate.settings import load_settings
from tests.helpers.fuzz import examples
from tests.helpers.memory import plan_dict, snapshot_bytes, write_tree

NAMES = ["a.md", "b.md", "c.md", "clusters/x.md"]
LINES = st.sampled_from(
    ["- one", "- **When x:** y. → [d](a.md)", "- two\r", "plain", "## S", "", "- [b](b.md)"]
)
FILES = st.dictionaries(st.sampled_from(NAMES), st.lists(LINES, max_size=6).map("\n".join), max_size=4)
CHANGES = st.one_of(
    st.builds(lambda f: {"op": "trash_file", "file": f}, st.sampled_from(NAMES)),
    st.builds(
        lambda f, t: {"op": "write_file", "file": f, "content": t},
        st.sampled_from(NAMES),
        st.text(st.characters(exclude_categories=("Cc", "Cs")) | st.sampled_from("\n\t"), max_size=40),
    ),
    st.builds(
        lambda s, t: {"op": "add_entry", "file": "MEMORY.md", "section": s, "text": t},
        st.sampled_from(["", "S", "New"]),
        st.sampled_from(["n1", "n2", "N. → [d](a.md)"]),
    ),
    st.builds(
        lambda t: {"op": "drop_entry", "file": "MEMORY.md", "text": t}, st.sampled_from(["- one", "- two"])
    ),
    st.builds(
        lambda s: {
            "op": "cluster_section",
            "file": "MEMORY.md",
            "section": s,
            "cluster_file": "clusters/s.md",
            "pointer": "**When s:** open. → [s](clusters/s.md)",
        },
        st.sampled_from(["S", "T"]),
    ),
)
PROPOSALS = st.lists(st.lists(CHANGES, min_size=1, max_size=3), min_size=1, max_size=5)


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    index=st.lists(LINES, max_size=10).map("\n".join), files=FILES, proposals=PROPOSALS, mark=st.booleans()
)
def test_undo_restores_every_byte(
    tmp_path: Path, index: str, files: dict[str, str], proposals, mark: bool
) -> None:  # type: ignore[no-untyped-def]
    root = Path(tempfile.mkdtemp(dir=tmp_path))
    try:
        project = root / "project"
        project.mkdir()
        config = load_settings(project, home=root / "home")
        write_tree(config.memory_dir, {"MEMORY.md": index, **files})
        before = snapshot_bytes(config.memory_dir)
        actions = ["REMOVE", "MERGE", "CLUSTER", "ADD", "EDIT"]
        raw = [
            {
                "id": f"P{i}",
                "action": actions[i % 5],
                "summary": "s",
                "target": {"file": "MEMORY.md"},
                "changes": changes,
            }
            for i, changes in enumerate(proposals)
        ]
        plan = Plan.model_validate(plan_dict(config, raw, mark=mark))
        report = apply_plan(plan, write_scope(config), journal_dir=journal_dir(config))
        if report.journal is not None:
            latest_undoable(journal_dir(config)).restore()
        assert snapshot_bytes(config.memory_dir) == before
    finally:
        shutil.rmtree(root)
