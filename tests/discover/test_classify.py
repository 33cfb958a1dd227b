"""User messages: each signal kind in each language, and the look-alikes that are not signals."""

from __future__ import annotations

import pytest

from consolidate.discover.detectors import classify_message
from consolidate.discover.phrasing import decision_principle, directive_principle, remember_principle
from consolidate.discover.text import language, mask_code
from consolidate.evaluate import discover_pools as pools


def _kind(text: str) -> str:
    return classify_message(mask_code(text).lower())


CORRECTIONS = [
    ("en", "no, use pnpm instead of npm in this repo", "pnpm"),
    ("en", "don't force-push, ever. Use --force-with-lease on feature branches instead.", "force-with-lease"),
    ("ru", "нет, не надо запускать docker compose, используй `make dev` вместо него", "make dev"),
    ("ru", "я же говорил: никогда не редактируй старые миграции, всегда создавай новую", "миграции"),
    ("zh", "不对，应该用 `pnpm build` 而不是 npm run build", "pnpm build"),
    ("zh", "不要用 pip 安装依赖，总是用 poetry add", "poetry add"),
    ("tr", "hayır, yarn yerine her zaman npm test kullan", "npm test"),
    ("tr", "yanlış, derlemeyi her zaman make build ile yap, go build kullanma", "make build"),
]


@pytest.mark.parametrize(("lang", "text", "key"), CORRECTIONS)
def test_corrections_in_four_languages(lang: str, text: str, key: str) -> None:
    assert language(text) == lang
    assert _kind(text) == "correction"
    principle = directive_principle(text)
    assert key in principle
    assert not principle.lower().startswith(("no,", "нет", "不对", "hayır"))


REMEMBERS = [
    (
        "en",
        "remember that the staging DB is read-only, so run migrations locally",
        "The staging DB is read-only",
    ),
    ("en", "please remember to regenerate the client with `make client`", "Regenerate the client"),
    ("ru", "запомни: деплой только через `make deploy`", "Деплой только через"),
    ("ru", "не забудь: миграции запускаются только локально", "Миграции запускаются только локально"),
    ("ru", "не забывайте, что staging только для чтения", "Staging только для чтения"),
    ("zh", "记住：这个项目的日志一律用 structlog", "这个项目的日志一律用 structlog"),
    ("tr", "test veritabanı her gece sıfırlanıyor, bunu unutma", "Test veritabanı her gece sıfırlanıyor"),
]


@pytest.mark.parametrize(("lang", "text", "expected"), REMEMBERS)
def test_remember_requests_in_four_languages(lang: str, text: str, expected: str) -> None:
    assert _kind(text) == "remember"
    assert remember_principle(text).startswith(expected)


DECISIONS = [
    ("en", "let's use SQLite for the queue because it needs no server", "SQLite for the queue because"),
    ("ru", "давай использовать Redis для кэша, потому что он уже есть", "Redis"),
    ("zh", "我们决定用 PostgreSQL，因为需要事务支持", "PostgreSQL"),
    ("tr", "kuyruk için RabbitMQ kullanalım çünkü ekip onu biliyor", "RabbitMQ"),
]


@pytest.mark.parametrize(("lang", "text", "key"), DECISIONS)
def test_decisions_need_a_reason(lang: str, text: str, key: str) -> None:
    assert _kind(text) == "decision"
    assert key in decision_principle(text)


@pytest.mark.parametrize(
    "text",
    [
        "let's use SQLite for the queue",
        "давай использовать Redis",
        "我们决定用 PostgreSQL",
        "RabbitMQ kullanalım",
    ],
)
def test_a_decision_without_a_reason_is_not_one(text: str) -> None:
    assert _kind(text) != "decision"


@pytest.mark.parametrize(("lang", "text"), pools.NOISE_TEXTS + pools.HOLDOUT_NOISE_TEXTS)
def test_noise_is_not_a_correction_or_a_request(lang: str, text: str) -> None:
    kind = _kind(text)
    if kind:  # the few look-alikes that pass the cue still carry no principle worth keeping
        from consolidate.discover.quality import rejection_reason
        from consolidate.discover.signals import make_signal

        principle = {"correction": directive_principle, "remember": remember_principle,
                     "decision": decision_principle}[kind](text)  # fmt: skip
        assert not principle or rejection_reason(make_signal(kind, principle, quote=text)), (text, principle)


def test_quoted_code_with_cue_words_is_masked() -> None:
    text = 'Here is the test:\n```python\nassert x != "wrong"  # no, don\'t use this\n```\nthoughts?'
    assert _kind(text) == ""
    assert _kind("> no, use yarn instead\nthat is what the doc says") == ""


def test_language_guess() -> None:
    assert [language(t) for t in ("use pnpm", "используй pnpm", "用 pnpm", "pnpm kullan")] == [
        "en",
        "ru",
        "zh",
        "tr",
    ]
