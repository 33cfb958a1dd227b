from __future__ import annotations

from consolidate.recall.text import fold, query_terms, search_text


def test_fold_removes_case_and_diacritics_in_our_languages() -> None:
    assert fold("Çalıştırma İstanbul") == "calistirma istanbul"
    assert fold("Ёлка и ЁЖИК") == "елка и ежик"
    assert fold("Café NAÏVE") == "cafe naive"
    assert fold("Plain ASCII") == "plain ascii"


def test_query_terms_drop_stopwords_of_each_language_and_keep_order() -> None:
    assert query_terms("How do we deploy the new releases?").words == ("deploy", "new", "releases")
    assert query_terms("где лежат миграции базы данных").words == ("лежат", "миграции", "базы", "данных")
    assert query_terms("bu dosya için ne yapmalı").words == ("dosya", "yapmali")
    assert not query_terms("what is it?")


def test_chinese_is_split_into_bigrams_around_particles() -> None:
    terms = query_terms("数据库的迁移")
    assert terms.cjk == ("数据", "据库", "迁移")
    assert query_terms("用pnpm安装").words == ("pnpm",)


def test_search_text_sets_chinese_bigrams_apart_from_latin_words() -> None:
    assert search_text("用Redis做缓存") == " 用 redis 做缓 缓存 "
