"""A rule the assistant's words state after the user only pointed at it: a hedge or a question the
reply accepts with a lasting rule, a numbered pick whose option states a standing practice, a "yes" to
a rule the assistant proposed; and the look-alikes that settle this change alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover.discover import build_report
from consolidate.discover.rewrite import imperative
from consolidate.evaluate.discover_score import evaluate
from consolidate.evaluate.discover_shapes import generate_shapes
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.helpers.signals import signals_in


def _kept(tmp_path: Path, before: str, said: str, reply: str) -> list[tuple[str, str]]:
    writer = SessionWriter("s1")
    writer.user("let's keep going")
    writer.assistant(before)
    anchor = writer.user(said)
    writer.assistant(reply)
    write_session(tmp_path, writer)
    found = signals_in(tmp_path)
    candidates = build_report(found).candidates
    assert all(c.evidence[0].uuid == anchor for c in candidates)
    return [(c.principle, c.trigger) for c in candidates]


@pytest.mark.parametrize(
    ("said", "reply", "rule"),
    [
        ("hmm, I think it'd be better if fixes went through a pull request",
         "Good idea — from now on I'll open a pull request for every fix instead of pushing to main.",
         "Open a pull request for every fix instead of pushing to main"),
        ("maybe we should keep the changelog newest first?",
         "You're right — changelog entries should always be listed newest first. I'll move it to the top.",
         "Changelog entries should always be listed newest first"),
        ("did you run the linter before committing?",
         "Good catch — the linter must run before every commit. Running `make lint` now.",
         "The linter must run before every commit"),
        ("should we maybe squash before merging?",
         "That makes sense — going forward I'll squash every branch before merging it.",
         "Squash every branch before merging it."),
        ("Did you create a branch first?",
         "You're absolutely right. I apologize for the oversight. I should have created a feature branch before "
         "making these changes. Going forward, I'll always create a branch first for non-trivial work.",
         "Always create a branch first for non-trivial work."),
        ("I think it would be better if we always ran the audit before releasing, what do you think?",
         "Agreed — running `cargo audit` before every release catches these early. I'll do that from now on.",
         "Run `cargo audit` before every release"),
        ("wait, did you bump the version?",
         "Yes, you're right — the version must be bumped before every release tag. Doing it now.",
         "The version must be bumped before every release tag"),
        ("我觉得发版前最好先跑一下 `make e2e`", "好主意，以后每次发版前我都会先跑 `make e2e`。",
         "以后每次发版前都先跑 `make e2e`"),
        ("你是不是应该先更新文档？", "你说得对，每次改接口都要先更新 `docs/api.md`。", "每次改接口都要先更新 `docs/api.md`。"),
        ("sürümü artırmadın mı?", "Haklısınız, her değişiklikte önce sürüm numarası artırılmalı. Şimdi artırıyorum.",
         "Her değişiklikte önce sürüm numarası artırılmalı"),
        ("ты прогнал миграции на тестовой базе?",
         "Вы правы, миграции всегда сначала прогоняем на тестовой базе. Сейчас сделаю.",
         "Миграции всегда сначала прогоняем на тестовой базе."),
    ],
)  # fmt: skip
def test_a_hedge_or_a_question_accepted_with_a_lasting_rule(
    tmp_path: Path, said: str, reply: str, rule: str
) -> None:
    assert [p for p, _ in _kept(tmp_path, "Done.", said, reply)] == [rule]


def test_a_restatement_keeps_the_clause_that_qualifies_it(tmp_path: Path) -> None:
    reply = "You're right — work always goes on a feature branch, never straight onto main. I'll move it."
    assert [
        p for p, _ in _kept(tmp_path, "Committed it on main.", "shouldn't that be on a branch?", reply)
    ] == ["Work always goes on a feature branch, never straight onto main."]
    # what the user says before the rule is still cut away
    assert imperative("sorry, you keep doing this — never push to main") == "Never push to main"


OPTIONS = (
    "Two ways to handle it:\n\n1. Fix the failing test now and move on.\n2. Run `make check` before each "
    "commit from now on, so this cannot slip again.\n\nWhich do you prefer?"
)


@pytest.mark.parametrize(
    ("before", "said", "rule"),
    [
        (OPTIONS, "2", "Run `make check` before each commit"),
        (OPTIONS, "let's do option 2", "Run `make check` before each commit"),
        ("### Option 1: Patch the client here\nQuick.\n\n### Option 2: Always regenerate the client with "
         "`make client` after editing the spec\nSafer.\n\nWhich?", "option 2 sounds good",
         "Always regenerate the client with `make client` after editing the spec"),
        ("Варианты:\n1. Оставить как есть.\n2. Всегда писать даты в логах в формате ISO 8601.\n\nКакой?", "второй",
         "Всегда писать даты в логах в формате ISO 8601"),
        ("有两个选择：\n1. 这次手动改一下版本号。\n2. 以后每次发布都用 `make bump` 统一改版本号。\n你选哪个？", "选2",
         "以后每次发布都用 `make bump` 统一改版本号。"),
        ("İki seçenek var:\n1. Bu seferlik elle düzelt.\n2. Kodu her zaman `make gen` ile yeniden üret.\n\nHangisi?",
         "2. seçenek", "Kodu her zaman `make gen` ile yeniden üret"),
    ],
)  # fmt: skip
def test_a_numbered_pick_of_a_standing_practice_gives_the_option(
    tmp_path: Path, before: str, said: str, rule: str
) -> None:
    assert [p for p, _ in _kept(tmp_path, before, said, "Going with that.")] == [rule]


@pytest.mark.parametrize(
    ("before", "said", "rule"),
    [
        ("Fixed. Should I add a rule that every new endpoint gets an entry in `docs/endpoints.md`?", "yes, add it",
         "Every new endpoint gets an entry in `docs/endpoints.md`"),
        ("Pushed. Should I always squash fixup commits before pushing from now on?", "yes do that",
         "Always squash fixup commits before pushing"),
        ("The tests pass now.\n\nOne thing worth keeping: integration tests need `DATABASE_URL` pointed at the "
         "throwaway container, never at the shared dev DB. Want me to add that to CLAUDE.md?", "yes please",
         "Integration tests need `DATABASE_URL` pointed at the throwaway container, never at the shared dev DB"),
        ("Proposed addition to CLAUDE.md:\n\n- Always run `make fmt` before committing.\n\nWant me to add it?",
         "yes", "Always run `make fmt` before committing"),
        ("Готово. Предлагаю правило: перед каждым релизом обновлять CHANGELOG.md. Добавить?", "да, добавь",
         "Перед каждым релизом обновлять CHANGELOG.md"),
        ("改好了。要不要定个规矩：所有配置项都必须写进 `config/schema.json`？", "好，就这么做",
         "所有配置项都必须写进 `config/schema.json`"),
        ("Tamam. Bir kural ekleyeyim mi: her PR açıklamasında ekran görüntüsü olmalı?", "evet, ekle",
         "Her PR açıklamasında ekran görüntüsü olmalı"),
    ],
)  # fmt: skip
def test_a_yes_to_a_rule_the_assistant_proposed_gives_the_rule(
    tmp_path: Path, before: str, said: str, rule: str
) -> None:
    assert [p for p, _ in _kept(tmp_path, before, said, "Done.")] == [rule]


@pytest.mark.parametrize(
    ("before", "said", "reply"),
    [
        ("Two options:\n1. Rename the variable to `total`.\n2. Inline the helper into `report()`.\n\nWhich one?",
         "2", "Going with option 2: inlined the helper into `report()`."),
        ("两个方案：\n1. 先修复这个测试。\n2. 先把函数拆开。\n选哪个？", "选1", "好的，方案1：测试已修复。"),
        ("Ran the suite.", "did the tests pass?", "Yes — all 142 passed."),
        ("Restarted the service.", "is it listening on 8080 now?", "Right, it's up on 8080."),
        ("Should I also rename `get_user` to `fetch_user` in this file?", "yes do that", "Done — renamed it."),
        ("Bu dosyayı silmemi ister misin?", "evet, sil", "Tamam, sildim."),
        ("Wrote `parse()`.", "maybe we should rename it to parse_row?", "Good idea — renamed it to `parse_row`."),
        ("Committed it.", "did you forget the import?", "You're right — I forgot the import in parser.py; added it."),
        ("The build was slow because the cache was cold. Want me to add that to CLAUDE.md?", "yes", "Added."),
        ("Proposed additions to CLAUDE.md:\n\n- Always run `make fmt` first.\n- Never push to main.\n\nWant me to "
         "add it?", "yes", "Added both."),  # two rules behind one yes: which one is the lesson is unsure
        ("I updated CLAUDE.md earlier. Want me to commit it?", "yes", "Committed."),
        ("Added the parameter.", "did you update all the call sites?",
         "You're right — every call site needs the new argument. Updating them now."),  # every one of this change
        ("Options:\n1. Fix every failing test now.\n2. Skip them.\n\nWhich?", "1", "Going with 1."),
        ("Should I add a rule that every new endpoint gets an entry in `docs/endpoints.md`?", ".", "Ok."),
        ("Done.", "maybe we should always do that? But maybe I misunderstand",
         "You're right — the spec should always be copied raw."),  # the user doubts: not yet a rule
    ],
)  # fmt: skip
def test_what_settles_this_change_alone_gives_nothing(
    tmp_path: Path, before: str, said: str, reply: str
) -> None:
    assert _kept(tmp_path, before, said, reply) == []


def test_the_shapes_pool_finds_every_restated_rule_and_no_look_alike(tmp_path: Path) -> None:
    devset = generate_shapes(tmp_path / "sessions", seed=3)
    found = signals_in(tmp_path / "sessions")
    result = evaluate(build_report(found), devset)
    assert not [m for m in result.misses if m.startswith("correction/")]
    assert not result.false and not result.noise_hits
