"""`consolidate remember "X"`: the early exit — duplicate check, layer choice, one reviewed change."""

from __future__ import annotations

import io

import pytest

from consolidate.cli import main
from consolidate.dream.remember import remember
from consolidate.errors import UsageError


def _remember(capsys, example, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(
        ["remember", *args, "--project", str(example.project), "--claude-home", str(example.claude_home)]
    )
    out, err = capsys.readouterr()
    return code, out, err


def test_remember_with_a_condition_becomes_a_trigger_pointer(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(capsys, example, "when deploying: run the smoke tests first", "--yes")
    assert code == 0
    assert "### [ADD] Learning: run the smoke tests first" in out
    index = (example.memory_dir / "MEMORY.md").read_text()
    assert "- **When deploying:** run the smoke tests first. → [detail](" in index
    assert not (example.memory_dir / ".last-consolidation").exists()  # no marker: no agents ran


def test_a_duplicate_is_not_added_twice(example, capsys) -> None:  # type: ignore[no-untyped-def]
    before = (example.memory_dir / "MEMORY.md").read_text()
    code, out, _ = _remember(
        capsys, example, "use make test because plain pytest misses the DB fixture", "--yes"
    )
    assert code == 0 and out.startswith("already remembered")
    assert (example.memory_dir / "MEMORY.md").read_text() == before


def test_universal_preferences_go_to_l0_and_need_confirmation(example, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(capsys, example, "in all projects, answer in English", "--yes")
    assert code == 0 and "confirm without --yes" in out
    assert not settings.layout.user_claude_md.exists()
    out_stream = io.StringIO()
    answers = iter(["a", "y"])
    report = remember(
        settings, "in all projects, answer in English", out=out_stream, ask=lambda _: next(answers)
    )
    assert report is not None and report.ok
    assert "answer in English" in settings.layout.user_claude_md.read_text()
    assert "every session of every project" in out_stream.getvalue()


def test_explicit_layer_and_section(example, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, _ = _remember(capsys, example, "the API is versioned in the URL path", "--layer", "L1", "--yes")
    assert code == 0
    assert "the API is versioned in the URL path" in settings.layout.project_claude_md.read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("consolidate", "consolidation request"),
        ("clean up memories please", "consolidation request"),
        ("the deploy key is ghp_abcdefghijklmnopqrstuvwxyz0123456789", "refusing to remember a secret"),
        ("hi", "nothing to remember"),
    ],
)
def test_refusals_are_usage_errors(example, settings, capsys, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match=message):
        remember(settings, text, yes=True, out=io.StringIO())
    code, _, err = _remember(capsys, example, text, "--yes")
    assert code == 2 and message in err and "ghp_" not in err


def test_without_a_terminal_remember_needs_yes(example, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = _remember(capsys, example, "when deploying: run the smoke tests first")
    assert code == 2 and "pass --yes" in err


def test_a_project_claude_md_linked_to_the_global_one_needs_confirmation(example, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    settings.layout.user_claude_md.parent.mkdir(parents=True, exist_ok=True)
    settings.layout.user_claude_md.write_text("# Everywhere\n")
    (example.project / "CLAUDE.md").unlink()
    (example.project / "CLAUDE.md").symlink_to(settings.layout.user_claude_md)
    code, out, _ = _remember(capsys, example, "run make lint before pushing", "--layer", "L1", "--yes")
    assert code == 0 and "confirm without --yes" in out
    assert settings.layout.user_claude_md.read_text() == "# Everywhere\n"
