"""`make bench` runs every bench in bench/, and what needs the shared corpus says so and skips."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _run_all():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("run_all", BENCH / "run_all.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["run_all"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_every_bench_is_run_by_run_all() -> None:
    listed = {bench.name for bench in _run_all().BENCHES}
    assert listed == {p.stem for p in BENCH.glob("*.py") if not p.stem.startswith("_")} - {"run_all"}


def test_without_the_corpus_the_corpus_benches_skip_saying_why(tmp_path: Path) -> None:
    missing = tmp_path / "no-corpus"
    done = subprocess.run(
        [sys.executable, str(BENCH / "run_all.py"), "--corpus", str(missing), "--only",
         "audit_corpus,scan_corpus,recall"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(f"skipped: needs the shared corpus at {missing}") == 6  # a line and a row each
    for bench in ("audit_corpus", "audit_real", "scan_corpus"):
        alone = subprocess.run([sys.executable, str(BENCH / f"{bench}.py"), "--corpus", str(missing)],
                               capture_output=True, text=True, timeout=120)  # fmt: skip
        assert alone.returncode == 0 and alone.stdout.startswith(
            f"skipped: the shared corpus is not at {missing}"
        )


def test_an_unknown_bench_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "run_all.py"), "--only", "nope"], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "unknown bench(es): nope" in done.stderr


def test_the_cli_hook_bench_skips_saying_why_without_the_cli(tmp_path: Path) -> None:
    missing = tmp_path / "no-claude"
    done = subprocess.run([sys.executable, str(BENCH / "hooks_cli.py"), "--cli", str(missing)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stdout == f"skipped: no Claude Code CLI ({missing})\n"


def test_fidelity_counts_a_proposal_that_cannot_be_applied_as_writing_nothing() -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import llm_fidelity

    principle = "Move each finished item under the Done heading of the todo list in the same commit"
    proposal = {
        "id": "P1",
        "sources": ["discoverer"],
        "changes": [{"op": "add_entry", "text": principle}],
        "diff": "--- a/CLAUDE.md\n",
    }
    plan = {"proposals": [proposal]}
    assert llm_fidelity.follow("c", 1, {"principle": principle}, plan).status == "intact"
    proposal["diff"] = "# cannot be applied as planned: the new pointer to done.md would not resolve\n"
    outcome = llm_fidelity.follow("c", 1, {"principle": principle}, plan)
    assert outcome.status == "dropped" and outcome.reason.startswith("unappliable: cannot be applied")
    llm_fidelity.judge(outcome, {}, has_backlog=False)
    assert outcome.verdict == "wrong"
