from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.capture import corrections
from consolidate.capture.corrections import find_correction
from consolidate.lazyre import lazy

CORRECTIONS = [
    "No, do it this way: keep the old API",
    "that's wrong, the config lives in pyproject",
    "Wrong! use the staging bucket",
    "I told you to keep the tests offline",
    "don't do that again",
    "Не надо трогать миграции",
    "Это неправильно, нужен другой флаг",
    "я же говорил, что тесты запускаются через make",
    "нет, сделай через make test",
    "不对，应该用 uv 运行",
    "你又错了",
    "Bu YANLIŞ, staging kullan",
    "yanlış dosya",
    "hayır, şöyle yap: önce testleri çalıştır",
    "sana söyledim, önce test",
]
NOT_CORRECTIONS = [
    "Please add a test for the parser",
    "what does this function return?",
    "Добавь, пожалуйста, тест для парсера",
    "请帮我添加一个测试",
    "Lütfen ayrıştırıcı için bir test ekle",
    "the wrongly named variable is fine",  # a word containing "wrong" is not the word
]


@pytest.mark.parametrize("prompt", CORRECTIONS)
def test_corrections_are_detected(prompt: str) -> None:
    assert find_correction(prompt)


@pytest.mark.parametrize("prompt", NOT_CORRECTIONS)
def test_ordinary_prompts_are_not(prompt: str) -> None:
    assert find_correction(prompt) is None


def test_every_phrase_is_spelled_out_exactly() -> None:
    for phrases in corrections._WORD_PHRASES.values():
        for phrase in phrases:
            spelled = corrections.spell_out(phrase)
            assert spelled and all(re.fullmatch(phrase, s) for s in spelled)
            assert len(set(spelled)) == len(spelled)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_what_a_phrase_matches_is_one_of_its_spellings(data: st.DataObject) -> None:
    phrase = data.draw(st.sampled_from([p for ps in corrections._WORD_PHRASES.values() for p in ps]))
    assert data.draw(st.from_regex(phrase, fullmatch=True)) in corrections.spell_out(phrase)


_PIECES = [s for ps in corrections._WORD_PHRASES.values() for p in ps for s in corrections.spell_out(p)[:3]]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([*_PIECES, "please", "run", "the", "tests", "wrongly", ",", "!", "Thats", "NO,"])
    )
)
def test_the_spelling_check_answers_as_the_pattern_does(words: list[str]) -> None:
    prompt = " ".join(words)
    match = corrections._WORDS.search(corrections.fold(prompt))
    assert find_correction(prompt) == (match.group(0) if match else None)


def test_a_prompt_without_a_phrase_does_not_compile_the_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = lazy(corrections._WORDS.pattern)
    monkeypatch.setattr(corrections, "_WORDS", fresh)
    assert find_correction("please add a test for the parser, then run it") is None
    assert "_compiled" not in vars(fresh)
    assert find_correction("that's wrong, use the other flag") == "that's wrong"
    assert "_compiled" in vars(fresh)


def test_unsupported_syntax_is_refused() -> None:
    for phrase in (r"wrong\b", "(wrong)", "[ab]c", "(?:a|b"):
        with pytest.raises(ValueError):
            corrections.spell_out(phrase)
