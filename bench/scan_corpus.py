"""Discoverer on the real sessions of `../shared/corpus/` (needs it): speed as whole processes against a
read-and-parse baseline, re-scan with nothing changed, peak memory at 1x/2x/4x the corpus, and the
candidates for hand-checking.

Speed: each round runs, one after the other, the baseline (a fresh `python` that reads every line of
the tspec and zc-ring-x1 sessions, ~95 MB, and `json.loads` it), `consolidate scan --all` over the same
sessions with an empty scan state, and the same scan again with nothing changed. Start-up and imports
count on both sides; CPU time (user + system) and wall time are both given, as ratios within the round,
min / median / max over the rounds. Memory: every measurement runs in its own process (so peak RSS is
that run's own); the N-times corpus repeats every session under a new name (linked, not copied).

    python bench/scan_corpus.py                 # speed (5 rounds), memory at 1x, 2x, 4x
    python bench/scan_corpus.py --rounds 9 --scales ""
    python bench/scan_corpus.py --show          # also print every candidate with its evidence
    python bench/scan_corpus.py --rounds 5 --scales "" --against ../main   # paired with other code

`--against DIR` runs, in every round, the scans of the code checked out in DIR as well (alternating
which goes first), prints its figures beside this code's and this code's CPU time as a share of its,
and says whether both wrote the same scan output: the printed report, `state.json` and the signals
file byte for byte (the random name of the signals file and the code fingerprint in each entry's
version aside), and the saved report (its cache key aside).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import fmt_spread, run_process

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SOURCES = [
    "winksaville__tspec/.claude",
    "winksaville__zc-ring-x1.claude",
    "moredip__session-share/samples/claude-code-projects",
]
SPEED_SOURCES = SOURCES[:2]  # the ~95 MB of the speed targets
BASELINE = (
    "import json, sys\nfrom pathlib import Path\nn = 0\n"
    "for path in sorted(Path(sys.argv[1]).rglob('*.jsonl')):\n"
    "    with open(path, 'rb') as handle:\n"
    "        for line in handle:\n"
    "            json.loads(line)\n"
    "            n += 1\n"
    "print(n)\n"
)


def link_corpus(target: Path, copies: int, corpus: Path = CORPUS, sources: list[str] = SOURCES) -> None:
    """`copies` times every session (and its subagents) of the corpus, linked under fresh names."""
    target.mkdir(parents=True)
    for copy in range(copies):
        for index, source in enumerate(sources):
            folder = corpus / source
            for entry in folder.iterdir():
                name = f"c{copy}s{index}-{entry.name}"
                if entry.suffix == ".jsonl" or (entry / "subagents").is_dir():
                    os.symlink(entry, target / name)


def parse_every_line(directory: Path) -> int:
    """The baseline: read every transcript line under `directory` and `json.loads` it; the line count."""
    lines = 0
    for path in sorted(directory.rglob("*.jsonl")):
        with open(path, "rb") as handle:
            for line in handle:
                json.loads(line)
                lines += 1
    return lines


def speed(root: Path, rounds: int, corpus: Path, against: Path | None = None) -> None:
    """Whole processes, round by round: baseline, full scan (empty state), re-scan (nothing changed);
    with `against`, the two scans of that code too, in the same round."""
    directory = root / "speed" / "sessions"
    link_corpus(directory, 1, corpus, SPEED_SOURCES)
    project = root / "speed" / "project"
    project.mkdir()
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    codes = {"this": {**env, "PYTHONPATH": str(ROOT)}}
    if against is not None:
        codes["against"] = {**env, "PYTHONPATH": str(against.resolve())}
    states = {code: root / "speed" / f"state-{code}" for code in codes}
    for code, state in states.items():
        codes[code]["CONSOLIDATE_STATE_DIR"] = str(state)
    baseline = [sys.executable, "-c", BASELINE, str(directory)]
    # -P: `-m` would put the current directory first on the path, so that a run from a checkout scanned
    # with that checkout's code whatever PYTHONPATH says (`--against` compared this code with itself)
    scan = [sys.executable, "-P", "-m", "consolidate", "scan", str(project), "--all", "--transcripts", str(directory),
            "--claude-home", str(root / "speed" / "home")]  # fmt: skip
    run_process(baseline, env=env)  # warm the page cache and the bytecode
    for code in codes:
        run_process(scan, env=codes[code])
    rows = {code: {k: [] for k in ("full_cpu", "full_wall", "rescan_cpu", "rescan_wall")} for code in codes}
    cpu: dict[str, list[float]] = {"baseline": []}
    cpu.update({f"{name} {code}": [] for code in codes for name in ("full", "rescan")})
    outputs: dict[str, list[bytes]] = {}
    for index in range(rounds):
        base = run_process(baseline, env=env)
        cpu["baseline"].append(base.cpu)
        order = list(codes) if index % 2 == 0 else list(reversed(codes))
        for code in order:
            shutil.rmtree(states[code], ignore_errors=True)
            full, again = run_process(scan, env=codes[code]), run_process(scan, env=codes[code])
            row = rows[code]
            row["full_cpu"].append(full.cpu / base.cpu)
            row["full_wall"].append(full.wall / base.wall)
            row["rescan_cpu"].append(again.cpu / full.cpu)
            row["rescan_wall"].append(again.wall / full.wall)
            cpu[f"full {code}"].append(full.cpu)
            cpu[f"rescan {code}"].append(again.cpu)
            outputs.setdefault(
                code, [full.stdout.encode(), again.stdout.encode(), *scan_output(states[code])]
            )
    size = sum(p.stat().st_size for p in directory.rglob("*.jsonl")) / 1e6
    print(f"scan speed, whole processes, {size:.0f} MB ({', '.join(SPEED_SOURCES)}), {rounds} rounds, "
          f"min / median / max:")  # fmt: skip
    for code in codes:
        row = rows[code]
        if against is not None:
            print(f" {'this code' if code == 'this' else f'against {against}'}:")
        print(f"  CPU s: baseline {fmt_spread(cpu['baseline'], ' s')}; full scan {fmt_spread(cpu[f'full {code}'], ' s')}; "
              f"re-scan {fmt_spread(cpu[f'rescan {code}'], ' s', 3)}")  # fmt: skip
        print(f"  full scan / json.loads loop:  CPU {fmt_spread(row['full_cpu'])}   wall {fmt_spread(row['full_wall'])}"
              "   (target <= 1.5x)")  # fmt: skip
        print(f"  re-scan / full scan:          CPU {fmt_spread(row['rescan_cpu'])}   wall {fmt_spread(row['rescan_wall'])}"
              "   (target <= 0.15x)")  # fmt: skip
    if against is not None:
        shares = [a / b for a, b in zip(cpu["full this"], cpu["full against"], strict=True)]
        again = [a / b for a, b in zip(cpu["rescan this"], cpu["rescan against"], strict=True)]
        same = "the same scan output" if outputs["this"] == outputs["against"] else "the scan outputs DIFFER"
        print(
            f" this code / against, CPU: full scan {fmt_spread(shares)}; re-scan {fmt_spread(again)}; {same}"
        )


def scan_output(state: Path) -> list[bytes]:
    """What a scan wrote under its state dir, comparable between two checkouts of the code: `state.json`
    without the signals file's random name and each entry's code fingerprint, the signals file, the
    saved report without its cache key, and every other file as it is."""
    found: list[bytes] = []
    for path in sorted(p for p in state.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name == "state.json":
            document = json.loads(data)
            document.get("data", {}).pop("signals_file", None)
            for entry in document.get("files", {}).values():
                entry.get("data", {}).pop("version", None)
            data = json.dumps(document, sort_keys=True).encode()
        elif path.name == "report.json":
            data = json.dumps(json.loads(data).get("report"), sort_keys=True).encode()
        name = "signals.jsonl" if path.name.startswith("signals-") else str(path.relative_to(state))
        found += [name.encode(), data]
    return found


def child(mode: str, directory: Path, state: Path) -> dict[str, float]:
    """One measurement in this process: "baseline" (read + json.loads every line) or "scan"."""
    started, cpu = time.perf_counter(), time.process_time()
    result: dict[str, float] = {}
    if mode == "baseline":
        result["lines"] = parse_every_line(directory)
    else:
        os.environ["CONSOLIDATE_STATE_DIR"] = str(state)
        from consolidate.discover import discover
        from consolidate.settings import load_settings

        settings = load_settings(directory.parent, home=directory.parent / "home")
        report = discover(settings, (), sessions=None, since=None, transcripts_dir=directory)
        result["candidates"] = len(report.candidates)
    result["seconds"] = time.process_time() - cpu
    result["wall"] = time.perf_counter() - started
    result["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def measure(mode: str, directory: Path, state: Path) -> dict[str, float]:
    command = [sys.executable, __file__, "--child", mode, str(directory), str(state)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return dict(json.loads(output.strip().splitlines()[-1]))


def memory(root: Path, scales: list[int], corpus: Path) -> None:
    """Peak RSS of a full scan at multiples of the whole corpus, beside the baseline's."""
    print("\npeak RSS, full scan of N times the corpus (all three projects):")
    print("scale  rss_baseline_mb  rss_scan_mb  candidates")
    for scale in scales:
        directory = root / f"x{scale}" / "sessions"
        link_corpus(directory, scale, corpus)
        state = root / f"x{scale}" / "state"
        baseline, full = measure("baseline", directory, state), measure("scan", directory, state)
        print(
            f"{scale:>5}  {baseline['max_rss_mb']:>15.0f}  {full['max_rss_mb']:>11.0f}  {full['candidates']:>10.0f}"
        )


