"""Build a small example project into a directory: a git repo with history, a Claude config dir with
a memory dir, and a few session transcripts. Nested git repos are generated, never committed.

    python examples/example_project.py DEST
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

from memory_layout import project_key

SOURCES = {
    "pyproject.toml": '[project]\nname = "acme-api"\nversion = "0.4.0"\ndependencies = ["pydantic>=2.6,<3", "httpx>=0.27"]\n',
    "Makefile": "test:\n\tpytest -p acme.testing.db_fixture tests\n\nserve:\n\tuvicorn acme.api:create_app --port 8081\n",
    "src/acme/__init__.py": "",
    "src/acme/api.py": "def create_app():\n    return object()\n",
    "src/acme/db.py": "class Database:\n    def connect(self):\n        return None\n",
    "src/acme/settings.py": "DEBUG = False\n",
    "scripts/legacy_migrate.py": "print('migrating')\n",
    "tests/test_api.py": "def test_app():\n    assert True\n",
}

REFERENCE_TOPICS = [
    ("http client", "use `httpx` with a 10 s timeout"),
    ("database", "`Database.connect` returns a pooled connection"),
    ("app factory", "`create_app` is the only entry point"),
    ("serving", "`make serve` runs on port 8081"),
    ("logging", "logs go to stderr as JSON"),
    ("errors", "API errors use RFC 7807 problem+json"),
    ("auth", "tokens come from the gateway, never minted here"),
    ("pagination", "cursor pagination, never offsets"),
    ("timeouts", "outbound calls time out after 10 s"),
    ("retries", "retry only idempotent requests"),
    ("caching", "no response caching in the API layer"),
    ("feature flags", "flags live in the settings module"),
    ("migrations", "schema changes need a reviewed migration"),
    ("fixtures", "test data comes from factories"),
    ("ci", "CI runs `make test` on every push"),
    ("releases", "tag releases as vX.Y.Z"),
    ("changelog", "every user-facing change gets a changelog line"),
    ("dependencies", "pin upper bounds on major versions"),
    ("formatting", "ruff format, line length 110"),
    ("typing", "mypy strict on `src/acme`"),
    ("docs", "docs build with mkdocs"),
    ("metrics", "counters are prefixed `acme_`"),
    ("tracing", "spans are named after the route"),
    ("health", "`/healthz` must not touch the database"),
    ("rate limits", "429 carries Retry-After"),
    ("uploads", "uploads stream to object storage"),
]


def _slug(text: str) -> str:
    return "_".join(text.split())


def memory_files() -> dict[str, str]:
    reference = "".join(
        f"- **When working on {topic}:** {rule}. → [detail](reference_{_slug(topic)}.md)\n"
        for topic, rule in REFERENCE_TOPICS
    )
    files = {
        "MEMORY.md": "# Project Memory\n\n"
        "## Feedback\n"
        "- **When running tests:** use `make test`; plain pytest misses the DB fixture. → [detail](feedback_testing.md)\n"
        "- **When running the test suite:** use `make test`, since plain pytest misses the DB fixture. "
        "→ [detail](feedback_testing_suite.md)\n"
        "- Write clean code and keep functions small.\n\n"
        "## Project\n"
        "- **When changing settings:** edit `src/acme/settings.py`. → [detail](project_settings.md)\n"
        "- **When migrating data:** run `scripts/legacy_migrate.py` first. → [detail](project_migrate.md)\n"
        "- Decided yesterday to keep pydantic below 3; v3 breaks the validators. → [detail](project_pydantic.md)\n\n"
        "## Reference\n" + reference,
        "feedback_testing.md": "---\nname: testing\ndescription: how to run the tests\ntype: feedback\n---\n"
        "Run `make test`. Plain `pytest` does not load the DB fixture plugin.\n",
        "feedback_testing_suite.md": "---\nname: testing suite\ndescription: running the suite\ntype: feedback\n---\n"
        "Use `make test`: plain `pytest` misses the DB fixture.\n",
        "project_settings.md": "---\nname: settings\nmetadata:\n  type: project\n---\nSettings live in `src/acme/settings.py`.\n",
        "project_migrate.md": "---\nname: migrations\ntype: project\n---\nRun `scripts/legacy_migrate.py` before data changes.\n",
        "project_pydantic.md": "---\nname: pydantic pin\ntype: project\n---\nDecided yesterday: pydantic stays below 3.\n",
    }
    for topic, rule in REFERENCE_TOPICS:
        files[f"reference_{_slug(topic)}.md"] = (
            f"---\nname: {topic}\ntype: reference\n---\n{rule.capitalize()}.\n"
        )
    return files


@dataclass
class Example:
    root: Path
    project: Path
    claude_home: Path
    memory_dir: Path
    transcripts_dir: Path


def _git(project: Path, *args: str, date: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=Example Dev",
            "-c",
            "user.email=dev@example.com",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=project,
        env=env,
        check=True,
        capture_output=True,
    )


def build_repo(project: Path) -> None:
    project.mkdir(parents=True)
    _git(project, "init", "-q", "-b", "main", date="2026-11-01T09:00:00Z")
    for name, content in SOURCES.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    _git(project, "add", "-A", date="2026-11-01T09:00:00Z")
    _git(project, "commit", "-q", "-m", "Initial API skeleton", date="2026-11-01T09:00:00Z")
    _git(project, "mv", "src/acme/settings.py", "src/acme/config.py", date="2026-11-10T10:00:00Z")
    _git(project, "commit", "-q", "-m", "Rename settings module to config", date="2026-11-10T10:00:00Z")
    _git(project, "rm", "-q", "scripts/legacy_migrate.py", date="2026-11-20T11:00:00Z")
    _git(project, "commit", "-q", "-m", "Drop the legacy migration script", date="2026-11-20T11:00:00Z")


class Transcript:
    """Writes records in Claude Code's JSONL shape, chained by parentUuid."""

    def __init__(self, session: str, cwd: Path, start: str) -> None:
        self.session, self.cwd, self.clock = session, cwd, start
        self.records: list[dict[str, object]] = []
        self.parent: str | None = None
        self.tick = 0

    def _record(self, kind: str, message: dict[str, object], **extra: object) -> str:
        self.tick += 1
        record_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.session}/{self.tick}"))
        self.records.append(
            {
                "type": kind,
                "uuid": record_id,
                "parentUuid": self.parent,
                "isSidechain": False,
                "sessionId": self.session,
                "cwd": str(self.cwd),
                "version": "2.1.200",
                "gitBranch": "main",
                "timestamp": f"{self.clock}:{self.tick:02d}Z",
                "message": message,
                **extra,
            }
        )
        self.parent = record_id
        return record_id

    def user(self, text: str) -> None:
        self._record("user", {"role": "user", "content": text})

    def assistant(self, text: str) -> None:
        self._record("assistant", {"role": "assistant", "content": [{"type": "text", "text": text}]})

    def tool(self, name: str, tool_input: dict[str, object], result: str, *, error: bool = False) -> None:
        tool_id = f"toolu_{self.session[:8]}_{self.tick}"
        self._record(
            "assistant",
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}],
            },
        )
        self._record(
            "user",
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": tool_id, "content": result, "is_error": error}
                ],
            },
        )

    def write(self, directory: Path) -> Path:
        path = directory / f"{self.session}.jsonl"
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records), encoding="utf-8"
        )
        return path


