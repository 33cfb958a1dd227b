"""Dialogue shapes for the discoverer: lessons carried by what surrounds a turn, not by a phrase.

Each scenario is a short exchange written in other words than the dev and holdout pools (see
`discover_pools`): a terse fact or a question the assistant concedes and restates as a rule, a redirect
typed after an interrupt that the assistant follows by redoing the call, a build or compile failure fixed
by a changed option, a rejected tool use of any tool with its reason, a decision in a phrasing the
pools do not use, a standing wish the reply promises to keep, a "don't do that again" the conceding reply
names as a rule. Look-alikes of every shape teach nothing:
a concession of a one-off slip, a redirect for this time only, a retry after the code changed, a
rejection for now, a question that weighs two options, generic advice, an acknowledgement followed by a
one-off fix, a "You're right" to a question about how a thing is, a reply restating a rule the user
rejected. Synthetic text only.

`generate_shapes(directory, seed=...)` writes the sessions and returns the labels as a `DevSet`, scored
like the pools by `discover_score.evaluate`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .discover_devset import DevSet, Planted
from .discover_devset import Noise as NoiseLabel
from .synthetic_sessions import SessionWriter, write_session

Scenario = Callable[[SessionWriter, DevSet], None]


def _plant(devset: DevSet, writer: SessionWriter, kind: str, language: str, anchor: str, key: str) -> None:
    devset.planted.append(Planted(kind, language, writer.session_id, anchor, key))


def _noise(devset: DevSet, writer: SessionWriter, kind: str, uuid: str, forbidden: str = "") -> None:
    devset.noise.append(NoiseLabel(kind, writer.session_id, uuid, forbidden))


# --- the assistant concedes a terse fact or a question, and says the rule --------------------------
# (language, the assistant's action, the user's words, the reply, key)
CONCESSIONS: list[tuple[str, tuple[str, dict[str, Any]], str, str, str]] = [
    ("en", ("Edit", {"file_path": "/work/project/fixtures/users.json"}),
     "hm, that folder gets regenerated overnight",
     "Good catch — fixture data must always be changed in `scripts/gen_fixtures.py`, never in fixtures/ "
     "by hand. I'll move the change into the generator.",
     "gen_fixtures.py"),
    ("en", ("Edit", {"file_path": "/work/project/poetry.lock"}),
     "did you just hand-edit the lockfile?",
     "My mistake — the lockfile should only ever change through `poetry lock`. I'll revert my edit and "
     "regenerate it.",
     "poetry lock"),
    ("ru", ("Bash", {"command": "curl http://localhost:8080/health"}),
     "у нас стенд слушает 8443",
     "Вы правы — стенд всегда слушает порт 8443, а не 8080. Повторю проверку на 8443.",
     "8443"),
    ("zh", ("Bash", {"command": "git commit -m '修复登录'"}),
     "这个仓库的提交说明是英文的",
     "你说得对，这个仓库的提交说明必须用英文写，我重新提交一次。",
     "英文"),
    ("tr", ("Edit", {"file_path": "/work/project/src/app.ts"}),
     "burada girinti dört boşluk",
     "Haklısınız, bu depoda girinti her zaman dört boşluk olmalı; dosyayı ona göre düzelttim.",
     "boşluk"),
]  # fmt: skip


def _concession(item: tuple[str, tuple[str, dict[str, Any]], str, str, str]) -> Scenario:
    language, (tool, tool_input), said, reply, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call(tool, tool_input, "done")
        writer.assistant("Done.")
        _plant(devset, writer, "correction", language, writer.user(said), key)
        writer.assistant(reply)

    return build


# --- the user interrupts, redirects, and the assistant redoes the call another way ---------------
# (language, the interrupted command, the user's words, the reply, the redone command, key)
REDIRECTS: list[tuple[str, str, str, str, str, str]] = [
    ("en", "pip install -e .", "hold on - dev deps come from `uv sync` in this repo, pip leaves the lock behind",
     "Got it, switching to uv.", "uv sync", "uv sync"),
    ("ru", "npm run build", "стоп, собираем тут через `just build`, npm-скрипты устарели",
     "Понял, запускаю just build.", "just build", "just build"),
    ("zh", "python manage.py runserver", "等一下，本地环境统一用 `docker compose up web` 启动",
     "好的，改用 docker compose 启动。", "docker compose up web", "docker compose"),
    ("tr", "go run ./cmd/api", "dur, servisi her zaman `make run-api` ile başlatıyoruz",
     "Anladım, make run-api ile başlatıyorum.", "make run-api", "make run-api"),
]  # fmt: skip


def _redirect(item: tuple[str, str, str, str, str, str]) -> Scenario:
    language, command, said, reply, redone, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.assistant("Starting it.", tools=[("Bash", {"command": command})])
        writer.interrupt()
        _plant(devset, writer, "correction", language, writer.user(said), key)
        writer.tool_call("Bash", {"command": redone}, "ok", text=reply)

    return build


# --- a failure that is no usage error, fixed by a changed option of the same program --------------
# (failed command, output, fixed command, key)
BUILD_FIXES: list[tuple[str, str, str, str]] = [
    ("dotnet build", "error NETSDK1045: The current .NET SDK does not support targeting .NET 9.0.",
     "dotnet build -p:TargetFramework=net8.0", "TargetFramework=net8.0"),
    ("pytest tests/", "ImportError while loading conftest '/work/project/tests/conftest.py'.\n"
     "ModuleNotFoundError: No module named 'app'", "pytest --import-mode=importlib tests/", "--import-mode"),
    ("tsc -p .", "error TS5023: Unknown compiler option 'verbatimModuleSyntax'.\nFound 1 error.",
     "tsc -p . --skipLibCheck --target es2022", "--target"),
]  # fmt: skip


def _build_fix(item: tuple[str, str, str, str]) -> Scenario:
    failed, output, fixed, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call("Bash", {"command": failed}, f"Exit code 1\n{output}", is_error=True)
        writer.assistant("Trying again with another option.")
        _, anchor = writer.tool_call("Bash", {"command": fixed}, "Build succeeded.")
        _plant(devset, writer, "error-fix", "en", anchor, key)

    return build


# --- a rejected tool use (any tool) with its reason ------------------------------------------------
# (language, tool, input, reason, key)
REJECTED: list[tuple[str, str, dict[str, Any], str, str]] = [
    ("en", "Write", {"file_path": "/work/project/CHANGELOG.md"},
     "the changelog is assembled from fragments - always add a file under changes/ instead", "changes/"),
    ("en", "WebFetch", {"url": "https://docs.example.com/api"},
     "no web lookups for this, the API reference is vendored in docs/api and that's the one we target",
     "docs/api"),
    ("zh", "Bash", {"command": "git push origin main"}, "主分支受保护，一律先推到功能分支再开合并请求", "功能分支"),
    ("tr", "MultiEdit", {"file_path": "/work/project/locales/tr.json"},
     "çeviri dosyalarını asla elle düzenleme, Crowdin'den senkronize ediliyorlar", "Crowdin"),
    ("ru", "NotebookEdit", {"notebook_path": "/work/project/analysis.ipynb"},
     "ноутбуки не правим, вся логика должна жить в src/analysis.py", "src/analysis.py"),
]  # fmt: skip


def _rejected(item: tuple[str, str, dict[str, Any], str, str]) -> Scenario:
    language, tool, tool_input, reason, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        _, ids = writer.assistant("Updating it.", tools=[(tool, tool_input)])
        _plant(devset, writer, "rejection", language, writer.reject(ids[0], reason), key)
        writer.assistant("Understood.")

    return build


def _said(
    kind: str, before: Callable[[SessionWriter], object]
) -> Callable[[tuple[str, str, str, str]], Scenario]:
    """Scenarios of one user turn after `before`, answered by the reply: (language, words, reply, key)."""

    def scenario(item: tuple[str, str, str, str]) -> Scenario:
        language, said, reply, key = item

        def build(writer: SessionWriter, devset: DevSet) -> None:
            before(writer)
            _plant(devset, writer, kind, language, writer.user(said), key)
            writer.assistant(reply)

        return build

    return scenario


# --- a decision in a phrasing the pools do not use -------------------------------------------------
# (language, the user's words, the reply, key)
DECIDED: list[tuple[str, str, str, str]] = [
    ("en", "I'd rather we stick to plain dataclasses over pydantic here, since the payloads never leave the "
     "process", "Makes sense, dataclasses it is.", "dataclasses"),
    ("en", "ok, final call: the background jobs run on RQ, because Celery is too much to operate for us",
     "Got it, RQ for the jobs.", "RQ"),
    ("ru", "остановимся на Kafka, потому что нам нужен повтор событий", "Хорошо, берём Kafka.", "Kafka"),
    ("zh", "就这么定了：配置统一放 YAML，因为运维只看 YAML", "好的，配置都用 YAML。", "YAML"),
    ("tr", "Veritabanında SQLite'ta karar kıldık, çünkü kurulum gerektirmiyor", "Tamam, SQLite ile devam.",
     "SQLite"),
]  # fmt: skip


_decided = _said("decision", lambda w: w.assistant("Both would work; which one do you prefer?"))


# --- a standing wish said in passing, which the reply promises to keep -----------------------------
# (language, the user's words, the reply, key)
STANDING: list[tuple[str, str, str, str]] = [
    ("en", "whenever the schema changes, the ERD gets regenerated with `make erd`",
     "Will do — I'll regenerate the ERD with `make erd` each time the schema changes.", "make erd"),
    ("ru", "каждый раз после правки API обновляй openapi.yaml",
     "Понял, буду каждый раз обновлять openapi.yaml после правки API.", "openapi.yaml"),
    ("zh", "今后每次改动接口都要同步更新 openapi.yaml", "明白，以后每次改接口我都会同步更新 openapi.yaml。",
     "openapi.yaml"),
    ("tr", "her seferinde PR açmadan önce `make fmt` çalıştır",
     "Anladım, bundan sonra her PR öncesi `make fmt` çalıştıracağım.", "make fmt"),
]  # fmt: skip


_standing = _said("remember", lambda w: w.tool_call("Bash", {"command": "git status"}, "nothing to commit"))


# --- a rule said in passing as information for the assistant ---------------------------------------
# (language, the user's words, the reply, key)
INFORMED: list[tuple[str, str, str, str]] = [
    ("ru", "к сведению: миграции нужно запускать только из контейнера `api`", "Понял.", "api"),
    ("zh", "提醒一下，部署前需要先跑 `make smoke`", "好的。", "make smoke"),
    ("tr", "bilgin olsun, sürüm etiketleri v harfiyle başlamalı", "Tamam.", "etiket"),
]  # fmt: skip


_informed = _said("correction", lambda w: w.tool_call("Bash", {"command": "git log -1"}, "commit 1a2b3c"))


# --- the user hedges, asks, picks an option or says "yes, add it"; the reply restates the practice -----
# (language, what the assistant said before, the user's words, the reply, key)
RESTATED: list[tuple[str, str, str, str, str]] = [
    ("en", "Pushed the fix to main.",
     "hmm, I think it'd be better if fixes went through a pull request",
     "Good idea — from now on I'll open a pull request for every fix instead of pushing to main.",
     "pull request"),
    ("en", "Added the entry at the bottom of CHANGELOG.md.",
     "maybe we should keep the changelog newest first?",
     "You're right — changelog entries should always be listed newest first. I'll move it to the top.",
     "newest first"),
    ("ru", "Добавил функцию в utils.py.",
     "может, лучше такие хелперы держать в helpers/?",
     "Вы правы — вспомогательные функции всегда кладём в `helpers/`, а не в utils.py. Перенесу.",
     "helpers/"),
    ("zh", "已经发布了 1.4.0。",
     "我觉得发版前最好先跑一下 `make e2e`",
     "好主意，以后每次发版前我都会先跑 `make e2e`。",
     "make e2e"),
    ("tr", "Testleri pytest ile çalıştırdım.",
     "belki testleri `make test-all` ile çalıştırsak daha iyi olur",
     "Haklısınız, testler her zaman `make test-all` ile çalıştırılmalı.",
     "make test-all"),
    ("en", "Committed the change as a1b2c3d.",
     "did you run the linter before committing?",
     "Good catch — the linter must run before every commit. Running `make lint` now.",
     "linter"),
    ("en", "Committed it on main.",
     "shouldn't that be on a branch?",
     "You're right — work always goes on a feature branch, never straight onto main. I'll move the commit.",
     "feature branch"),
    ("ru", "Применил миграцию на проде.",
     "ты прогнал миграции на тестовой базе?",
     "Вы правы, миграции всегда сначала прогоняем на тестовой базе. Сейчас откачу и сделаю по порядку.",
     "тестовой"),
    ("zh", "接口改好了。",
     "你是不是应该先更新文档？",
     "你说得对，每次改接口都要先更新 `docs/api.md`。",
     "docs/api.md"),
    ("tr", "Değişikliği commit ettim.",
     "sürümü artırmadın mı?",
     "Haklısınız, her değişiklikte önce sürüm numarası artırılmalı. Şimdi artırıyorum.",
     "sürüm"),
    ("en", "Two ways to handle it:\n\n1. Fix the failing test now and move on.\n2. Run `make check` before "
     "each commit from now on, so this cannot slip again.\n\nWhich do you prefer?",
     "2",
     "Going with option 2: I'll run `make check` before each commit from now on.",
     "make check"),
    ("ru", "Варианты:\n1. Оставить как есть.\n2. Всегда писать даты в логах в формате ISO 8601.\n\nКакой выбираете?",
     "вариант 2",
     "Хорошо, вариант 2: даты в логах всегда в ISO 8601.",
     "ISO 8601"),
    ("zh", "有两个选择：\n1. 这次手动改一下版本号。\n2. 以后每次发布都用 `make bump` 统一改版本号。\n你选哪个？",
     "选2",
     "好的，就用方案2：以后每次发布都用 `make bump` 改版本号。",
     "make bump"),
    ("tr", "İki seçenek var:\n1. Bu seferlik elle düzelt.\n2. Kodu her zaman `make gen` ile yeniden üret.\n\nHangisi?",
     "2. seçenek",
     "Tamam, 2. seçenek: kodu her zaman `make gen` ile üreteceğim.",
     "make gen"),
    ("en", "Fixed. Should I add a rule that every new endpoint gets an entry in `docs/endpoints.md`?",
     "yes, add it",
     "Done — every new endpoint now gets an entry in `docs/endpoints.md`.",
     "docs/endpoints.md"),
    ("ru", "Готово. Предлагаю правило: перед каждым релизом обновлять CHANGELOG.md. Добавить?",
     "да, добавь",
     "Добавил правило.",
     "CHANGELOG"),
    ("zh", "改好了。要不要定个规矩：所有配置项都必须写进 `config/schema.json`？",
     "好，就这么做",
     "好的，以后所有配置项都写进 `config/schema.json`。",
     "schema.json"),
    ("tr", "Tamam. Bir kural ekleyeyim mi: her PR açıklamasında ekran görüntüsü olmalı?",
     "evet, ekle",
     "Tamam, kuralı ekledim.",
     "ekran"),
    ("en", "The tests pass now.\n\nOne thing worth keeping: integration tests need `DATABASE_URL` pointed at the "
     "throwaway container, never at the shared dev DB. Want me to add that to CLAUDE.md?",
     "yes please", "Added.", "throwaway container"),
    ("en", "Pushed. Should I always squash fixup commits before pushing from now on?",
     "yes do that", "Will do.", "squash fixup"),
    ("en", "Two ways:\n\n### Option 1: Patch the generated client here\nQuick, but lost on the next run.\n\n"
     "### Option 2: Always regenerate the client with `make client` after editing the spec\nSafer.\n\nWhich?",
     "let's do option 2", "Going with option 2.", "make client"),
    ("en", "Tagged v2.3.0.",
     "wait, did you bump the version?",
     "Yes, you're right — the version must be bumped before every release tag. Doing it now.",
     "release tag"),
    ("en", "Proposed addition to CLAUDE.md:\n\n- Keep every SQL migration reversible with a `down` step.\n\n"
     "Want me to add it?", "yes", "Added.", "reversible"),
    ("en", "Merged the branch.", "should we maybe squash before merging?",
     "That makes sense — going forward I'll squash every branch before merging it.", "squash every branch"),
    ("en", "Committed the refactor to main.", "Did you create a branch first?",
     "You're absolutely right. I apologize for the oversight. I should have created a feature branch before "
     "making these changes. Going forward, I'll always create a branch first for non-trivial work.\n\n"
     "Let me fix this now:", "create a branch first"),
    ("en", "Done, all changes are in.",
     "I think it would be better if we always ran the audit before releasing, what do you think?",
     "Agreed — running `cargo audit` before every release catches these early. I'll do that from now on.",
     "cargo audit"),
]  # fmt: skip


def _restated(item: tuple[str, str, str, str, str]) -> Scenario:
    language, before, said, reply, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.assistant(before)
        _plant(devset, writer, "correction", language, writer.user(said), key)
        writer.assistant(reply)

    return build


# Look-alikes: a one-off numbered pick, a question answered with a fact, "yes" to a one-off edit, a
# hedged one-off, a question conceded for this time only: (before, the user's words, the reply, forbidden).
RESTATED_NOISE: list[tuple[str, str, str, str]] = [
    ("Two options:\n1. Rename the variable to `total`.\n2. Inline the helper into `report()`.\n\nWhich one?",
     "2", "Going with option 2: inlined the helper into `report()`.", "inline"),
    ("Варианты:\n1. Переименовать файл.\n2. Удалить старый модуль.\nКакой?",
     "вариант 1", "Хорошо, вариант 1: переименовал файл.", "переименов"),
    ("两个方案：\n1. 先修复这个测试。\n2. 先把函数拆开。\n选哪个？", "选1", "好的，方案1：测试已修复。", "测试"),
    ("Seçenekler:\n1. Değişkeni yeniden adlandır.\n2. Fonksiyonu böl.\nHangisi?",
     "2. seçenek", "Tamam, 2. seçenek: fonksiyonu böldüm.", "fonksiyon"),
    ("Ran the suite.", "did the tests pass?", "Yes — all 142 passed.", "142"),
    ("Restarted the service.", "is it listening on 8080 now?", "Right, it's up on 8080.", "8080"),
    ("Should I also rename `get_user` to `fetch_user` in this file?", "yes do that",
     "Done — renamed `get_user` to `fetch_user` in users.py.", "fetch_user"),
    ("Переименовать config.yml в config.yaml?", "да, сделай", "Готово, переименовал.", "config.yaml"),
    ("要把这个函数移到 utils.py 吗？", "好，就这么做", "好的，已经移过去了。", "utils.py"),
    ("Bu dosyayı silmemi ister misin?", "evet, sil", "Tamam, sildim.", "sil"),
    ("Wrote `parse()`.", "maybe we should rename it to parse_row?", "Good idea — renamed it to `parse_row`.",
     "parse_row"),
    ("Committed it.", "did you forget the import?",
     "You're right — I forgot the import in parser.py; added it.", "import"),
    ("The build was slow because the cache was cold. Want me to add that to CLAUDE.md?", "yes",
     "Added.", "cache"),
    ("### Option 1: Revert the commit\nClean history.\n\n### Option 2: Patch forward\nFaster.\n\nWhich?",
     "option 2 sounds good", "Going with option 2: patching forward.", "patch"),
    ("Added the parameter.", "did you update all the call sites?",
     "You're right — every call site needs the new argument. Updating them now.", "call site"),
    ("Options:\n1. Fix every failing test now.\n2. Skip them for this release.\n\nWhich?", "1",
     "Going with 1.", "failing test"),
]  # fmt: skip


def _restated_noise(item: tuple[str, str, str, str]) -> Scenario:
    before, said, reply, forbidden = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.assistant(before)
        _noise(devset, writer, "one-off-answer", writer.user(said), forbidden)
        writer.assistant(reply)

    return build


# --- the user points at what was just done ("don't do that again"), the conceding reply names it ------
# (language, the assistant's command, the user's words, the reply, key)
NAMED_BY_REPLY: list[tuple[str, str, str, str, str]] = [
    ("en", "docker system prune -af", "whoa, never do that here",
     "Good catch — `docker system prune` must never run on the shared build host.", "docker system prune"),
    ("en", "git commit --no-verify -m wip", "don't do that again",
     "My mistake — the pre-commit hooks should never be skipped with `--no-verify`.", "--no-verify"),
    ("ru", "npm install --force", "больше так не делай",
     "Вы правы — `npm install --force` никогда не запускаем в этом репозитории.", "npm install --force"),
    ("zh", "git reset --hard HEAD~1", "别再这样做了",
     "你说得对，永远不要用 `git reset --hard` 丢弃未提交的改动。", "git reset --hard"),
    ("tr", "git push --force origin release", "bunu bir daha yapma",
     "Haklısınız, paylaşılan dallara asla force push yapılmamalı.", "force push"),
]  # fmt: skip


def _named_by_reply(item: tuple[str, str, str, str, str]) -> Scenario:
    language, command, said, reply, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call("Bash", {"command": command}, "done")
        writer.assistant("Done.")
        _plant(devset, writer, "correction", language, writer.user(said), key)
        writer.assistant(reply)

    return build


# Look-alikes: an acknowledgement followed by a one-off fix, a sycophantic "You're right" to a question
# about how a thing is, a reply restating a rule the user rejected: (command, the user's words, the
# reply, forbidden).
REPLY_NOISE: list[tuple[str, str, str, str]] = [
    ("git push --force origin feature", "don't do that", "You're right — I'll undo that push right away.", "undo"),
    ("make index", "does the nightly job always rebuild the index?",
     "You're right — the nightly job always rebuilds the search index.", "nightly"),
    ("make snapshots", "no need to regenerate the snapshots every time",
     "Understood — always regenerate the snapshots before each commit.", "regenerate"),
]  # fmt: skip


def _reply_noise(item: tuple[str, str, str, str]) -> Scenario:
    command, said, reply, forbidden = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call("Bash", {"command": command}, "done")
        writer.assistant("Done.")
        _noise(devset, writer, "reply-words-no-rule", writer.user(said), forbidden)
        writer.assistant(reply)

    return build


# --- an explicit request to write a rule into the memory, said with the rule or right after it ------
# (language, the user's turn before the request or "", the request, the reply, key)
MEMORY_REQUESTS: list[tuple[str, str, str, str, str]] = [
    ("en", "", "Seed data lives only in `db/seeds.sql`, never in migrations; add that to the rules.",
     "Got it.", "db/seeds.sql"),
    ("en", "", "should CLAUDE.md say that the API docs are regenerated with `make openapi` after every route "
     "change?", "Yes — adding it.", "make openapi"),
    ("en", "feature flags are always read through `flags.get()` and not from the environment",
     "put this in the memory", "Noted.", "flags.get()"),
    ("ru", "", "Секреты для CI храним только в Vault, никогда в `.env`, запиши это в CLAUDE.md",
     "Понял, записываю.", "Vault"),
    ("ru", "", "Может, в CLAUDE.md написать, что changelog всегда обновляется в том же коммите?",
     "Да, добавлю.", "changelog"),
    ("zh", "", "数据库迁移一律用 `alembic` 生成，不要手写，把这个记到 CLAUDE.md 里", "好的，我记下来。", "alembic"),
    ("tr", "", "Docker imajları her zaman `make image` ile derlenmeli, bunu CLAUDE.md'ye ekle",
     "Tamam, ekliyorum.", "make image"),
    ("tr", "", "Sürüm etiketleri asla elle oluşturulmamalı, bunu kurallara ekle", "Tamam.", "etiket"),
]  # fmt: skip


def _memory_request(item: tuple[str, str, str, str, str]) -> Scenario:
    language, before, request, reply, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call("Edit", {"file_path": "/work/project/src/service.py"}, "done")
        if before:
            writer.user(before)
            writer.assistant("Okay, changing it.")
        _plant(devset, writer, "remember", language, writer.user(request), key)
        writer.assistant(reply)

    return build


# Look-alikes: a request to write down a state of today or a question, a question-put request the reply
# does not take up, rules of a linter: (the request, the reply, forbidden).
MEMORY_NOISE: list[tuple[str, str, str]] = [
    ("note in CLAUDE.md that the staging server is down today", "Noted.", "staging"),
    ("add to CLAUDE.md: why does the deploy take so long?", "Sure.", "deploy"),
    ("should CLAUDE.md say that every PR needs two reviewers?", "Maybe — let's ask the team first.", "reviewer"),
    ("add that to the eslint rules", "Done.", "eslint"),
    ("запиши в CLAUDE.md, что сервер сегодня недоступен", "Записал.", "сервер"),
    ("把今天服务器宕机的事记到 CLAUDE.md", "好的。", "服务器"),
    ("bugün sunucu kapalı, bunu CLAUDE.md'ye ekle", "Tamam.", "sunucu"),
]  # fmt: skip


def _memory_noise(item: tuple[str, str, str]) -> Scenario:
    request, reply, forbidden = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call("Edit", {"file_path": "/work/project/src/service.py"}, "done")
        _noise(devset, writer, "memory-request-no-rule", writer.user(request), forbidden)
        writer.assistant(reply)

    return build


# --- a plan the user rejects with a reason that states a lasting rule --------------------------------
# (language, the reason, the reply, key)
PLAN_REJECTED: list[tuple[str, str, str, str]] = [
    ("en", "don't plan schema changes without a rollback step, every migration we ship needs a down migration",
     "Understood — I'll add a down migration to the plan.", "down migration"),
    ("ru", "В планах всегда указывай, какие тесты добавятся, без этого план не принимаю.",
     "Понял, добавлю раздел с тестами.", "тест"),
    ("zh", "计划里的数据库改动一律要附带回滚步骤。", "明白，我把回滚步骤加进去。", "回滚"),
    ("tr", "Planlarda her zaman bir geri alma adımı olmalı.", "Anladım, geri alma adımını ekliyorum.", "geri alma"),
]  # fmt: skip


def _plan_rejected(item: tuple[str, str, str, str]) -> Scenario:
    language, reason, reply, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        _, ids = writer.assistant(
            "", tools=[("ExitPlanMode", {"plan": "# Plan\n1. Add the column\n2. Backfill"})]
        )
        _plant(devset, writer, "rejection", language, writer.reject(ids[0], reason), key)
        writer.assistant(reply)

    return build


def _plan_amended_for_now(writer: SessionWriter, devset: DevSet) -> None:
    _, ids = writer.assistant("", tools=[("ExitPlanMode", {"plan": "# Plan\n1. Rename the module"})])
    _noise(
        devset, writer, "plan-amended-for-now", writer.reject(ids[0], "Add a step for the docs first"), "docs"
    )
    writer.assistant("Okay, adding it.")


# --- a plan the user edits before approving it: a standing rule written into it ---------------------
_PLAN = "# Plan: cache the rate lookups\n\n## Steps\n1. Add a `RateCache` struct\n2. Wire it into `quote()`\n3. Add tests\n"
# (language, the line the user adds to the plan, key)
PLAN_EDITED: list[tuple[str, str, str]] = [
    ("en", "0. Before any of this: always cut a `feat/` branch off `develop`", "feat/"),
    ("ru", "- **Шаг 0:** каждый раз перед правкой кэша сначала пиши падающий тест", "падающий тест"),
    ("zh", "- 以后所有新结构体都要在 `docs/types.md` 里登记", "docs/types.md"),
    ("tr", "4. Her seferinde merge öncesi `make bench` sonuçlarını PR'a ekle", "make bench"),
]  # fmt: skip


def _plan_edited(item: tuple[str, str, str]) -> Scenario:
    language, line, key = item

    def build(writer: SessionWriter, devset: DevSet) -> None:
        edited = (
            _PLAN.replace("## Steps\n", f"## Steps\n{line}\n") if not line.startswith("4.") else _PLAN + line
        )
        _, approval = writer.plan(_PLAN, edited)
        _plant(devset, writer, "preference", language, approval, key)
        writer.assistant("Plan approved — starting.")

    return build


def _plan_step_edited(writer: SessionWriter, devset: DevSet) -> None:
    """The user adds a step of this plan and rewords another: the plan, not a rule."""
    edited = _PLAN.replace(
        "3. Add tests", "3. Add tests for the expiry path\n4. Drop the old `rates.json` loader"
    )
    _, approval = writer.plan(_PLAN, edited)
    _noise(devset, writer, "plan-step-edited", approval, "rates.json")
    writer.assistant("Starting.")


def _plan_design_added(writer: SessionWriter, devset: DevSet) -> None:
    """The user adds how the code will behave, with a generaliser in it: the plan's design, not a rule."""
    edited = (
        _PLAN
        + "- The cache is always refreshed whenever a rate feed reconnects\n- По умолчанию кэш живёт 5 минут\n"
    )
    _, approval = writer.plan(_PLAN, edited)
    _noise(devset, writer, "plan-design-added", approval, "reconnect")
    writer.assistant("Starting.")


