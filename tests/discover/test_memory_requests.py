"""A user's explicit request to write something into the memory, in our four languages and as a question:
the rule is what the user's turn (or the turn it points back at) states, never the request itself; a
request to write down a state of today or a question is no rule. Also a plan rejected with a lasting
reason, and a doubt the reply settles by owning the error."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover.discover import build_report
from consolidate.discover.signals import Signal
from consolidate.discover.turns import is_memory_request
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.helpers.signals import signals_in

EDIT = ("Edit", {"file_path": "/work/project/src/service.py", "old_string": "a", "new_string": "b"})


def _signals(tmp_path: Path, turns: list[tuple[str, str]]) -> list[Signal]:
    writer = SessionWriter("m1")
    writer.tool_call(*EDIT, "ok")
    for user, reply in turns:
        writer.user(user)
        writer.assistant(reply)
    write_session(tmp_path, writer)
    return signals_in(tmp_path)


def _kept(tmp_path: Path, turns: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(c.kind, c.principle) for c in build_report(_signals(tmp_path, turns)).candidates]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Vendored wheels are never rebuilt on CI; add that to the rules.", "Vendored wheels are never rebuilt on CI"),
        ("put this in the memory: vendored wheels are never rebuilt on CI", "Vendored wheels are never rebuilt on CI"),
        ("Тестовые базы всегда создаём через `make testdb`, запиши это в CLAUDE.md",
         "Тестовые базы всегда создаём через `make testdb`"),
        ("Тестовые базы всегда создаём через `make testdb`, добавь это в правила",
         "Тестовые базы всегда создаём через `make testdb`"),
        ("测试数据库一律用 `make testdb` 创建，把这个记到 CLAUDE.md 里", "测试数据库一律用 `make testdb` 创建"),
        ("测试数据库一律用 `make testdb` 创建，把这条加到规则里", "测试数据库一律用 `make testdb` 创建"),
        ("Test veritabanları her zaman `make testdb` ile kurulmalı, bunu CLAUDE.md'ye ekle",
         "Test veritabanları her zaman `make testdb` ile kurulmalı"),
        ("Test veritabanları her zaman `make testdb` ile kurulmalı, bunu kurallara ekle",
         "Test veritabanları her zaman `make testdb` ile kurulmalı"),
    ],
)  # fmt: skip
def test_the_rule_is_the_turn_without_its_request(tmp_path: Path, said: str, rule: str) -> None:
    assert _kept(tmp_path, [(said, "Okay.")]) == [("remember", rule)]


@pytest.mark.parametrize(
    ("asked", "rule"),
    [
        ("should CLAUDE.md say that release tags are only ever pushed by CI?",
         "Release tags are only ever pushed by CI"),
        ("Может, в CLAUDE.md написать, что релизные теги всегда ставит CI?", "Релизные теги всегда ставит CI"),
        ("要不要在 CLAUDE.md 里写上：发布标签一律由 CI 推送？", "发布标签一律由 CI 推送"),
        ("Sürüm etiketleri her zaman CI tarafından gönderilmeli diye CLAUDE.md'ye yazalım mı?",
         "Sürüm etiketleri her zaman CI tarafından gönderilmeli"),
    ],
)  # fmt: skip
def test_a_request_asked_as_a_question_is_one_when_the_reply_says_yes(
    tmp_path: Path, asked: str, rule: str
) -> None:
    assert _kept(tmp_path, [(asked, "Yes, adding it.")]) == [("remember", rule)]
    assert _kept(tmp_path / "no", [(asked, "Maybe — let's ask the team first.")]) == []


def test_a_question_that_points_back_takes_the_rule_said_before(tmp_path: Path) -> None:
    signals = _signals(
        tmp_path,
        [
            ("the changelog entry always goes in the same commit as the code", "Okay."),
            ("should CLAUDE.md say that?", "Yes — adding it."),
        ],
    )
    principles = [c.principle for c in build_report(signals).candidates]
    assert principles == ["The changelog entry always goes in the same commit as the code"]
    (remember,) = [s for s in signals if s.kind == "remember"]
    assert remember.quote == "should CLAUDE.md say that?" and len(remember.also) == 1  # both turns cited


@pytest.mark.parametrize(
    "request_",
    [
        "note in CLAUDE.md that the staging server is down today",
        "add to CLAUDE.md: why does the deploy take so long?",
        "запиши в CLAUDE.md, что сервер сегодня недоступен",
        "把今天服务器宕机的事记到 CLAUDE.md",
        "bugün sunucu kapalı, bunu CLAUDE.md'ye ekle",
        "add that to the eslint rules",
    ],
)
def test_a_request_to_write_down_a_state_or_a_question_is_no_rule(tmp_path: Path, request_: str) -> None:
    # the turn before states a rule no reply carried: a request that says its own object never takes it
    before = ("the docs need to be clear that we configure packages, not crates", "Here is the README change.")
    assert _kept(tmp_path, [before, (request_, "Noted.")]) == []


def test_a_question_about_the_memory_is_no_request() -> None:
    assert not is_memory_request("did you update CLAUDE.md?")
    assert not is_memory_request("what does CLAUDE.md say about releases?")
    assert is_memory_request("maybe CLAUDE needs to be updated?")


# --- a plan rejected with a reason ------------------------------------------------------------------
def _plan(tmp_path: Path, reason: str, reply: str) -> list[str]:
    writer = SessionWriter("p1")
    _, ids = writer.assistant("", tools=[("ExitPlanMode", {"plan": "# Plan\n1. Add the column\n2. Backfill"})])
    writer.reject(ids[0], reason)
    writer.assistant(reply)
    write_session(tmp_path, writer)
    found = signals_in(tmp_path)
    return [c.principle for c in build_report(found).candidates]


@pytest.mark.parametrize(
    "reason",
    [
        "Every migration we ship needs a down migration, never plan one without it.",
        "Каждая миграция всегда должна иметь откат.",
        "每次数据库迁移都必须附带回滚步骤。",
        "Planlarda her zaman bir geri alma adımı olmalı.",
    ],
)
def test_a_plan_rejected_with_a_lasting_reason_teaches_it(tmp_path: Path, reason: str) -> None:
    assert _plan(tmp_path, reason, "Understood.") == [reason.rstrip("。")]


def test_a_plan_amended_for_this_time_teaches_nothing(tmp_path: Path) -> None:
    assert _plan(tmp_path, "Add a step for the docs first", "Okay, adding it.") == []


# --- a doubt the reply settles by owning the error ------------------------------------------------
@pytest.mark.parametrize(
    ("said", "reply", "rule"),
    [
        ("Loading through serde is fine, but writing the spec back must keep the user's blank lines. "
         "But maybe I misunderstand", "You're right, I was sloppy.", "Writing the spec back must keep the user's "
         "blank lines."),
        ("Импорт всегда должен сохранять комментарии. Но может, я ошибаюсь", "Вы правы, я ошибся.",
         "Импорт всегда должен сохранять комментарии."),
        ("导出时必须保留原始时间戳。也许我理解错了", "你说得对，是我搞错了。", "导出时必须保留原始时间戳。"),
        ("Dışa aktarım her zaman orijinal zaman damgalarını korumalı. Ama emin değilim.", "Haklısınız, hata bende.",
         "Dışa aktarım her zaman orijinal zaman damgalarını korumalı."),
    ],
)  # fmt: skip
def test_a_doubt_the_reply_settles_by_owning_the_error_is_a_rule(
    tmp_path: Path, said: str, reply: str, rule: str
) -> None:
    assert [p for _, p in _kept(tmp_path, [(said, reply)])] == [rule]
    # a reply that concedes without owning an error leaves the doubt standing
    assert _kept(tmp_path / "still", [(said, "You're right, that matters.")]) == []


def test_a_request_that_names_what_it_points_at_takes_the_turn_before(tmp_path: Path) -> None:
    # the words before the request report what was done; "that convention" is what was said before
    signals = _signals(
        tmp_path,
        [
            ("maybe shorten hotfix subjects to the ticket id?", "Good idea."),
            ("I've reworded the last two commits, update CLAUDE.md with that convention",
             "Updated. The convention is now: a hotfix commit's subject is its ticket id."),
        ],
    )  # fmt: skip
    assert [c.principle for c in build_report(signals).candidates] == ["A hotfix commit's subject is its ticket id."]
