"""Real git clones of one project, each with its own Claude config dir and user name, for the team
memory workflow: a bare origin, clone A (Alice) with history, and clones made on demand."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from consolidate.cli import main
from memory_layout import project_key, resolve_layout
from tests.helpers.example import example_module

FILES = {
    "Makefile": "test:\n\tpytest -p app.db_fixture tests\n",
    "src/app/config.py": "DEBUG = False\n",
    "src/app/api.py": "def create_app():\n    return object()\n",
    "CLAUDE.md": "# app\n\n## Build\n- Run `make test` before pushing; it loads the DB fixture.\n",
}


@dataclass
class Clone:
    path: Path
    home: Path  # this person's Claude config dir

    def git(self, *args: str) -> str:
        result = subprocess.run(["git", *args], cwd=self.path, check=True, capture_output=True, text=True)
        return result.stdout

    @property
    def memory(self) -> Path:
        return resolve_layout(self.path, home=self.home).memory_dir

    @property
    def team(self) -> Path:
        return self.path / ".claude" / "team-memory"

    @property
    def sessions(self) -> Path:
        return self.home / "projects" / project_key(self.path)

    def write_memory(self, files: dict[str, str]) -> Path:
        for name, text in files.items():
            target = self.memory / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return self.memory

    def commit_all(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-qm", message)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def make_clone(origin: Path, dest: Path, user: str, home: Path) -> Clone:
    subprocess.run(["git", "clone", "-q", str(origin), str(dest)], check=True, capture_output=True)
    clone = Clone(dest, home)
    clone.git("config", "user.name", user)
    clone.git("config", "user.email", f"{user.lower()}@example.com")
    clone.git("config", "commit.gpgsign", "false")
    return clone


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A bare repository holding the project's first commit."""
    bare = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(bare)], check=True)
    seed = make_clone(bare, tmp_path / "seed", "Setup", tmp_path / "seed-claude")
    for name, text in FILES.items():
        path = seed.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    seed.commit_all("Initial project")
    seed.git("push", "-q", "origin", "HEAD:main")
    return bare


@pytest.fixture
def alice(origin: Path, tmp_path: Path) -> Clone:
    return make_clone(origin, tmp_path / "alice" / "app", "Alice", tmp_path / "alice" / "claude")


@pytest.fixture
def bob(origin: Path, tmp_path: Path) -> Clone:
    return make_clone(origin, tmp_path / "bob" / "app", "Bob", tmp_path / "bob" / "claude")


def write_sessions(clone: Clone) -> None:
    """The example project's two sessions, in this clone: a correction (uv add, not pip install), an
    error fixed by a changed command (make test, not pytest) and a remembered fact (staging on Fridays)."""
    example_module().build_sessions(clone.path, clone.sessions)


def topic(name: str, body: str, kind: str = "project", **metadata: str) -> str:
    extra = "".join(f"  {k}: {v}\n" for k, v in metadata.items())
    return f"---\nname: {name}\ndescription: {name}\nmetadata:\n  type: {kind}\n{extra}---\n{body}\n"