def _plan_own_rule_recased(writer: SessionWriter, devset: DevSet) -> None:
    """The assistant's own rule in the plan, touched up by the user: not the user's lesson."""
    proposed = _PLAN + "4. Always run `cargo deny` before the release\n"
    _, approval = writer.plan(proposed, proposed.replace("4. Always run", "4. always run"))
    _noise(devset, writer, "plan-own-rule", approval, "cargo deny")
    writer.assistant("Starting.")


# --- a remark the user doubts at once, the doubt settled by a reply that owns the error ----------------
# (language, the user's words, the reply, key)
DOUBT_SETTLED: list[tuple[str, str, str, str]] = [
    ("en", "Reading the config through serde is fine, but writing the config back must keep the user's "
     "comments. But maybe I misunderstand", "You're right, I was sloppy — writes have to keep the comments.",
     "comments"),
    ("ru", "Импорт всегда должен сохранять комментарии. Но может, я ошибаюсь",
     "Вы правы, я ошибся — импорт должен сохранять комментарии.", "комментари"),
    ("zh", "导出时必须保留原始时间戳。也许我理解错了", "你说得对，是我搞错了，导出必须保留原始时间戳。", "时间戳"),
    ("tr", "Dışa aktarım her zaman orijinal zaman damgalarını korumalı. Ama emin değilim.",
     "Haklısınız, hata bende; dışa aktarım zaman damgalarını korumalı.", "zaman damga"),
]  # fmt: skip


