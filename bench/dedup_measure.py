"""Which similarity decides "already recorded"? Four scorers on labeled pairs and on real reports.

A candidate is a duplicate when a remembered entry (its pointer and its topic file, or a CLAUDE.md
rule) already says all it says. The scorers:

- `containment` — the token overlap synthesis used before: max(Jaccard, containment of the smaller
  set), threshold 0.75, against the entry's own line (the baseline);
- `token_set` — rapidfuzz `fuzz.token_set_ratio` ≥ 80 against the entry's whole text;
- `wratio` — rapidfuzz `fuzz.WRatio` ≥ 85 against the whole text;
- `says` — ours (`consolidate.dream.similarity`): the share of the candidate's content words the
  whole entry says (same word or stem, or a typo away by rapidfuzz), nothing when the entry misses a
  command or name the candidate puts in backticks; threshold 0.8.

The labeled pairs below are synthetic (written for this bench: restatements that are duplicates, and
short titles inside longer candidates, same-template different-object rules, and rules that add a fact,
which are not). With REPORTS and CASES (as `bench/llm_fidelity.py` takes them) every real non-NOISE
candidate is also scored against every entry of its case; the agents were told not to report what is
recorded, so a real drop is listed for checking by hand.

    python bench/dedup_measure.py [REPORTS CASES]
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rapidfuzz import fuzz  # noqa: E402

from consolidate.dream.similarity import RECORDED, Said, says  # noqa: E402

Pair = tuple[str, str, str, bool]  # candidate, entry line, entry whole text, duplicate?

TOPIC = "\n\nRun `make smoke` before `make deploy`; a failed smoke run blocks the deploy."
PAIRS: list[Pair] = [
    # Duplicates: the entry (with its topic file) already says all of it.
    ("run `make smoke` before `make deploy`; a failed smoke run blocks the deploy",
     "- **When deploying:** run the smoke tests first. → [detail](feedback_deploying.md)",
     "- **When deploying:** run the smoke tests first." + TOPIC, True),
    ("use `uv add` to add dependencies, not pip install",
     "- **When adding a dependency:** use `uv add`, never `pip install`. → [detail](x.md)",
     "- **When adding a dependency:** use `uv add`, never `pip install`.\n\nuv keeps uv.lock in sync; pip does not.", True),
    ("the staging database is read-only on Fridays",
     "- **When planning a migration:** the staging database is read-only on Fridays; migrations wait until Monday.",
     "- **When planning a migration:** the staging database is read-only on Fridays; migrations wait until Monday.", True),
    ("Always run `tspec test -p tspec` instead of cargo test for this repository's tests",
     "tspec test -p tspec            # Run tests (NEVER cargo test)",
     "**Always use `tspec` itself for development.** Never use bare `cargo test`.\n\n```bash\ntspec test -p tspec            # Run tests (NEVER cargo test)\n```", True),
    ("outbound HTTP calls use httpx with a timeout of 10 seconds",
     "- **When working on http client:** use `httpx` with a 10 s timeout. → [detail](reference_http_client.md)",
     "- **When working on http client:** use `httpx` with a 10 s timeout.\n\nEvery outbound call uses httpx; the timeout is 10 seconds.", True),
    ("commits follow conventional commit prefixes such as feat, docs and refactor",
     "- **Commit style:** Conventional commits (feat:, docs:, refactor:)",
     "- **Commit style:** Conventional commits (feat:, docs:, refactor:)", True),
    ("cursor pagination only, never offset pagination",
     "- **When working on pagination:** cursor pagination, never offsets. → [detail](reference_pagination.md)",
     "- **When working on pagination:** cursor pagination, never offsets.\n\nCursor pagination only; offsets break under inserts.", True),
    ("releases are tagged vX.Y.Z",
     "- **When working on releases:** tag releases as vX.Y.Z. → [detail](reference_releases.md)",
     "- **When working on releases:** tag releases as vX.Y.Z.\n\nTag releases as vX.Y.Z.", True),
    # Not duplicates: a short title whose words all appear in a longer, richer candidate.
    ("Deploys run from the `release` branch only, and the approvals, the freeze window and the rollback command live in `docs/deploy.md`",
     "- Deploys — details. → [detail](reference_deploys.md)",
     "- Deploys — details.\n\nDeploys run from the `release` branch only.", False),
    ("Run the tests with `tspec test -p tspec`, never plain `cargo test`, because tspec applies the spec flags the test binaries need",
     "tspec test -p tspec # Run tests",
     "Development workflow:\n```bash\ntspec test -p tspec # Run tests\ntspec clippy # Run lints\n```", False),
    ("Install with `tspec install --path .` (the --path argument is required), not `cargo install`, and only after test, clippy and fmt pass",
     "cargo install --path . # Install from local source",
     "Ensure a recent tspec is installed:\n```bash\ncargo install --path . # Install from local source\n```", False),
    ("the 📝 Learned marker: dependencies are added with `uv add`; run `uv sync` after switching branches",
     "- **When adding a dependency:** use `uv add`. → [detail](x.md)",
     "- **When adding a dependency:** use `uv add`.\n\nuv keeps the lock file in sync.", False),
    # Not duplicates: the same template about another object.
    ("check the queue settings in `queue.toml` before changing queue code",
     "- **When working on cache:** check the cache settings in `cache.toml` before changing cache code. → [detail](c.md)",
     "- **When working on cache:** check the cache settings in `cache.toml` before changing cache code.\n\nCheck the cache settings in `cache.toml` first.", False),
    ("uninstall the old CLI with `pipx uninstall acme` before installing the new one",
     "- **When installing:** install the CLI with `pipx install acme`. → [detail](i.md)",
     "- **When installing:** install the CLI with `pipx install acme`.\n\nInstall the CLI with pipx.", False),
    # Not duplicates: the candidate adds a fact the entry does not have.
    ("Apply formatting with `tspec fmt` (no --check), never `cargo fmt`; then re-run `tspec fmt --check`",
     "**Always use `tspec` itself for development.** Never use bare `cargo test`, `cargo clippy`, `cargo fmt`, or `cargo install`.",
     "**Always use `tspec` itself for development.** Never use bare `cargo test`, `cargo clippy`, `cargo fmt`, or `cargo install`.", False),
    ("keep each migration reversible and test the down step in CI with `make migrate-roundtrip`",
     "- **When writing migrations:** keep each migration reversible.",
     "- **When writing migrations:** keep each migration reversible.", False),
]  # fmt: skip

_LINK = re.compile(r"\]\([^)]*\)")
_WORD = re.compile(r"[^\W_]+")
_OLD_STOP = "the a an and or of to in on for with when is are be it this that use not never always do"


def _tokens(text: str) -> frozenset[str]:
    return frozenset(
        w for w in _WORD.findall(_LINK.sub("]", text.lower())) if len(w) > 2 and w not in _OLD_STOP.split()
    )


def containment(candidate: str, line: str, whole: str) -> bool:
    """The baseline: max(Jaccard, containment of the smaller token set) ≥ 0.75, against the line."""
    a, b = _tokens(candidate), _tokens(line)
    if not a or not b:
        return False
    common = len(a & b)
    small = min(len(a), len(b))
    return max(common / len(a | b), common / small * (0.9 if small < 4 else 1.0)) >= 0.75


def token_set(candidate: str, line: str, whole: str) -> bool:
    return fuzz.token_set_ratio(candidate, whole) >= 80


def wratio(candidate: str, line: str, whole: str) -> bool:
    return fuzz.WRatio(candidate, whole) >= 85


def ours(candidate: str, line: str, whole: str) -> bool:
    return says(Said.of(candidate), Said.of(whole)) >= RECORDED


SCORERS: dict[str, Callable[[str, str, str], bool]] = {
    "containment": containment,
    "token_set": token_set,
    "wratio": wratio,
    "says": ours,
}


def labeled() -> None:
    print("| scorer | true drops | wrong drops | missed duplicates | precision | recall | µs/pair |")
    print("|---|---|---|---|---|---|---|")
    for name, scorer in SCORERS.items():
        started = time.perf_counter()
        for _ in range(20):
            verdicts = [(scorer(c, line, whole), dup) for c, line, whole, dup in PAIRS]
        micros = (time.perf_counter() - started) / (20 * len(PAIRS)) * 1e6
        right = sum(v and d for v, d in verdicts)
        wrong = sum(v and not d for v, d in verdicts)
        missed = sum(d and not v for v, d in verdicts)
        precision = right / (right + wrong) if right + wrong else 1.0
        print(
            f"| {name} | {right} | {wrong} | {missed} | {precision:.2f} | {right / (right + missed):.2f} | {micros:.0f} |"
        )


def real(reports: Path, cases: Path) -> None:
    from consolidate.dream.orient import orient
    from consolidate.dream.remembered import remembered
    from consolidate.settings import load_settings

    counts = dict.fromkeys(SCORERS, 0)
    total = 0
    drops: list[str] = []
    for report in sorted(reports.glob("*/signal-discoverer.json")):
        case = cases / report.parent.name
        if not case.is_dir():
            continue
        entries = remembered(orient(load_settings(case / "tspec", home=case / "claude"), create=False))
        for index, candidate in enumerate(json.loads(report.read_text())["candidates"], start=1):
            if candidate.get("category") == "NOISE":
                continue
            total += 1
            text = f"{candidate.get('trigger', '')} {candidate.get('title', '')} {candidate['principle']}"
            for name, scorer in SCORERS.items():
                hit = next((e for e in entries if scorer(text, e.text, e.whole)), None)
                if hit is not None:
                    counts[name] += 1
                    if name == "says":
                        drops.append(
                            f"{report.parent.name}#C{index}: {candidate['principle'][:100]}\n    matched: {' '.join(hit.whole.split())[:160]}"
                        )
    print(f"\nreal candidates: {total}; dropped as recorded by each scorer:")
    for name, count in counts.items():
        print(f"  {name}: {count}")
    for drop in drops:
        print(f"  says drop to check: {drop}")


def main() -> int:
    labeled()
    if len(sys.argv) == 3:
        reports, cases = Path(sys.argv[1]), Path(sys.argv[2])
        if reports.is_dir() and cases.is_dir():
            real(reports, cases)
        else:
            print(f"skipped the real reports: {reports} or {cases} is not here", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
