"""A small synthetic project for the fidelity tests: a git repo with a CLAUDE.md, a memory dir with a
pointer + topic file and a pointer with no topic file, and a way to dream on saved discoverer reports."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from consolidate.cli import main
from consolidate.settings import Settings, load_settings
from memory_layout import project_key
from tests.helpers.gitrepo import init_repo

CLAUDE_MD = """# CLAUDE.md

## Build Commands — Use the wrapper

Ensure a recent build is installed:

```bash
cargo install --path .   # Install from local source
```

- Run the tests with `acme test`.
- Lint with `acme lint`.

## Release Steps

1. Update the changelog
2. Bump the version in `Cargo.toml`
3. Tag the release
"""

INDEX = """# Project Memory

## Feedback
- **When deploying:** run the smoke tests first. → [detail](feedback_deploying.md)
- **When writing migrations:** keep each migration reversible.

## Reference
- Deploys — details. → [detail](reference_deploys.md)
"""

DEPLOY_TOPIC = """---
name: smoke tests before deploys
description: run the smoke tests before every deploy
metadata:
  type: feedback
---
Run `make smoke` before `make deploy`; a failed smoke run blocks the deploy.
"""

DEPLOYS_TOPIC = """---
name: deploys
description: where deploys run
metadata:
  type: reference
---
Deploys run from the `release` branch only.
"""


@dataclass
class Project:
    root: Path
    project: Path
    home: Path
    settings: Settings

    @property
    def memory(self) -> Path:
        return self.settings.memory_dir

    @property
    def claude_md(self) -> Path:
        return self.project / "CLAUDE.md"

    def report(self, *candidates: dict[str, Any], name: str = "run") -> str:
        """Save a discoverer report and return the `reports:` engine spec for it."""
        folder = self.root / name
        folder.mkdir(exist_ok=True)
        (folder / "signal-discoverer.json").write_text(json.dumps({"candidates": list(candidates)}))
        (folder / "memory-auditor.json").write_text('{"findings": []}')
        return f"reports:{folder}"

    def dream(self, capsys: Any, engine: str, *args: str) -> tuple[int, str, str]:
        code = main(["dream", str(self.project), "--claude-home", str(self.home), "--engine", engine, *args])
        out, err = capsys.readouterr()
        return code, out, err

    def plan(self, capsys: Any, engine: str) -> dict[str, Any]:
        code, out, err = self.dream(capsys, engine, "--json")
        assert code == 0, err
        plan: dict[str, Any] = json.loads(out)
        return plan


def build_project(root: Path) -> Project:
    repo = init_repo(root / "acme")
    repo.write("CLAUDE.md", CLAUDE_MD)
    repo.write("src/main.rs", "fn main() {}\n")
    repo.commit("init", date="2026-11-01T10:00:00+00:00")
    home = root / "claude-home"
    memory = home / "projects" / project_key(repo.path.resolve()) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(INDEX)
    (memory / "feedback_deploying.md").write_text(DEPLOY_TOPIC)
    (memory / "reference_deploys.md").write_text(DEPLOYS_TOPIC)
    return Project(root, repo.path, home, load_settings(repo.path, home=home))


def candidate(principle: str, **fields: Any) -> dict[str, Any]:
    """A discoverer candidate as an agent reports it (new fields unless the test gives old ones)."""
    return {
        "kind": fields.pop("kind", "correction"),
        "principle": principle,
        "confidence": 0.9,
        "impact": fields.pop("impact", 0.8),
        "evidence": [
            {
                "session": fields.pop("session", f"s-{zlib.crc32(principle.encode()):08x}"),
                "quote": fields.pop("quote", "as the user said"),
                "timestamp": "2026-11-20T09:00:00Z",
            }
        ],
        **fields,
    }
