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
