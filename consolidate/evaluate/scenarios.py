"""Labeled scenarios for `consolidate eval`: a project with git history and a memory dir with planted
problems (the auditor's dev set), plus sessions with planted signals and look-alike noise (the
discoverer's dev set). Seeded, and varied per seed in memory size, history shape, noise and pool."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from memory_layout import project_key

from ..settings import Settings, load_settings
from .audit_devset import DevCase, build_devset
from .discover_devset import DevSet, generate_devset


@dataclass(frozen=True)
class Variation:
    seed: int
    valid_entries: int  # memory size
    planted_rounds: int  # how many of each problem (and so how many renames/deletions in git)
    sessions: int  # noise level: the same signals spread over more sessions of noise
    pool: str  # phrasing and language pool of the sessions: "dev" or "holdout"

    def describe(self) -> str:
        return (
            f"seed {self.seed}: {self.valid_entries} valid entries, {self.planted_rounds}× planted problems, "
            f"{self.sessions} sessions ({self.pool} phrasing)"
        )


@dataclass
class Scenario:
    variation: Variation
    case: DevCase
    sessions: DevSet
    settings: Settings


def variation(seed: int) -> Variation:
    rng = random.Random(seed)
    return Variation(
        seed=seed,
        valid_entries=rng.choice([40, 80, 160]),
        planted_rounds=rng.choice([1, 2, 3]),
        sessions=rng.choice([8, 16, 32]),
        pool="holdout" if seed % 2 else "dev",
    )


def build_scenario(root: Path, chosen: Variation) -> Scenario:
    """Write the scenario under `root`; the memory dir is given explicitly, as `--memory-dir` would."""
    case = build_devset(root, seed=chosen.seed, valid=chosen.valid_entries, planted=chosen.planted_rounds)
    home = root / "claude"
    transcripts = home / "projects" / project_key(case.project)
    sessions = generate_devset(transcripts, pool=chosen.pool, seed=chosen.seed, sessions=chosen.sessions)
    settings = load_settings(case.project, memory_dir=case.memory_dir, home=home)
    return Scenario(chosen, case, sessions, settings)
