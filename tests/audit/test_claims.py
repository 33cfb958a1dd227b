from __future__ import annotations

import pytest

from consolidate.audit.claims import extract_claims


def kinds(text: str) -> list[tuple[str, str, bool]]:
    return [(c.kind, c.value, c.current) for c in extract_claims(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("`src/app/main.py` starts the server", [("path", "src/app/main.py", True)]),
        ("tests live in tests/unit/*.py", [("glob", "tests/unit/*.py", True)]),
        ("call `register_routes()` first", [("symbol", "register_routes", True)]),
        ("`InvoiceService.total` sums lines", [("symbol", "InvoiceService.total", True)]),
        ("run `npm run test:unit` often", [("command", "npm run test:unit", True)]),
        ("pass `--fast` to skip", [("flag", "--fast", True)]),
        ("uses pydantic 2.x", [("version", "pydantic", True)]),
        ("requires Node 20", [("version", "node", True)]),
        ("docs at https://example.com/a.html", [("url", "https://example.com/a.html", True)]),
        ("config in `pyproject.toml` and `.env`", [("path", "pyproject.toml", True), ("path", ".env", True)]),
    ],
)
def test_extracts_each_kind(text: str, expected: list[tuple[str, str, bool]]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "`src/old.py` was removed last spring",
        "We removed `src/old.py`",
        "Never commit `.env`",
        "Do not re-create `src/compat.py`",
    ],
)
def test_historical_negated_and_planned_claims_are_not_current(text: str) -> None:
    assert [c.current for c in extract_claims(text)] == [False]


def test_migration_target_stays_current() -> None:
    claims = extract_claims("Replaced `src/a.py` with `src/b.py`; switched from Jest 27 to Vitest 1.x")
    assert [(c.value, c.current) for c in claims] == [
        ("src/a.py", False),
        ("src/b.py", True),
        ("vitest", True),
    ]


@pytest.mark.parametrize(
    "text", ["the branch is `main`", "Step 2 of 3", "port 8080", "see [detail](notes.md)"]
)
def test_plain_words_numbers_and_memory_links_are_not_claims(text: str) -> None:
    assert extract_claims(text) == []


def test_a_script_run_with_flags_in_a_code_span_claims_the_script() -> None:
    claims = extract_claims("Deploy with `scripts/deploy.sh --prod --region eu` after the tests")
    assert [(c.kind, c.value, c.current) for c in claims] == [
        ("command", "scripts/deploy.sh --prod --region eu", True),
        ("path", "scripts/deploy.sh", True),
    ]
    path = claims[1]
    assert "Deploy with `scripts/deploy.sh --prod --region eu`"[path.start : path.end] == "scripts/deploy.sh"


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("`python tools/migrate.py --dry-run`", ["tools/migrate.py"]),
        ("`uv run pytest tests/test_api.py -x`", ["tests/test_api.py"]),
        ("`./bin/release v2`", ["bin/release"]),
        ("`ruff check --config=conf/ruff.toml .`", ["conf/ruff.toml"]),
        ("`npm run build --no-cache`", []),
    ],
)
def test_commands_claim_the_project_paths_they_name(text: str, paths: list[str]) -> None:
    claims = extract_claims(text)
    assert [c.value for c in claims if c.kind == "path"] == paths
    assert all(c.current for c in claims)  # `--no-cache` and `--dry-run` are flags, not negations


def test_shell_fences_and_prompt_lines_are_commands() -> None:
    text = "Release:\n\n```bash\n# build first\n$ make dist\n./scripts/publish.sh --tag v1\n```\n\n$ bash ops/rotate.sh now\n"
    claims = extract_claims(text)
    assert [(c.kind, c.value) for c in claims if c.kind in ("command", "path")] == [
        ("command", "make dist"),
        ("command", "./scripts/publish.sh --tag v1"),
        ("path", "scripts/publish.sh"),
        ("command", "bash ops/rotate.sh now"),
        ("path", "ops/rotate.sh"),
    ]


def test_a_python_fence_is_not_read_as_shell() -> None:
    claims = extract_claims("```python\nmake = build(x)\n```\n")
    assert [c.kind for c in claims] == []


def test_paths_made_or_deleted_by_a_command_are_not_claimed_to_exist() -> None:
    claims = extract_claims("`rm -rf build/cache.db` then `git rm old/tool.py`")
    assert [(c.value, c.current) for c in claims if c.kind == "path"] == [
        ("build/cache.db", False),
        ("old/tool.py", False),
    ]


def test_links_of_project_files_are_paths_from_their_folder() -> None:
    text = "See [the guide](docs/guide.md#setup), [upstream](https://x.org/a.md) and [ops](../ops/run.sh)"
    assert [(c.kind, c.value) for c in extract_claims(text, links_base="pkg")] == [
        ("path", "pkg/docs/guide.md"),
        ("path", "ops/run.sh"),
    ]
    assert extract_claims(text) == []  # links of memory files point at memory files


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("settings live in config.toml", [("path", "config.toml")]),
        ("the server is Node.js and Vue.js", []),
        ("call utils.parse_config before start", [("symbol", "utils.parse_config")]),
        ("Spec types (CargoConfig, RustcConfig)", [("symbol", "CargoConfig"), ("symbol", "RustcConfig")]),
        ("hosted on GitHub, written in TypeScript", []),
        ("e.g. docs.python.org", []),
    ],
)
def test_names_written_in_prose(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.kind, c.value) for c in extract_claims(text)] == expected


def test_entries_under_a_prohibition_claim_nothing_exists() -> None:
    lead = "Git Operations\nClaude cannot perform these git operations:"
    assert [c.current for c in extract_claims("Amending commits with `.claude/` files", lead=lead)] == [False]
    assert [c.current for c in extract_claims("Amending commits with `.claude/` files", lead="Git")] == [True]


@pytest.mark.parametrize(
    "text",
    ["Claude cannot amend commits with `.claude/` files", "You must not edit `generated/api.py`"],
)
def test_prohibitions_in_the_entry_are_not_current(text: str) -> None:
    assert [c.current for c in extract_claims(text)] == [False]
