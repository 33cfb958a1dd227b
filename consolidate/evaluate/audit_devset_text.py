"""Word lists, templates and project files of the auditor's dev set (see `audit_devset`)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

NOUNS = [
    "invoice",
    "ledger",
    "payment",
    "refund",
    "account",
    "session",
    "token",
    "schedule",
    "calendar",
    "inventory",
    "warehouse",
    "shipment",
    "order",
    "cart",
    "coupon",
    "pricing",
    "tariff",
    "audit",
    "metric",
    "alert",
    "webhook",
    "mailer",
    "template",
    "upload",
    "archive",
    "backup",
    "tenant",
    "profile",
    "avatar",
    "comment",
    "thread",
    "badge",
    "quota",
]
EXTRA = [
    "parcel",
    "voucher",
    "receipt",
    "statement",
    "journal",
    "batch",
    "queue",
    "cursor",
    "snapshot",
    "digest",
    "beacon",
    "harbor",
    "lantern",
    "meadow",
    "orchard",
    "quarry",
    "ridge",
    "summit",
    "tundra",
    "valley",
    "willow",
    "zephyr",
    "anchor",
    "bramble",
    "canyon",
    "delta",
    "ember",
    "fjord",
    "glacier",
]
PACKAGES = ["ledgerly", "orbitdesk", "quillhub", "tallyhouse", "brightcart"]
SECTIONS = ["Architecture", "Commands", "Gotchas", "Decisions", "Feedback", "Reference"]
DESCRIPTIONS = [
    "parses the {m} records coming from the partner feed",
    "owns the {m} state machine and its transitions",
    "serialises {m} rows for the nightly export",
    "validates {m} payloads before they reach the database",
    "keeps the {m} cache warm between requests",
]
PLAIN = [
    "The user prefers {a} answers with the command first when asking about {m} problems.",
    "Ask before changing the {m} database schema; the {a} team reviews every migration.",
    "Releases of the {m} service go out on {d} after the {a} sign-off.",
    "Keep {m} migrations backwards compatible for one release because the {a} workers lag behind.",
    "The {m} dashboard is owned by the {a} squad; route questions about it to their channel.",
    "Do not batch {m} notifications: support wants one message per event for the {a} customers.",
    "Staging data for {m} is refreshed from production every {d} night.",
    "The {a} partner rejects {m} files larger than the agreed limit, so split them first.",
    "Prefer feature flags over long-lived branches for {m} work; the {a} rollout depends on it.",
    "Error messages shown to {a} users about {m} must be translated before release.",
]
ADJECTIVES = [
    "terse",
    "platform",
    "finance",
    "growth",
    "mobile",
    "billing",
    "ops",
    "legal",
    "infra",
    "search",
]
DAYS = ["Tuesdays", "Thursdays", "Mondays", "Wednesdays", "Sunday"]
LOW_VALUE = [
    "Write clean code.",
    "Tests are important.",
    "Always follow best practices.",
    "Keep functions small and readable.",
    "Use meaningful variable names.",
    "Document your code.",
    "Handle errors properly.",
    "Code quality matters.",
]
SWITCHES = [
    ("Jest", "Vitest", "frontend unit tests"),
    ("Webpack", "Vite", "bundling the web client"),
    ("Celery", "Dramatiq", "background jobs"),
    ("Poetry", "uv", "managing Python dependencies"),
    ("Moment", "Luxon", "date handling in the UI"),
    ("Flask", "FastAPI", "the public API server"),
]
MERGES = [
    (
        "Integration tests for {m} need the local Postgres container; start it with `docker compose up db`.",
        "Start the local Postgres container with `docker compose up db` before the {m} integration tests.",
    ),
    (
        "The {m} importer retries three times with exponential backoff before giving up on a row.",
        "Before giving up on a row the {m} importer retries three times with exponential backoff.",
    ),
    (
        "Seed data for {m} comes from fixtures/{m}.json and is loaded by the seed command.",
        "The seed command loads fixtures/{m}.json as the seed data for {m}.",
    ),
]
RELATIVE: list[tuple[str, str, int | str]] = [
    ("en", "Fixed the flaky {m} sync test yesterday by pinning the clock.", -1),
    ("en", "The {m} rate limit was raised last week to 200 requests per minute.", "week"),
    ("en", "Rotated the {m} signing keys 3 days ago; old signatures still validate.", -3),
    ("ru", "Вчера починили падающий тест синхронизации {m}.", -1),
    ("ru", "На прошлой неделе подняли лимит запросов {m} до 200 в минуту.", "week"),
    ("zh", "昨天修复了 {m} 同步测试的不稳定问题。", -1),
    ("zh", "上周把 {m} 的速率限制提高到每分钟 200 次。", "week"),
    ("tr", "Dün {m} senkronizasyon testindeki kararsızlık düzeltildi.", -1),
    ("tr", "Geçen hafta {m} istek limiti dakikada 200'e çıkarıldı.", "week"),
]
CONVENTIONS = [
    "Every {m} handler returns typed result objects instead of raising for expected failures.",
    "Money amounts in the {m} module are integers in minor units, never floats.",
    "Timestamps stored by the {m} service are UTC and timezone aware.",
]
MEMORY_DAY = date(2026, 5, 12)


def module_source(module: str) -> str:
    title = module.capitalize()
    return (
        f'"""The {module} module."""\n\n\n'
        f"def load_{module}(key):\n    return {{'key': key}}\n\n\n"
        f"def save_{module}(record):\n    return record\n\n\n"
        f"class {title}Service:\n    def refresh(self):\n        return load_{module}('all')\n"
    )


def manifests(pkg: str) -> dict[str, str]:
    pyproject = (
        f'[project]\nname = "{pkg}"\nversion = "1.4.0"\nrequires-python = ">=3.11"\n'
        'dependencies = ["pydantic>=2.5,<3", "httpx>=0.27", "sqlalchemy>=2.0,<2.1"]\n'
    )
    makefile = "test:\n\tpytest\n\nlint:\n\truff check .\n\ndocs:\n\tmkdocs build\n"
    return {"pyproject.toml": pyproject, "Makefile": makefile, "package.json": package_json({})}


def package_json(extra_scripts: dict[str, str]) -> str:
    scripts = {
        "test": "vitest run",
        "lint": "eslint .",
        "build": "vite build",
        "dev": "vite",
        **extra_scripts,
    }
    data: dict[str, Any] = {
        "name": "web",
        "private": True,
        "scripts": scripts,
        "engines": {"node": ">=20"},
        "dependencies": {"react": "^18.2.0"},
        "devDependencies": {"vite": "^5.2.0", "vitest": "^1.6.0"},
    }
    return json.dumps(data, indent=2) + "\n"