# --- look-alikes of every shape that teach nothing ---------------------------------------------------
def _slip(language: str, said: str, reply: str, forbidden: str) -> Scenario:
    """A concession of a one-off slip."""

    def build(writer: SessionWriter, devset: DevSet) -> None:
        writer.tool_call("Edit", {"file_path": "/work/project/src/parser.py"}, "done")
        _noise(devset, writer, "one-off-concession", writer.user(said), forbidden)
        writer.assistant(reply)

    return build


def _redirect_once(writer: SessionWriter, devset: DevSet) -> None:
    writer.assistant("Starting with the tests.", tools=[("Bash", {"command": "make test"})])
    writer.interrupt()
    _noise(
        devset, writer, "one-off-redirect", writer.user("actually, do the README first, tests after lunch")
    )
    writer.tool_call(
        "Read", {"file_path": "/work/project/README.md"}, "# Project", text="Sure, README first."
    )


def _retry_after_edit(writer: SessionWriter, devset: DevSet) -> None:
    writer.tool_call("Bash", {"command": "cargo build"}, "Exit code 101\nerror[E0308]: mismatched types",
                     is_error=True)  # fmt: skip
    writer.tool_call(
        "Edit", {"file_path": "/work/project/src/lib.rs", "old_string": "u32", "new_string": "u64"}
    )
    _, uuid = writer.tool_call("Bash", {"command": "cargo build --quiet"}, "Finished")
    _noise(devset, writer, "retry-after-code-fix", uuid)


