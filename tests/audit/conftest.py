"""A small project with real git history and a memory dir beside it, for the auditor tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from consolidate.audit import audit_tree
from consolidate.gitrepo import GitRepo
from consolidate.models import AuditReport, Finding
from memory_layout import load_memory_tree
from tests.helpers.gitrepo import GitRepo as TestRepo

PYPROJECT = '[project]\nname = "shop"\nrequires-python = ">=3.11"\ndependencies = ["pydantic>=2.5,<3"]\n'
PACKAGE_JSON = '{"scripts": {"test": "vitest run", "lint:web": "eslint ."}, "engines": {"node": ">=20"}}\n'


@dataclass
class Project:
    repo: TestRepo
    memory: Path

    def write_memory(self, text: str, name: str = "MEMORY.md") -> Path:
        path = self.memory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def entries(self, *lines: str) -> None:
        self.write_memory("# Project Memory\n\n## Notes\n" + "".join(f"- {line}\n" for line in lines))

    def audit(self, claude_md: Path | None = None) -> AuditReport:
        return audit_tree(
            load_memory_tree(self.memory),
            project_root=self.repo.path,
            repo=GitRepo.find(self.repo.path),
            project_claude_md=claude_md,
        )

    def findings(self, category: str | None = None) -> list[Finding]:
        return [f for f in self.audit().findings if category is None or f.category == category]


@pytest.fixture
def project(git_repo: TestRepo, tmp_path: Path) -> Project:
    """src/shop/{orders,billing,legacy,handlers}.py committed, then handlers renamed to routes,
    legacy deleted and `load_cart` renamed to `read_cart` in a second commit."""
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("package.json", PACKAGE_JSON)
    git_repo.write(
        "src/shop/orders.py",
        "def place_order(cart):\n    return cart\n\n\ndef load_cart(key):\n    return key\n",
    )
    git_repo.write("src/shop/billing.py", "class InvoiceService:\n    def total(self):\n        return 0\n")
    git_repo.write("src/shop/legacy.py", "def old_tax(x):\n    return x\n")
    git_repo.write("src/shop/handlers.py", "def register_routes(app):\n    return app\n")
    git_repo.commit("Initial shop", date="2026-01-05T10:00:00+00:00")
    git_repo.git("mv", "src/shop/handlers.py", "src/shop/routes.py")
    git_repo.git("rm", "-q", "src/shop/legacy.py")
    git_repo.write(
        "src/shop/orders.py",
        "def place_order(cart):\n    return cart\n\n\ndef read_cart(key):\n    return key\n",
    )
    git_repo.commit("Rename handlers, drop legacy tax, read_cart", date="2026-02-10T10:00:00+00:00")
    memory = tmp_path / "memory"
    memory.mkdir()
    return Project(git_repo, memory)


def by_entry(findings: list[Finding], text: str) -> list[Finding]:
    return [f for f in findings if text in f.entry]
