from __future__ import annotations

from pathlib import Path

import pytest

from memory_layout import (
    check_tree,
    load_memory_tree,
    measure_index,
    project_key,
    read_memory_file,
    resolve_layout,
)
from memory_layout.document import DocumentError, decode_document


def test_project_key_matches_claude_code() -> None:
    assert project_key("/home/me/my.proj_dir v2") == "-home-me-my-proj-dir-v2"
    assert project_key("/tmp/caf\u0065\u0301") == project_key("/tmp/caf\u00e9")  # NFC


def test_project_key_uses_realpath(tmp_path: Path) -> None:
    real = tmp_path / "real.dir"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert project_key(link) == project_key(real)


def test_long_keys_truncate_and_match_by_prefix(tmp_path: Path) -> None:
    deep = tmp_path / ("a" * 120) / ("b" * 120)
    deep.mkdir(parents=True)
    key = project_key(deep)
    assert len(key) == 200
    home = tmp_path / "claude"
    hashed = home / "projects" / (key + "-1x2y3z")
    (hashed / "memory").mkdir(parents=True)
    layout = resolve_layout(deep, home=home)
    assert layout.memory_dir == hashed / "memory"


def test_memory_under_git_root_transcripts_under_cwd(git_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sub = git_repo.path / "pkg" / "sub"
    sub.mkdir(parents=True)
    layout = resolve_layout(sub, home=tmp_path / "claude")
    assert layout.memory_dir.parent.name == project_key(git_repo.path)
    assert layout.transcripts_dir.name == project_key(sub)
    assert layout.project_claude_md == git_repo.path.resolve() / "CLAUDE.md"


def test_claude_config_dir_and_explicit_memory_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    layout = resolve_layout(tmp_path)
    assert str(layout.memory_dir).startswith(str(tmp_path / "cfg" / "projects"))
    explicit = resolve_layout(tmp_path, memory_dir=tmp_path / "mine")
    assert explicit.memory_dir == tmp_path / "mine"


def test_decode_rejects_binary_invalid_and_huge() -> None:
    with pytest.raises(DocumentError, match="binary"):
        decode_document(b"abc\x00def", "x.md")
    with pytest.raises(DocumentError, match="not valid UTF-8"):
        decode_document(b"ok \xff\xfe", "x.md")
    with pytest.raises(DocumentError, match="over the 4 MiB limit"):
        decode_document(b"- a\n" * 2_600_000, "MEMORY.md")


def _memory(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    root = tmp_path / "memory"
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return root


def test_health_finds_every_defect_kind(tmp_path: Path) -> None:
    entries = "".join(f"- note {i}\n" for i in range(26))
    root = _memory(
        tmp_path,
        {
            "MEMORY.md": "# Project Memory\n## Big\n" + entries + "## Links\n- [x](topic.md)\n"
            "- **When y:** z. → [d](missing.md)\n- "
            + "long " * 40
            + "\n- **When c:** see. → [c](clusters/c.md)\n",
            "topic.md": "---\nname: t\n---\nbody\n",
            "orphan.md": "nobody links here\n",
            "clusters/c.md": "# C\n- **When q:** r. → [d](../topic.md)\n",
            "bin.md": b"\x00\x01binary",
            "broken.md": "---\nname: [x\n---\n",
        },
    )
    kinds = {(d.kind, d.file) for d in check_tree(load_memory_tree(root))}
    assert ("crowded-section", "MEMORY.md") in kinds
    assert ("bare-pointer", "MEMORY.md") in kinds
    assert ("dangling-pointer", "MEMORY.md") in kinds
    assert ("long-entry", "MEMORY.md") in kinds
    assert ("orphan-topic", "orphan.md") in kinds
    assert ("unreadable", "bin.md") in kinds
    assert ("broken-frontmatter", "broken.md") in kinds
    assert ("orphan-topic", "topic.md") not in kinds
    assert ("orphan-topic", "clusters/c.md") not in kinds


def test_budget_counts_lines_and_bytes(tmp_path: Path) -> None:
    data = b"- x\n" * 201
    budget = measure_index(data)
    assert (budget.lines, budget.bytes, budget.over_budget) == (201, 804, True)
    assert measure_index(b"a\nb").lines == 2
    root = _memory(tmp_path, {"MEMORY.md": data})
    assert any(d.kind == "over-budget-lines" for d in check_tree(load_memory_tree(root)))


def test_unreadable_file_is_a_defect_not_a_crash(tmp_path: Path) -> None:
    root = _memory(tmp_path, {"MEMORY.md": "# M\n"})
    (root / "dir.md").mkdir()  # a name that cannot be read as a file
    missing = read_memory_file(root, "dir.md")
    assert missing.document is None
    assert missing.error is not None and missing.error.startswith("cannot read dir.md")


def test_ten_megabyte_index_is_measured_not_parsed(tmp_path: Path) -> None:
    root = _memory(tmp_path, {"MEMORY.md": b"- an entry that repeats\n" * 420_000})
    tree = load_memory_tree(root)
    defects = {d.kind: d.detail for d in check_tree(tree)}
    assert "over the 4 MiB limit" in defects["unreadable"]
    assert defects["over-budget-lines"].startswith("420000 lines")