def _rejected_for_now(writer: SessionWriter, devset: DevSet) -> None:
    _, ids = writer.assistant("Updating it.", tools=[("Edit", {"file_path": "/work/project/src/db.py"})])
    reason = "not now, I have that file open with unsaved changes"
    _noise(devset, writer, "rejection-for-now", writer.reject(ids[0], reason), "unsaved")
    writer.assistant("Okay, I'll leave db.py alone for now.")


def _weighing(writer: SessionWriter, devset: DevSet) -> None:
    _noise(devset, writer, "open-question", writer.user("should we go with Kafka or keep RabbitMQ for this?"))
    writer.assistant("Good question — both fit; Kafka if you need replay, RabbitMQ otherwise.")


def _platitude(writer: SessionWriter, devset: DevSet) -> None:
    _noise(devset, writer, "generic-advice", writer.user("always write clean code please"))
    writer.assistant("Of course.")


NOISE: list[Scenario] = [
    _slip("en", "the test name has a typo", "You're right — fixed the typo in test_parser.py.", "typo"),
    _slip("ru", "в заголовке опечатка", "Вы правы, исправил опечатку в заголовке.", "опечат"),
    _slip("zh", "这里少了一个逗号", "你说得对，已经补上了逗号。", "逗号"),
    _slip("tr", "başlıkta bir yazım hatası var", "Haklısınız, başlıktaki yazım hatasını düzelttim.", "yazım"),
    _redirect_once,
    _retry_after_edit,
    _rejected_for_now,
    _weighing,
    _platitude,
    *map(_restated_noise, RESTATED_NOISE),
    *map(_reply_noise, REPLY_NOISE),
    *map(_memory_noise, MEMORY_NOISE),
    _plan_amended_for_now,
    _plan_step_edited,
    _plan_design_added,
    _plan_own_rule_recased,
]

