"""Discoverer precision and recall on the labeled dev set, per signal kind and per language.

Synthetic sessions (real record shapes) with planted markers, remember requests, corrections, error →
fix pairs, rejected tool uses and decisions in English, Russian, Chinese and Turkish, plus look-alike
noise. The "dev" pool is what the rules were tuned on; the "holdout" pool was written separately and
is only measured. The "shapes" scenarios (`consolidate.evaluate.discover_shapes`) are lessons carried
by the dialogue around a turn, in other words again, with look-alikes of each shape ("shapes-holdout":
the same shapes written apart, only measured). Several seeds
shuffle the sessions (and the noise drawn into them).

    python bench/scan_devset.py
    python bench/scan_devset.py --pool holdout --seeds 1,2,3 --show
    python bench/scan_devset.py --pool shapes --show
    python bench/scan_devset.py --pool all                # dev, holdout, shapes, shapes-holdout
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections import Counter
from pathlib import Path

from consolidate.evaluate.discover_devset import KINDS, generate_devset
from consolidate.evaluate.discover_score import Evaluation, evaluate
from consolidate.evaluate.discover_shapes import generate_shapes


def run(pool: str, seed: int, root: Path) -> Evaluation:
    os.environ["CONSOLIDATE_STATE_DIR"] = str(root / f"state-{pool}-{seed}")
    from consolidate.discover import discover
    from consolidate.settings import load_settings

    sessions = root / f"{pool}-{seed}"
    if pool.startswith("shapes"):
        devset = generate_shapes(sessions, seed=seed, pool="holdout" if pool == "shapes-holdout" else "dev")
    else:
        devset = generate_devset(sessions, pool=pool, seed=seed)
    settings = load_settings(root, home=root / "home")
    return evaluate(discover(settings, transcripts_dir=sessions), devset)


def summed(results: list[Evaluation]) -> Evaluation:
    total = Evaluation()
    for result in results:
        for name in ("true_positives", "false_positives", "found", "planted", "found_by_language",
                     "planted_by_language", "noise_hits"):  # fmt: skip
            getattr(total, name).update(getattr(result, name))
        total.layer_hits += result.layer_hits
        total.layer_total += result.layer_total
        total.misses += result.misses
        total.false += result.false
    total.repeat_merged = all(r.repeat_merged for r in results)
    return total


def report(pool: str, seeds: list[int], total: Evaluation, show: bool) -> None:
    precision, recall = total.overall()
    print(f"\n== pool {pool}, seeds {seeds}: precision {precision:.3f}, recall {recall:.3f}")
    print(f"{'kind':<11} {'precision':>9} {'recall':>7} {'planted':>8} {'found':>6} {'false+':>7}")
    for kind in KINDS:
        p, r = total.precision(kind), total.recall(kind)
        print(f"{kind:<11} {_fmt(p):>9} {_fmt(r):>7} {total.planted[kind]:>8} {total.found[kind]:>6} "
              f"{total.false_positives[kind]:>7}")  # fmt: skip
    languages = {
        lang: total.found_by_language[lang] / n for lang, n in sorted(total.planted_by_language.items())
    }
    print("recall by language: " + ", ".join(f"{lang} {value:.3f}" for lang, value in languages.items()))
    print(f"layer hits: {total.layer_hits}/{total.layer_total}; repeated lesson merged: {total.repeat_merged}; "
          f"noise false positives: {dict(total.noise_hits) or 'none'}")  # fmt: skip
    if show:
        for line in sorted(Counter(total.misses)):
            print(f"  missed: {line}")
        for line in sorted(Counter(total.false)):
            print(f"  false:  {line}")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pool", choices=["dev", "holdout", "shapes", "shapes-holdout", "both", "all"], default="both"
    )
    parser.add_argument("--seeds", default="1,2,3,4,5")
    parser.add_argument("--show", action="store_true", help="list the misses and the false positives")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    pools = {"both": ["dev", "holdout"], "all": ["dev", "holdout", "shapes", "shapes-holdout"]}.get(
        args.pool, [args.pool]
    )
    with tempfile.TemporaryDirectory() as tmp:
        for pool in pools:
            report(pool, seeds, summed([run(pool, seed, Path(tmp)) for seed in seeds]), args.show)


if __name__ == "__main__":
    main()
