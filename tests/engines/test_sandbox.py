"""The anthropic engine's tools read only inside the project and the memory dir, and cap what they say."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from consolidate.engines.sandbox import MAX_OUTPUT_CHARS, ProjectTools


@pytest.fixture
def tools(example) -> ProjectTools:  # type: ignore[no-untyped-def]
    return ProjectTools(example.project, (example.memory_dir,))


def test_reads_project_and_memory_files_with_line_numbers(tools, example) -> None:  # type: ignore[no-untyped-def]
    text, error = tools.call("read_file", {"path": "src/acme/db.py"})
    assert not error and text.startswith("    1| class Database:")
    text, error = tools.call(
        "read_file", {"path": str(example.memory_dir / "MEMORY.md"), "offset": 3, "limit": 1}
    )
    assert not error and text.startswith("    3| ## Feedback") and "more lines (use offset=4)" in text


@pytest.mark.parametrize("path", ["/etc/passwd", "../outside.txt", "~/.ssh/id_rsa", "src/../../outside.txt"])
def test_paths_outside_are_refused(tools, example, path: str) -> None:  # type: ignore[no-untyped-def]
    (example.root / "outside.txt").write_text("secret plans")
    text, error = tools.call("read_file", {"path": path})
    assert error and "outside the project" in text


def test_symlink_escapes_are_refused(tools, example) -> None:  # type: ignore[no-untyped-def]
    (example.root / "outside.txt").write_text("secret plans")
    os.symlink(example.root / "outside.txt", example.project / "link.txt")
    os.symlink(example.root, example.project / "linkdir")
    for path in ("link.txt", "linkdir/outside.txt"):
        text, error = tools.call("read_file", {"path": path})
        assert error and "outside the project" in text
    text, _ = tools.call("grep", {"pattern": "secret plans"})
    assert "outside.txt" not in text


def test_huge_and_binary_files_are_refused(tools, example) -> None:  # type: ignore[no-untyped-def]
    (example.project / "big.log").write_bytes(b"x" * (600 * 1024))
    (example.project / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    assert "bytes (limit" in tools.call("read_file", {"path": "big.log"})[0]
    assert "is binary" in tools.call("read_file", {"path": "blob.bin"})[0]


def test_glob_grep_and_git_log(tools) -> None:  # type: ignore[no-untyped-def]
    listed, _ = tools.call("glob", {"pattern": "src/**/*.py"})
    assert "src/acme/db.py" in listed.splitlines() and ".git" not in listed
    found, _ = tools.call("grep", {"pattern": r"def connect", "glob": "*.py"})
    assert found.strip() == "src/acme/db.py:2:     def connect(self):"
    history, _ = tools.call("git_log", {"path": "scripts/legacy_migrate.py"})
    assert "scripts/legacy_migrate.py deleted in" in history and "Drop the legacy migration script" in history
    renamed, _ = tools.call("git_log", {"path": "src/acme/settings.py"})
    assert "renamed to src/acme/config.py" in renamed
    assert "Initial API skeleton" in tools.call("git_log", {})[0]


def test_output_is_capped_and_redacted(tools, example) -> None:  # type: ignore[no-untyped-def]
    (example.project / "many.txt").write_text("needle\n" * 5000)
    (example.project / ".env").write_text("API_KEY=abcd1234efgh5678\n")
    found, _ = tools.call("grep", {"pattern": "needle"})
    assert len(found) <= MAX_OUTPUT_CHARS + 200
    text, _ = tools.call("read_file", {"path": ".env"})
    assert "abcd1234efgh5678" not in text and "[REDACTED:" in text


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("write_file", {"path": "x", "content": "y"}, "no such tool: write_file"),
        ("Write", {"file_path": "x"}, "no such tool: Write"),
        ("read_file", {"file": "x"}, "bad arguments for read_file"),
        ("grep", {"pattern": "("}, "bad regular expression"),
        ("git_log", {"path": "/etc"}, "outside the project"),
    ],
)
def test_bad_calls_are_error_results_not_exceptions(tools, name, arguments, message) -> None:  # type: ignore[no-untyped-def]
    text, error = tools.call(name, arguments)
    assert error and message in text


def test_nothing_is_written(tools, example) -> None:  # type: ignore[no-untyped-def]
    before = sorted(p for p in Path(example.root).rglob("*") if ".git" not in p.parts)
    for name, arguments in [("glob", {"pattern": "*"}), ("grep", {"pattern": "a"}), ("git_log", {})]:
        tools.call(name, arguments)
    assert sorted(p for p in Path(example.root).rglob("*") if ".git" not in p.parts) == before