def show_candidates(directory: Path, state: Path) -> None:
    os.environ["CONSOLIDATE_STATE_DIR"] = str(state)
    from consolidate.discover import discover
    from consolidate.discover.candidates import pointer_line
    from consolidate.settings import load_settings

    settings = load_settings(directory.parent, home=directory.parent / "home")
    report = discover(settings, (), transcripts_dir=directory)
    for number, candidate in enumerate(report.candidates, 1):
        print(
            f"\n{number}. [{candidate.kind} {candidate.layer} conf {candidate.confidence} freq {candidate.frequency}]"
        )
        print(f"   {pointer_line(candidate)}")
        for evidence in candidate.evidence[:2]:
            print(f"   > {evidence.quote}")
    print(f"\n{len(report.candidates)} candidates; stats: {report.stats}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=3, metavar=("MODE", "DIR", "STATE"), help=argparse.SUPPRESS)
    parser.add_argument("--show", action="store_true", help="print the candidates found in the corpus")
    parser.add_argument("--scales", default="1,2,4", help="corpus multiples for the memory measurement")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the speed measurement")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="default: ../shared/corpus")
    parser.add_argument(
        "--against", type=Path, help="a checkout of other code, its scans run in the same rounds"
    )
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), Path(args.child[2]))))
        return
    missing = [s for s in SOURCES if not (args.corpus / s).is_dir()]
    if missing:
        print(f"skipped: the shared corpus is not at {args.corpus.resolve()} (missing {missing[0]})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if args.rounds:
            speed(root, args.rounds, args.corpus, args.against)
        if args.scales:
            memory(root, [int(s) for s in args.scales.split(",")], args.corpus)
        if args.show:
            link_corpus(root / "show" / "sessions", 1, args.corpus)
            show_candidates(root / "show" / "sessions", root / "show-state")


if __name__ == "__main__":
    main()