def build_sessions(project: Path, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    first = Transcript("5f0c1a2e-0000-4000-8000-000000000001", project, "2026-11-27T09:00")
    first.user("add the requests dependency for the webhook client")
    first.tool("Bash", {"command": "pip install requests"}, "Successfully installed requests-2.32.3")
    first.user(
        "no, don't use pip install here — always add dependencies with `uv add` so the lock file stays in sync"
    )
    first.tool("Bash", {"command": "uv add requests"}, "Resolved 12 packages")
    first.assistant(
        "Added requests with uv.\n\n📝 Learned: dependencies are added with `uv add`, never pip\n"
        "<!-- learning: When adding a dependency: use `uv add`, never `pip install`, so uv.lock stays in sync. -->"
    )
    first.write(directory)

    second = Transcript("5f0c1a2e-0000-4000-8000-000000000002", project, "2026-11-28T14:00")
    second.user("run the tests please")
    second.tool("Bash", {"command": "pytest tests"}, "E   fixture 'db' not found", error=True)
    second.tool("Bash", {"command": "make test"}, "4 passed in 0.8s")
    second.user(
        "remember that the staging database is read-only on Fridays, migrations must wait until Monday"
    )
    second.assistant("Noted.")
    second.write(directory)


def build_example(root: Path) -> Example:
    """Create the example under `root` (which must not exist yet)."""
    project = root / "acme-api"
    claude_home = root / "claude-home"
    build_repo(project)
    projects = claude_home / "projects"
    memory_dir = projects / project_key(project) / "memory"
    memory_dir.mkdir(parents=True)
    for name, content in memory_files().items():
        (memory_dir / name).write_text(content, encoding="utf-8")
    for name in ("MEMORY.md", "project_pydantic.md"):  # "yesterday" in these files means 2026-11-26
        os.utime(memory_dir / name, (1_795_780_800, 1_795_780_800))
    (project / "CLAUDE.md").write_text(
        "# acme-api\n\n- Python 3.11; run `make test` before pushing.\n", encoding="utf-8"
    )
    transcripts = projects / project_key(project)
    build_sessions(project, transcripts)
    return Example(root, project, claude_home, memory_dir, transcripts)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: example_project.py DEST")
    example = build_example(Path(sys.argv[1]).absolute())
    print(
        f"project:     {example.project}\nclaude home: {example.claude_home}\nmemory dir:  {example.memory_dir}"
    )
