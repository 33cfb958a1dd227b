"""A small synthetic recall corpus: facts said in past sessions in four languages, noise around them,
and queries in other words that each one session answers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.capture.fixtures import Session, write_session


@dataclass(frozen=True)
class Planted:
    key: str
    user: str
    assistant: str
    query: str


PLANTED = [
    Planted("deploy-en", "How should releases go out?",
            "We decided to deploy with blue-green releases because rollbacks were too slow.",
            "how are we deploying new releases"),
    Planted("cache-en", "let's use Redis for the session cache because the database was the bottleneck",
            "Done: the session cache now lives in Redis.", "which cache did we pick for sessions"),
    Planted("migrations-ru", "Мы решили хранить миграции базы данных в отдельной папке, потому что так проще ревью",
            "Хорошо, перенёс миграции в папку migrations.", "где лежат миграции базы данных"),
    Planted("tree-ru", "Ёлочные игрушки храним в коробке на антресоли", "Записал.", "где елочные игрушки"),
    Planted("config-tr", "Yapılandırma dosyasını her zaman yedekle, çünkü geçen sefer kaybettik",
            "Tamam, yedekleme adımını ekledim.", "yapilandirma dosyasi yedek"),
    Planted("lint-tr", "Commit atmadan önce ruff çalıştıralım çünkü CI biçim hatasında düşüyor",
            "Anlaşıldı, pre-commit kancası eklendi.", "commit öncesi ruff çalıştırma"),
    Planted("cache-zh", "我们决定用Redis做缓存，因为数据库查询太慢了", "好的，已经改成Redis缓存。", "缓存用什么"),
    Planted("token-zh", "访问令牌七天过期，因为用户大约每周登录一次", "已把过期时间设为七天。", "令牌多久过期"),
]  # fmt: skip
NOISE = [
    ("please run the tests again", "All 42 tests pass."),
    ("what does this function return?", "It returns the parsed document."),
    ("покажи последний коммит", "Последний коммит: обновлён README."),
    ("bu dosyayı aç", "Dosya açıldı."),
    ("看一下日志", "日志里没有错误。"),
]


def write_corpus(claude_home: Path, project: Path) -> dict[str, str]:
    """One session per planted fact plus noise sessions; returns planted key → session id."""
    sessions: dict[str, str] = {}
    for planted in PLANTED:
        session = Session(cwd=str(project))
        user, answer = NOISE[len(sessions) % len(NOISE)]
        session.user(user).assistant(answer).user(planted.user).assistant(planted.assistant)
        write_session(claude_home, project, session)
        sessions[planted.key] = session.session_id
    for user, answer in NOISE:
        write_session(claude_home, project, Session(cwd=str(project)).user(user).assistant(answer))
    return sessions
