"""Bad input and bad moments: one line (or a logged skip), never a traceback, a hang or a partial write.

Commands that could block run as processes with a timeout, so a regression fails instead of hanging.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from consolidate.capture.places import claude_home, state_root, transcripts_dir
from consolidate.cli import main
from consolidate.dream.orient import orient
from consolidate.settings import load_settings
from tests.helpers.gitrepo import GitRepo
from tests.helpers.memory import plan_dict, proposal, snapshot_bytes, write_plan

ROOT = Path(__file__).resolve().parents[2]
INDEX = "# Project Memory\n\n## Notes\n- **When testing:** run make test. → [detail](x.md)\n"


def consolidate(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "consolidate", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("consolidate:")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def memory_dir(tmp_path: Path, index: str = INDEX) -> Path:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text(index)
    return memory


# --- transcripts ------------------------------------------------------------------------------


def _deep_session(repo: GitRepo) -> Path:
    folder = transcripts_dir(claude_home(), repo.path)
    folder.mkdir(parents=True, exist_ok=True)
    marker = {
        "type": "assistant", "uuid": "u1", "sessionId": "s1", "cwd": str(repo.path),
        "message": {"role": "assistant", "content": [{"type": "text", "text": "ok <!-- learning: queued after the deep line -->"}]},
    }  # fmt: skip
    surrogate = '{"type":"user","uuid":"u2","parentUuid":"u1","sessionId":"s1","message":{"role":"user","content":"ship it \\ud83d"}}'
    path = folder / "s1.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n" + json.dumps(marker) + "\n" + surrogate + "\n")
    return path


def test_a_deeply_nested_line_and_a_lone_surrogate_are_skipped_not_fatal(
    repo: GitRepo, tmp_path: Path
) -> None:
    transcript = _deep_session(repo)
    tick = consolidate("tick", "--project", str(repo.path))
    assert tick.returncode == 0 and "1 learning(s) pending" in tick.stdout, tick.stderr
    saved = json.loads((state_root(claude_home()) / "tick" / (transcript.parent.name + ".json")).read_text())
    assert (
        saved["files"][str(transcript)]["offset"] == transcript.stat().st_size
    )  # offsets saved: not re-read
    scan = consolidate("scan", str(repo.path), "--all", "--json")
    assert scan.returncode == 0, scan.stderr
    assert json.loads(scan.stdout)["stats"]["bad_json"] == 1
    dream = consolidate("dream", str(repo.path), "--yes")
    assert dream.returncode == 0, dream.stderr


def test_thousands_of_remember_turns_are_read(repo: GitRepo) -> None:
    """6,000 turns here (bounded); `python bench/growth.py` runs the 60,000 and shows the curve."""
    folder = transcripts_dir(claude_home(), repo.path)
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for n in range(6_000):
        lines.append(json.dumps({
            "type": "user", "uuid": f"u{n}", "parentUuid": f"a{n - 1}" if n else None, "sessionId": "big",
            "cwd": str(repo.path), "message": {"role": "user", "content": f"remember that step {n} runs before step {n + 1}"},
        }))  # fmt: skip
        lines.append(json.dumps({
            "type": "assistant", "uuid": f"a{n}", "parentUuid": f"u{n}", "sessionId": "big",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
        }))  # fmt: skip
    (folder / "big.jsonl").write_text("\n".join(lines) + "\n")
    scan = consolidate("scan", str(repo.path), "--all", "--json", timeout=120)
    assert scan.returncode == 0, scan.stderr
    assert json.loads(scan.stdout)["stats"]["records"] >= 12_000


# --- special files --------------------------------------------------------------------------------


def test_fifos_in_the_memory_dir_are_skipped_with_a_line(repo: GitRepo, tmp_path: Path) -> None:
    memory = memory_dir(tmp_path)
    os.mkfifo(memory / "x.md")
    os.mkfifo(memory / "notes.md")
    for args in (["status"], ["audit"], ["dream", "--yes"]):
        result = consolidate(args[0], str(repo.path), "--memory-dir", str(memory), *args[1:])
        assert result.returncode == 0, result.stderr
        if args[0] != "dream":
            assert "not a regular file" in result.stdout


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "directory"])
def test_apply_refuses_a_plan_that_is_not_a_regular_file(repo: GitRepo, tmp_path: Path, special: str) -> None:
    plan = tmp_path / "plan.json"
    if special == "fifo":
        os.mkfifo(plan)
    elif special == "directory":
        plan.mkdir()
    else:
        plan = Path(special)
    result = consolidate("apply", str(plan), "--yes", "--project", str(repo.path), timeout=30)
    assert result.returncode == 2 and "not a regular file" in one_line(result)


def test_a_fifo_claude_md_does_not_block_the_dream(repo: GitRepo, tmp_path: Path) -> None:
    os.mkfifo(repo.path / "CLAUDE.md")
    result = consolidate("dream", str(repo.path), "--yes", "--memory-dir", str(memory_dir(tmp_path)))
    assert result.returncode == 0, result.stderr


# --- malformed memory -----------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["status"], ["audit"], ["dream", "--yes"]])
def test_a_memory_md_that_is_a_directory_is_one_line(
    repo: GitRepo, tmp_path: Path, command: list[str]
) -> None:
    memory = tmp_path / "memory"
    (memory / "MEMORY.md").mkdir(parents=True)
    result = consolidate(command[0], str(repo.path), "--memory-dir", str(memory), *command[1:])
    assert result.returncode == 2 and "MEMORY.md is a directory" in one_line(result)


@pytest.mark.parametrize("command", [["status"], ["audit"], ["dream", "--yes"]])
def test_a_memory_dir_that_is_a_file_is_one_line(repo: GitRepo, tmp_path: Path, command: list[str]) -> None:
    memory = tmp_path / "memory"
    memory.write_text("not a directory\n")
    result = consolidate(command[0], str(repo.path), "--memory-dir", str(memory), *command[1:])
    assert result.returncode == 2 and "is a file, not a directory" in one_line(result)
    assert memory.read_text() == "not a directory\n"


def test_frontmatter_nested_five_thousand_levels_is_broken_frontmatter(repo: GitRepo, tmp_path: Path) -> None:
    memory = memory_dir(tmp_path)
    (memory / "x.md").write_text("---\nname: " + "[" * 5000 + "]" * 5000 + "\n---\nbody\n")
    (memory / "y.md").write_text("---\nname: y\nmeta: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n---\nbody\n")
    result = consolidate("status", str(repo.path), "--memory-dir", str(memory), "--json")
    assert result.returncode == 0, result.stderr
    kinds = {(d["kind"], d["file"]) for d in json.loads(result.stdout)["defects"]}
    assert {("broken-frontmatter", "x.md"), ("broken-frontmatter", "y.md")} <= kinds


def test_a_plan_nested_too_deeply_is_refused(repo: GitRepo, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text("[" * 100_000 + "]" * 100_000)
    result = consolidate("apply", str(plan), "--yes", "--project", str(repo.path))
    assert result.returncode == 2 and "nested too deeply" in one_line(result)


def test_a_path_over_path_max_is_refused_before_anything_is_written(
    repo: GitRepo, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    settings = load_settings(repo.path)
    settings.memory_dir.mkdir(parents=True)
    (settings.memory_dir / "MEMORY.md").write_text(INDEX)
    deep = "/".join(["d" * 200] * 25) + "/topic.md"  # every name under 255 bytes, the whole over 4096
    change = {"op": "write_file", "file": deep, "content": "# t\n"}
    plan = write_plan(tmp_path / "p.json", plan_dict(settings, [proposal("P1", "ADD", [change], file=deep)]))
    before = snapshot_bytes(settings.memory_dir)
    assert main(["apply", str(plan), "--yes", "--project", str(repo.path)]) == 2
    assert "longer than the system allows" in capsys.readouterr().err
    assert snapshot_bytes(settings.memory_dir) == before
    assert main(["dream", str(repo.path), "--dry-run"]) == 0  # no pending journal was left behind


# --- the moments around apply ---------------------------------------------------------------------


def test_a_failed_proposal_leaves_the_consolidation_unmarked(repo: GitRepo, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    settings = load_settings(repo.path)
    settings.memory_dir.mkdir(parents=True)
    (settings.memory_dir / "MEMORY.md").write_text(INDEX)
    good = proposal(
        "P1", "ADD", [{"op": "add_entry", "file": "MEMORY.md", "section": "Notes", "text": "Use uv."}]
    )
    bad = proposal("P2", "EDIT", [{"op": "replace_entry", "file": "MEMORY.md", "old": "- gone", "new": "x"}])
    plan = write_plan(tmp_path / "p.json", plan_dict(settings, [good, bad], mark=True))
    assert main(["apply", str(plan), "--yes", "--project", str(repo.path)]) == 1
    out = capsys.readouterr().out
    assert "P2 failed" in out and not (settings.memory_dir / ".last-consolidation").exists()
    assert "- Use uv." in (settings.memory_dir / "MEMORY.md").read_text()


def test_a_new_memory_md_is_journaled_so_undo_removes_it(repo: GitRepo, capsys) -> None:  # type: ignore[no-untyped-def]
    settings = load_settings(repo.path)
    index = settings.memory_dir / "MEMORY.md"
    orient(settings)  # a dream creates nothing up front: the first applied proposal writes MEMORY.md
    assert not index.exists()
    orient(settings, create=True)  # a caller that wants it now gets it journaled, then fails or is killed
    assert index.exists()
    assert main(["undo", str(repo.path)]) == 0
    assert not index.exists() and "moved 1 file(s) the run created to the trash" in capsys.readouterr().out


def test_undo_of_a_cluster_leaves_no_empty_clusters_dir(repo: GitRepo, tmp_path: Path) -> None:
    settings = load_settings(repo.path)
    settings.memory_dir.mkdir(parents=True)
    (settings.memory_dir / "MEMORY.md").write_text("# Project Memory\n\n## Deploy\n- one.\n- two.\n")
    change = {"op": "cluster_section", "file": "MEMORY.md", "section": "Deploy", "cluster_file": "clusters/deploy.md",
              "pointer": "**When deploying:** open the deploy notes. → [deploy](clusters/deploy.md)"}  # fmt: skip
    plan = write_plan(tmp_path / "p.json", plan_dict(settings, [proposal("P1", "CLUSTER", [change])]))
    before = snapshot_bytes(settings.memory_dir)
    assert main(["apply", str(plan), "--yes", "--project", str(repo.path)]) == 0
    assert (settings.memory_dir / "clusters" / "deploy.md").exists()
    assert main(["undo", str(repo.path)]) == 0
    assert snapshot_bytes(settings.memory_dir) == before and not (settings.memory_dir / "clusters").exists()


def test_temp_files_of_a_killed_write_are_removed_by_undo_and_by_the_next_run(
    repo: GitRepo, tmp_path: Path
) -> None:
    settings = load_settings(repo.path)
    settings.memory_dir.mkdir(parents=True)
    (settings.memory_dir / "MEMORY.md").write_text(INDEX)
    change = {"op": "add_entry", "file": "MEMORY.md", "section": "Notes", "text": "Use uv."}
    plan = write_plan(tmp_path / "p.json", plan_dict(settings, [proposal("P1", "ADD", [change])]))
    env = {**os.environ, "CONSOLIDATE_KILL_BEFORE_RENAME": "MEMORY.md"}
    killed = subprocess.run(
        [sys.executable, "-m", "consolidate", "apply", str(plan), "--yes", "--project", str(repo.path)],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert killed.returncode == -9
    temps = list(settings.memory_dir.glob(".MEMORY.md.*.tmp"))
    assert len(temps) == 1 and temps[0].stat().st_mode & 0o777 == 0o600
    assert main(["undo", str(repo.path)]) == 0
    assert (
        not list(settings.memory_dir.glob(".*.tmp"))
        and (settings.memory_dir / "MEMORY.md").read_text() == INDEX
    )
    (settings.memory_dir / ".MEMORY.md.abcd1234.tmp").write_bytes(b"half")  # a killed write with no journal
    assert main(["dream", str(repo.path), "--yes"]) == 0
    assert not list(settings.memory_dir.glob(".*.tmp"))


def test_undo_on_a_full_disk_is_one_line_and_can_be_run_again(repo: GitRepo, tmp_path: Path) -> None:
    settings = load_settings(repo.path)
    settings.memory_dir.mkdir(parents=True)
    big = "# Big\n\n" + "- a line of the topic file that is long enough\n" * 4000
    (settings.memory_dir / "MEMORY.md").write_text(INDEX)
    (settings.memory_dir / "big.md").write_text(big)
    change = {"op": "write_file", "file": "big.md", "content": "# Small\n"}
    plan = write_plan(
        tmp_path / "p.json", plan_dict(settings, [proposal("P1", "EDIT", [change], file="big.md")])
    )
    assert main(["apply", str(plan), "--yes", "--project", str(repo.path)]) == 0
    limited = (
        "import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096)); "
        "from consolidate.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    full = subprocess.run(
        [sys.executable, "-c", limited, "undo", str(repo.path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert full.returncode == 1 and "big.md" in one_line(full) and "undo` again" in full.stderr
    assert main(["undo", str(repo.path)]) == 0
    assert (settings.memory_dir / "big.md").read_text() == big