SCENARIOS: list[Scenario] = [
    *map(_concession, CONCESSIONS),
    *map(_redirect, REDIRECTS),
    *map(_build_fix, BUILD_FIXES),
    *map(_rejected, REJECTED),
    *map(_decided, DECIDED),
    *map(_standing, STANDING),
    *map(_informed, INFORMED),
    *map(_restated, RESTATED),
    *map(_named_by_reply, NAMED_BY_REPLY),
    *map(_memory_request, MEMORY_REQUESTS),
    *map(_plan_rejected, PLAN_REJECTED),
    *map(_plan_edited, PLAN_EDITED),
    *map(
        _said("preference", lambda w: w.tool_call("Edit", {"file_path": "/work/project/src/io.py"})),
        DOUBT_SETTLED,
    ),
]

# --- held apart: the same shapes in other words again, written before the rules were changed for the
# scenarios above and only measured -----------------------------------------------------------------
HOLDOUT_SCENARIOS: list[Scenario] = [
    *map(
        _concession,
        [
            (
                "en",
                ("Bash", {"command": "python -m pip install requests"}),
                "we vendor deps, remember the wheelhouse?",
                "You're right — dependencies are always installed from the local `wheelhouse/`, never from PyPI. "
                "I'll reinstall from there.",
                "wheelhouse",
            ),
            (
                "ru",
                ("Edit", {"file_path": "/work/project/config/prod.yaml"}),
                "это же прод-конфиг",
                "Вы правы, прод-конфиг никогда не правим напрямую — только через `config/overlays/`. Откатываю.",
                "overlays",
            ),
            (
                "zh",
                ("Bash", {"command": "npm publish"}),
                "发布不是这样做的吧？",
                "您说得对，这个项目的发布一律走 `make release`，不能直接 npm publish。",
                "make release",
            ),
            (
                "tr",
                ("Bash", {"command": "git push -f"}),
                "paylaşılan dalda mı?",
                "Haklısın, paylaşılan dallara asla force push yapılmamalı; değişikliği geri aldım.",
                "force push",
            ),
        ],
    ),  # fmt: skip
    *map(
        _redirect,
        [
            (
                "en",
                "make docs",
                "wait, the docs are built by `mkdocs build --strict` here, the make target is stale",
                "Okay, running mkdocs.",
                "mkdocs build --strict",
                "mkdocs build",
            ),
            (
                "ru",
                "pytest -q",
                "подожди, тесты всегда гоняем через `tox -e py312`",
                "Хорошо, запускаю tox.",
                "tox -e py312",
                "tox",
            ),
            (
                "tr",
                "yarn start",
                "bekle, burada geliştirme sunucusu `pnpm dev` ile açılıyor, yarn yok",
                "Tamam, pnpm dev çalıştırıyorum.",
                "pnpm dev",
                "pnpm dev",
            ),
        ],
    ),  # fmt: skip
    *map(
        _build_fix,
        [
            (
                "cmake --build build",
                'CMake Error: Could not find a package configuration file provided by "fmt"',
                "cmake --build build -DCMAKE_PREFIX_PATH=/opt/fmt",
                "CMAKE_PREFIX_PATH",
            ),
            (
                "swift build",
                "error: the package requires a minimum Swift tools version of 5.9",
                "swift build --toolchain swift-5.9",
                "--toolchain",
            ),
        ],
    ),  # fmt: skip
    *map(
        _rejected,
        [
            (
                "en",
                "Edit",
                {"file_path": "/work/project/vendor/lib/http.c"},
                "vendor/ is a pristine upstream copy - never patch it, put fixes in patches/ instead",
                "patches/",
            ),
            (
                "ru",
                "Write",
                {"file_path": "/work/project/docs/API.md"},
                "API.md генерируется из docstrings, всегда правь docstrings, а не этот файл",
                "docstrings",
            ),
            (
                "zh",
                "Edit",
                {"file_path": "/work/project/.github/workflows/ci.yml"},
                "CI 配置由平台组统一维护，永远不要在仓库里改它",
                "CI",
            ),
        ],
    ),  # fmt: skip
    *map(
        _decided,
        [
            (
                "en",
                "we'll stick with Postgres advisory locks for this, since we already have the database",
                "Good, advisory locks then.",
                "advisory locks",
            ),
            ("ru", "решено: логи пишем в JSON, потому что их разбирает Loki", "Принято, JSON-логи.", "JSON"),
            ("zh", "敲定用 Tailwind 写样式，因为设计系统是基于它的", "好的，用 Tailwind。", "Tailwind"),
            (
                "tr",
                "Kimlik doğrulama için OAuth2'de karar kılalım, çünkü kurumsal müşteriler SSO istiyor",
                "Tamam, OAuth2.",
                "OAuth2",
            ),
        ],
    ),  # fmt: skip
    *map(
        _standing,
        [
            (
                "en",
                "every time you add a migration, bump SCHEMA_VERSION in db/version.py",
                "Got it — I'll bump SCHEMA_VERSION every time I add a migration.",
                "SCHEMA_VERSION",
            ),
            (
                "ru",
                "всегда перед пушем прогоняй `make check`",
                "Понял, впредь буду всегда запускать `make check` перед пушем.",
                "make check",
            ),
            (
                "zh",
                "以后写完代码都跑一遍 `make vet`",
                "好的，以后每次写完代码我都会先跑 `make vet`。",
                "make vet",
            ),
            (
                "tr",
                "bundan sonra her sürümde CHANGELOG'u güncelle",
                "Anladım, her sürümde CHANGELOG'u güncelleyeceğim.",
                "CHANGELOG",
            ),
        ],
    ),  # fmt: skip
    *map(
        _restated,
        [
            (
                "en",
                "Deployed the new build to staging.",
                "wouldn't it be safer to tag the release before deploying?",
                "You're right — every release should be tagged before it is deployed. I'll tag it now.",
                "tagged",
            ),
            (
                "ru",
                "Способы:\n1. Поправить опечатку вручную.\n2. Всегда прогонять `make spell` перед каждым коммитом.\n\nЧто выберем?",
                "давай второй",
                "Хорошо, второй вариант: буду всегда прогонять `make spell` перед каждым коммитом.",
                "make spell",
            ),
            (
                "zh",
                "代码写完了。",
                "你有没有先跑 `make fmt`？",
                "你说得对，每次提交前都必须先跑 `make fmt`。现在补上。",
                "make fmt",
            ),
            (
                "tr",
                "Bitti. Bundan sonra her yeni modül için bir README eklememi ister misin?",
                "evet, öyle yap",
                "Tamam, bundan sonra her yeni modül için bir README ekleyeceğim.",
                "README",
            ),
        ],
    ),  # fmt: skip
]
HOLDOUT_NOISE: list[Scenario] = [
    *map(
        _restated_noise,
        [
            (
                "Options:\n1. Bump the timeout to 30s.\n2. Retry the request once.\n\nPick one?",
                "option 1",
                "Going with option 1: the timeout is 30s now.",
                "timeout",
            ),
            (
                "Want me to delete the stale branch `old-ui`?",
                "yes please",
                "Done — deleted `old-ui`.",
                "old-ui",
            ),
            ("Built it.", "did the build finish without warnings?", "Yes, no warnings.", "warnings"),
        ],
    ),  # fmt: skip
    _slip("en", "that import is unused now", "Good catch — removed the unused import.", "import"),
    _slip("ru", "ты забыл закрыть скобку", "Вы правы, закрыл скобку.", "скобк"),
    _slip("zh", "变量名拼错了", "你说得对，变量名已经改正。", "变量名"),
    _slip("tr", "fonksiyon adı yanlış yazılmış", "Haklısınız, fonksiyon adını düzelttim.", "fonksiyon"),
    _redirect_once,
    _rejected_for_now,
]


def generate_shapes(directory: Path, *, seed: int = 7, per_session: int = 3, pool: str = "dev") -> DevSet:
    """Write the shape scenarios of a pool ("dev", or "holdout": written apart, only measured) and their
    look-alikes, shuffled into sessions; the labels come back."""
    rng = random.Random(seed)
    devset = DevSet(directory)
    items = [*HOLDOUT_SCENARIOS, *HOLDOUT_NOISE] if pool == "holdout" else [*SCENARIOS, *NOISE]
    rng.shuffle(items)
    for number, start in enumerate(range(0, len(items), per_session), 1):
        writer = SessionWriter(f"{rng.getrandbits(32):08x}-shapes-{number:03d}",
                               style="new" if number % 2 else "old", rng=rng)  # fmt: skip
        writer.meta_line("permission-mode", permissionMode="default")
        _noise(devset, writer, "chat", writer.user("let's keep going on the service"))
        writer.assistant("Sure.")
        for build in items[start : start + per_session]:
            build(writer, devset)
            writer.assistant("Anything else?")
        write_session(directory, writer)
    return devset
