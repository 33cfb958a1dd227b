from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from consolidate.cli import main
from consolidate.learnings.store import EpisodeStore, store_path
from consolidate.settings import load_settings
from tests.helpers.gitrepo import GitRepo

RULE = {
    "rule": "Run the suite with make test",
    "why": "it sets the offline env",
    "impact": "critical",
    "tags": ["tool"],
}


def run(argv: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = "") -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(argv)


def capture(project: Path, monkeypatch: pytest.MonkeyPatch, times: int = 1, data: dict | None = None) -> str:
    for _ in range(times):
        assert (
            run(
                ["learnings", "capture", "--json", "--project", str(project)],
                monkeypatch,
                json.dumps(data or RULE),
            )
            == 0
        )
    episodes = EpisodeStore(store_path(load_settings(project).state_dir, project)).episodes()
    return next(iter(episodes))


def test_capture_score_lint_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "\n".join(json.dumps(d) for d in (RULE, {"rule": "Keep fixtures synthetic", "impact": "low"}))
    assert run(["learnings", "capture", "--project", str(tmp_path)], monkeypatch, lines) == 0
    assert capsys.readouterr().out.count("captured EP-") == 2
    capture(tmp_path, monkeypatch, times=2)  # near-duplicates bump freq to 3
    capsys.readouterr()
    assert run(["learnings", "score", "--json", "--project", str(tmp_path)], monkeypatch) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["freq"], r["score"]) for r in rows] == [(3, pytest.approx(1.0)), (1, pytest.approx(0.53))]
    assert run(["learnings", "lint", "--json", "--project", str(tmp_path)], monkeypatch) == 0
    kinds = {(f["kind"], f["freq"]) for f in json.loads(capsys.readouterr().out)}
    assert kinds == {("HOT", 3), ("PROMOTE", 3)}
    assert run(["learnings", "report", "--project", str(tmp_path)], monkeypatch) == 0
    report = capsys.readouterr().out
    assert report.startswith("# Learnings report") and "**HOT**" in report and "2 active" in report


def test_archive_bump_and_unknown_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    identifier = capture(tmp_path, monkeypatch)
    assert run(["learnings", "bump", identifier, "--project", str(tmp_path)], monkeypatch) == 0
    assert run(["learnings", "archive", identifier, "--json", "--project", str(tmp_path)], monkeypatch) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {
        "id": identifier,
        "freq": 2,
        "status": "archived",
    }
    assert run(["learnings", "score", "--json", "--project", str(tmp_path)], monkeypatch) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert run(["learnings", "bump", "EP-19990101-001", "--project", str(tmp_path)], monkeypatch) == 2
    assert "no episode EP-19990101-001" in capsys.readouterr().err
    assert run(["learnings", "capture", "--project", str(tmp_path)], monkeypatch, "{not json") == 2
    assert run(["learnings", "capture", "--project", str(tmp_path)], monkeypatch, "") == 2


def test_promote_applies_a_reviewed_proposal(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    git_repo.write("CLAUDE.md", "# Project\n\n## Conventions\n- Keep it small\n")
    identifier = capture(git_repo.path, monkeypatch, times=3)
    assert run(["learnings", "promote", identifier, "--project", str(git_repo.path)], monkeypatch) == 2
    assert "--yes" in capsys.readouterr().err  # no terminal: never a silent edit
    assert (
        run(["learnings", "promote", identifier, "--yes", "--project", str(git_repo.path)], monkeypatch) == 0
    )
    out = capsys.readouterr().out
    assert "| ADD |" in out and f"{identifier} promoted" in out
    claude_md = (git_repo.path / "CLAUDE.md").read_text()
    assert claude_md.endswith("## Learnings\n- Run the suite with make test (it sets the offline env)\n")
    assert "## Conventions\n- Keep it small\n" in claude_md
    store = EpisodeStore(store_path(load_settings(git_repo.path).state_dir, git_repo.path))
    assert store.get(identifier).status == "promoted"
    assert run(["learnings", "promote", identifier, "--project", str(git_repo.path)], monkeypatch) == 0
    assert "already promoted" in capsys.readouterr().out


def test_promote_to_a_plan_file_then_apply(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    identifier = capture(git_repo.path, monkeypatch)
    plan_file = tmp_path / "plan.json"
    argv = ["learnings", "promote", identifier, "--plan-out", str(plan_file), "--project", str(git_repo.path)]
    assert run(argv, monkeypatch) == 0
    plan = json.loads(plan_file.read_text())
    (proposal,) = plan["proposals"]
    assert (proposal["action"], proposal["layer"]) == ("ADD", "L1")
    assert proposal["target"]["file"] == str(git_repo.path.resolve() / "CLAUDE.md")
    assert not (git_repo.path / "CLAUDE.md").exists()
    assert run(["apply", str(plan_file), "--yes", "--project", str(git_repo.path)], monkeypatch) == 0
    assert "Run the suite with make test" in (git_repo.path / "CLAUDE.md").read_text()
    assert run(["learnings", "promote", identifier, "--project", str(git_repo.path)], monkeypatch) == 0
    store = EpisodeStore(store_path(load_settings(git_repo.path).state_dir, git_repo.path))
    assert store.get(identifier).status == "promoted"
