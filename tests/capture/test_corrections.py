from __future__ import annotations

import pytest

from consolidate.capture.corrections import find_correction

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
