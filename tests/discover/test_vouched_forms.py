"""A request to write down what the assistant explained about an example ("`[1],[2]` makes each one a
separate link"), when the user said a few turns before that this very form is the one that works: the
explanation becomes the order to write that form, cited with the turn that vouched for it - in our four
languages. A form the user only asked about, said does not work, or that the explanation says breaks
something, orders nothing; a description nobody vouched for is still no rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover.discover import build_report
from consolidate.discover.quality import wording_problem
from consolidate.discover.report import Learning
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.helpers.signals import signals_in

MEMORY = {"CLAUDE.md": "# Notes\n\n- Use uv.\n"}
EDIT = ("Edit", {"file_path": "/work/project/docs/index.md", "old_string": "[1,2]", "new_string": "[1][2]"})

# (the user vouches for the form, the user asks whether it makes sense, the reply explains it, the request
# to write it down, the rule proposed)
CASES = {
    "en": (
        "Nope, that doesn't work. I want every reference to resolve, and [1],[2] works in the preview",
        "does it make sense to you?",
        "Yes — `[1],[2]` makes each one a separate reference link. The old form was read as one link.",
        "Add that info to CLAUDE.md",
        "Write `[1],[2]`: it makes each one a separate reference link.",
    ),
    "ru": (
        "Нет, так не годится. Хочу, чтобы все ссылки открывались, [1],[2] работает в превью",
        "тебе это понятно?",
        "Да — `[1],[2]` делает каждую ссылку отдельной ссылкой. Старая форма читалась как одна ссылка.",
        "Запиши это в CLAUDE.md",
        "Пишите `[1],[2]` — это делает каждую ссылку отдельной ссылкой.",
    ),
    "zh": (
        "不对，这样不行。我希望每个引用都能打开，[1],[2] 在预览里可以",
        "你觉得这样合理吗？",
        "是的 — `[1],[2]` 会让每个引用都成为单独的链接。旧的写法被当成了一个链接。",
        "把这个写到 CLAUDE.md 里",
        "写成 `[1],[2]`：它会让每个引用都成为单独的链接。",
    ),
    "tr": (
        "Hayır, böyle olmaz. Her kaynağın açılmasını istiyorum, [1],[2] önizlemede çalışıyor",
        "sence mantıklı mı?",
        "Evet — `[1],[2]` her birini ayrı bir bağlantı yapar. Eski biçim tek bağlantı sayılıyordu.",
        "bunu CLAUDE.md'ye ekle",
        "`[1],[2]` yazın: her birini ayrı bir bağlantı yapar.",
    ),
}


def _session(tmp_path: Path, turns: list[tuple[str, str]]) -> list[Learning]:
    writer = SessionWriter("v1")
    writer.user("Tidy the references in the docs index")
    writer.tool_call(*EDIT, "ok")
    writer.assistant("Done: the two references are now `[1][2]`.")
    for user, reply in turns:
        writer.user(user)
        writer.assistant(reply)
    write_session(tmp_path, writer)
    return build_report(signals_in(tmp_path), MEMORY).candidates


@pytest.mark.parametrize("lang", sorted(CASES))
def test_the_explanation_is_ordered_when_the_user_vouched_for_the_form(tmp_path: Path, lang: str) -> None:
    vouched, asked, explained, request, rule = CASES[lang]
    found = _session(tmp_path, [(vouched, "Fixed."), (asked, explained), (request, "Added.")])
    assert [c.principle for c in found] == [rule]
    quotes = [e.quote for e in found[0].evidence]
    assert any("[1],[2]" in q and q.startswith(vouched[:12]) for q in quotes)  # cited with the vouching turn


NOT_VOUCHED = {
    "en": ("Does [1],[2] work in the preview?", "[1],[2] doesn't work in the preview", "I keep the refs as they are"),
    "ru": ("[1],[2] работает в превью?", "[1],[2] не работает в превью", "ссылки оставляю как есть"),
    "zh": ("[1],[2] 在预览里可以吗？", "[1],[2] 在预览里不行", "引用保持原样"),
    "tr": ("[1],[2] önizlemede çalışıyor mu?", "[1],[2] önizlemede çalışmıyor", "kaynakları olduğu gibi bırakıyorum"),
}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(NOT_VOUCHED))
def test_a_form_asked_about_or_refused_orders_nothing(tmp_path: Path, lang: str) -> None:
    _, asked, explained, request, _ = CASES[lang]
    for i, said in enumerate(NOT_VOUCHED[lang]):
        found = _session(tmp_path / str(i), [(said, "Fixed."), (asked, explained), (request, "Added.")])
        assert found == [], said


def test_a_form_the_explanation_says_breaks_something_orders_nothing(tmp_path: Path) -> None:
    found = _session(
        tmp_path,
        [
            ("[1][2] works in my editor", "Fixed."),
            ("does it make sense to you?", "Yes — `[1][2]` breaks the second reference in the preview."),
            ("Add that info to CLAUDE.md", "Added."),
        ],
    )
    assert found == []


@pytest.mark.parametrize(
    "description",
    [
        "`[1],[2]` makes each one a separate reference link.",
        "`[1],[2]` делает каждую ссылку отдельной ссылкой.",
        "`[1],[2]` 会让每个引用都成为单独的链接。",
        "`[1],[2]` her birini ayrı bir bağlantı yapar.",
    ],
)
def test_what_an_example_does_is_no_rule_in_any_of_our_languages(description: str) -> None:
    assert wording_problem(description, "") == "no rule"
    assert wording_problem("Use `[1],[2]` for several reference links.", "") == ""
