"""Phrasings for the labeled dev set: planted signals in four languages, and look-alike noise.

Two pools per kind: "dev" (used while tuning the detectors) and "holdout" (written separately and only
measured), so the numbers show how the rules fare on wording they were not tuned on. Each planted
item carries a key: a word the principle must keep for the lesson to count as found.
"""

from __future__ import annotations

# fmt: off
# (language, tool, input, user text, key, expected layer or "")
CORRECTIONS = {
    'dev': [
        ('en', 'Bash', {'command': 'npm install lodash'}, 'no, use pnpm instead of npm in this repo', 'pnpm', ''),
        ('en', 'Bash', {'command': 'pytest tests/'}, 'No — always run the tests with `make test`, not pytest directly.', 'make test', ''),
        ('en', 'Edit', {'file_path': '/work/project/src/config.py'}, 'wrong file. Settings live in `settings.toml`; never hardcode them in config.py', 'settings.toml', ''),
        ('en', 'Bash', {'command': 'git push --force'}, "don't force-push, ever. Use --force-with-lease on feature branches instead.", 'force-with-lease', ''),
        ('ru', 'Bash', {'command': 'docker compose up'}, 'нет, не надо запускать docker compose, используй `make dev` вместо него', 'make dev', ''),
        ('ru', 'Bash', {'command': 'black .'}, 'неправильно. Форматируем всегда через ruff format, а не black', 'ruff format', ''),
        ('ru', 'Edit', {'file_path': '/work/project/migrations/0007_users.py'}, 'я же говорил: никогда не редактируй старые миграции, всегда создавай новую', 'миграции', ''),
        ('zh', 'Bash', {'command': 'npm run build'}, '不对，应该用 `pnpm build` 而不是 npm run build', 'pnpm', ''),
        ('zh', 'Bash', {'command': 'pip install requests'}, '不要用 pip 安装依赖，总是用 poetry add', 'poetry add', ''),
        ('zh', 'Write', {'file_path': '/work/project/README.md'}, '错了，设计文档应该写在 docs/ 目录下，而不是 README', 'docs/', ''),
        ('tr', 'Bash', {'command': 'yarn test'}, 'hayır, yarn yerine her zaman npm test kullan', 'npm test', ''),
        ('tr', 'Bash', {'command': 'go build ./...'}, 'yanlış, derlemeyi her zaman make build ile yap, go build kullanma', 'make build', ''),
        ('tr', 'Edit', {'file_path': '/work/project/main.go'}, 'bunu yapma: log için her zaman slog kullan, fmt.Println yerine', 'slog', ''),
        ('en', 'Read', {'file_path': '/work/project/notes.md'}, 'No, always answer me in Russian, not English.', 'Russian', 'L0'),
        # written later, in other words, for kinds the first pools missed (tuned on since: dev data now)
        ('zh', 'Bash', {'command': 'python -m http.server'}, '不是这样的，本地预览统一跑 `make serve`，别直接起 http.server', 'make serve', ''),
        ('tr', 'Bash', {'command': 'git commit -m fix'}, 'önce `make lint` çalıştır, sonra commit et; her commit öncesi bu sırayla', 'make lint', ''),
    ],
    'holdout': [
        ('en', 'Bash', {'command': 'python setup.py test'}, "nope, that's deprecated here - use `tox -e py311` rather than setup.py test", 'tox', ''),
        ('en', 'Edit', {'file_path': '/work/project/api/views.py'}, "That's not what I asked. Never put business logic in views; it belongs in services/.", 'services', ''),
        ('en', 'Bash', {'command': 'kubectl apply -f deploy.yaml'}, 'stop using kubectl apply directly, we always deploy through `helm upgrade`', 'helm upgrade', ''),
        ('ru', 'Bash', {'command': 'npm test'}, 'не так, тесты фронта всегда гоняем через `pnpm vitest`, а не npm test', 'vitest', ''),
        ('ru', 'Write', {'file_path': '/work/project/.env'}, 'не надо писать секреты в .env, всегда клади их в vault', 'vault', ''),
        ('zh', 'Bash', {'command': 'go test ./...'}, '我说过了，集成测试要用 `make itest` 来跑，而不是 go test', 'make itest', ''),
        ('zh', 'Edit', {'file_path': '/work/project/app.js'}, '别用 var，总是用 const 或 let', 'const', ''),
        ('tr', 'Bash', {'command': 'mvn package'}, 'öyle değil, paketlemeyi her zaman ./gradlew build ile yapıyoruz, mvn kullanma', 'gradlew', ''),
        ('tr', 'Bash', {'command': 'pip install flask'}, 'hayır, bağımlılıkları asla global kurma; her zaman uv add kullan', 'uv add', ''),
        ('ru', 'Read', {'file_path': '/work/project/todo.md'}, 'нет, отвечай мне всегда по-русски, а не по-английски', 'русски', 'L0'),
    ],
}

# (language, user text, key, expected layer)
REMEMBERS = {
    'dev': [
        ('en', 'remember that the staging DB is read-only, so run migrations against the local DB only', 'staging', ''),
        ('en', 'please remember to regenerate the API client with `make client` after changing openapi.yaml', 'make client', ''),
        ('en', 'from now on, always answer in Russian', 'Russian', 'L0'),
        ('ru', 'запомни: деплой только через `make deploy`, вручную ничего не копируем', 'make deploy', ''),
        ('ru', 'запомни, что отвечать мне нужно всегда на русском', 'русском', 'L0'),
        ('zh', '记住：这个项目的日志一律用 structlog', 'structlog', ''),
        ('zh', '以后都用中文回答我', '中文', 'L0'),
        ('tr', 'test veritabanı her gece sıfırlanıyor, bunu unutma', 'sıfırlan', ''),
        ('tr', 'bundan sonra commit mesajlarını İngilizce yaz', 'İngilizce', 'L1'),
    ],
    'holdout': [
        ('en', 'Keep in mind that the CI runners use Python 3.10, so avoid match statements.', '3.10', ''),
        ('en', "don't forget that the search index must be rebuilt with `make reindex` after schema changes", 'reindex', ''),
        ('ru', 'имей в виду: в проде часовой пояс UTC, все даты храним в UTC', 'UTC', ''),
        ('ru', 'впредь запускай линтер перед каждым коммитом', 'линтер', ''),
        ('zh', '请记住，发布前必须先更新 CHANGELOG.md', 'CHANGELOG', ''),
        ('tr', 'aklında tut: API anahtarları sadece ortam değişkenlerinden okunur', 'ortam', ''),
    ],
}

# (language, user text, key)
DECISIONS = {
    'dev': [
        ('en', "let's use SQLite for the queue because it needs no server and survives restarts", 'SQLite'),
        ('en', 'We decided to keep the config in TOML since the team already knows it.', 'TOML'),
        ('ru', 'давай использовать Redis для кэша, потому что он уже есть в инфраструктуре', 'Redis'),
        ('zh', '我们决定用 PostgreSQL，因为需要事务支持', 'PostgreSQL'),
        ('tr', 'kuyruk için RabbitMQ kullanalım çünkü ekip onu zaten biliyor', 'RabbitMQ'),
        ('en', 'For the record: we decided on Alembic for the migrations, because Django is not part of this stack.', 'Alembic'),
        ('en', 'We went with UTC timestamps everywhere because the reports compare regions.', 'UTC'),
    ],
    'holdout': [
        ('en', "Let's go with FastAPI rather than Flask, since we need async handlers.", 'FastAPI'),
        ('ru', 'мы решили хранить файлы в S3, так как локальный диск не переживает редеплой', 'S3'),
        ('zh', '决定采用 gRPC，因为服务之间需要强类型接口', 'gRPC'),
        ('tr', "Önbellek için Memcached'e geçelim, çünkü Redis lisansı sorun çıkarıyor", 'Memcached'),
    ],
}

# (language, tool, input, reason or "" for a bare stop, typed follow-up for a bare stop, key)
REJECTIONS = {
    'dev': [
        ('en', 'Bash', {'command': 'rm -rf build/'}, 'never delete build/ by hand, run `make clean` instead', '', 'make clean'),
        ('en', 'Edit', {'file_path': '/work/project/package.json'}, "don't bump dependencies without asking me first", '', 'dependencies'),
        ('ru', 'Bash', {'command': 'git commit -am wip'}, 'не коммить без прогона тестов, всегда сначала `make test`', '', 'make test'),
        ('zh', 'Bash', {'command': 'curl http://prod-api.internal/v1/users'}, '不要直接调用生产环境的接口，用 staging 而不是 prod', '', 'staging'),
        ('tr', 'Bash', {'command': 'sudo apt install jq'}, 'sistem paketlerini asla apt ile kurma, her zaman nix kullan', '', 'nix'),
        ('en', 'Bash', {'command': 'npm run e2e'}, '', 'no, never run the e2e suite locally, it needs the VPN; use `make test-unit` instead', 'test-unit'),
        ('en', 'Edit', {'file_path': '/work/project/src/api/routes.py'}, 'route handlers stay thin: SQL belongs in repository.py, never in the route', '', 'repository.py'),
        ('en', 'Edit', {'file_path': '/work/project/src/billing/invoice.py'}, 'keep money as integer cents like the rest of billing; floats round badly', '', 'cents'),
    ],
    'holdout': [
        ('en', 'Write', {'file_path': '/work/project/src/generated/client.py'}, 'generated files are never edited by hand - change the template in codegen/ instead', '', 'codegen'),
        ('ru', 'Bash', {'command': 'terraform apply'}, '', 'никогда не запускай terraform apply сам, только через CI пайплайн', 'CI'),
        ('zh', 'Bash', {'command': 'git rebase -i main'}, '共享分支上不要 rebase，总是用 merge', '', 'merge'),
        ('tr', 'Edit', {'file_path': '/work/project/schema.sql'}, 'şemayı asla elle değiştirme, her zaman migration dosyası ekle', '', 'migration'),
    ],
}

# (failed command, error output, fixed command, key)
ERROR_FIXES = {
    'dev': [
        ('pytest -k smoke --no-cov', 'ERROR: usage: pytest [options] [file_or_dir]\npytest: error: unrecognized arguments: --no-cov', 'pytest -k smoke', '--no-cov'),
        ('npm run lint:fix', 'npm ERR! Missing script: "lint:fix"\nnpm ERR! Did you mean "lint"?', 'npm run lint -- --fix', 'lint'),
        ('docker-compose up -d', 'bash: docker-compose: command not found', 'docker compose up -d', 'docker compose'),
        ('python manage.py migrate', "python: can't open file 'manage.py': [Errno 2] No such file or directory", 'python src/manage.py migrate', 'src/manage.py'),
        ('make tests', "make: *** No rule to make target 'tests'.  Stop.", 'make test', 'test'),
        ('cargo build --release', "error[E0554]: `#![feature]` may not be used on the stable release channel\n --> src/lib.rs:1:1", 'cargo +nightly build --release', '+nightly'),
        ('gcc src/main.c -o app', "/usr/bin/ld: /tmp/cc1.o: in function `main':\nmain.c:(.text+0x2a): undefined reference to `pthread_create'\ncollect2: error: ld returned 1 exit status", 'gcc src/main.c -o app -lpthread', '-lpthread'),
    ],
    'holdout': [
        ('cargo test --feature full', "error: unexpected argument '--feature' found\n  tip: a similar argument exists: '--features'", 'cargo test --features full', '--features'),
        ('git switch -c feature/login origin/main --track', 'fatal: invalid reference: origin/main --track', 'git switch -c feature/login --track origin/main', '--track'),
        ('node scripts/seed.js', "Error: Cannot find module '/work/project/scripts/seed.js'", 'node tools/seed.js', 'tools/seed.js'),
    ],
}

# (language, assistant text with markers, key)
MARKERS = {
    'dev': [
        ('en', 'Fixed the fixture.\n\n📝 Learned: the payments sandbox rejects amounts under $1 — use 100 cents in fixtures.\n<!-- learning: The payments sandbox rejects amounts under $1, so fixtures must use at least 100 cents; smaller amounts fail with a generic 402. -->', 'sandbox'),
        ('en', 'Found it.\n<!-- learning:\nRedis pool exhausted under load because each request opened its own client.\nFix: one shared pool. Symptom was intermittent timeouts at ~200 rps.\n-->', 'Redis'),
        ('en', '#lesson\ntool: Bash\ntrigger: running alembic\nmistake: ran alembic upgrade without the env file\nlesson: Run alembic through `make migrate` so ALEMBIC_CONFIG is set\n#/lesson', 'make migrate'),
        ('ru', 'Готово.\n📝 Усвоено: сборка фронтенда требует Node 20 — на Node 18 падает vite.\n<!-- learning: Сборка фронтенда требует Node 20, на Node 18 vite падает с ошибкой импорта. -->', 'Node 20'),
        ('zh', '已修复。\n📝 学到：CI 中的缓存键必须包含 lockfile 的哈希，否则会用到过期依赖。', 'lockfile'),
        ('tr', 'Tamam.\n📝 Öğrenildi: 7 günlük JWT yenileme seçildi — uzun oturumlar istiyoruz; kullanıcı haftada bir giriş yapıyor.\n<!-- learning: 7 günlük JWT yenileme seçildi çünkü uzun oturumlar istiyoruz; kullanıcı yaklaşık haftada bir giriş yapıyor. -->', 'JWT'),
    ],
    'holdout': [
        ('en', 'Done. <!-- learning: The S3 client must be created per region; a shared client silently signs for us-east-1 and gets 403s elsewhere. -->', 'region'),
        ('ru', '<!-- learning: Тесты с Postgres нужно запускать с TZ=UTC, иначе сравнение дат падает на CI. -->\n📝 Урок: тесты с Postgres запускать с TZ=UTC.', 'TZ=UTC'),
        ('zh', '<!-- learning: 前端构建产物必须放在 dist/ 下，因为 nginx 配置只服务这个目录。 -->', 'dist/'),
        ('tr', '#lesson\nKubernetes probe zaman aşımı en az 5 saniye olmalı, çünkü soğuk başlangıç 3 saniye sürüyor.\n#/lesson', 'probe'),
    ],
}

# The same lesson in other sessions, differently worded: it must come out as one candidate, frequency >= 2.
REPEATS = {
    'dev': ('en', 'Bash', {'command': 'npm ci'}, ['we use pnpm here, not npm', 'pnpm, not npm — please always use pnpm'], 'pnpm'),
    'holdout': ('ru', 'Bash', {'command': 'black src/'}, ['опять black? всегда ruff format, а не black', 'я же говорил: ruff format вместо black'], 'ruff'),
}

# User text that looks like a signal and is not one: (language, text).
NOISE_TEXTS = [
    ('en', 'hi! can you take a look at the failing build?'),
    ('en', "what's the status of the migration?"),
    ('en', 'thanks, that looks good'),
    ('en', 'no problem, take your time'),
    ('en', 'No worries, it was my typo.'),
    ('en', "what's wrong with this function?"),
    ('en', 'something went wrong with the deploy yesterday, can you check the logs?'),
    ('en', 'Here is the failing test:\n```python\nassert result != "wrong"\n# don\'t use this anymore\n```\nwhat do you make of it?'),
    ('en', 'do you remember which file had the retry logic?'),
    ('en', 'remind me what the `sync` command does'),
    ('en', 'rename utils.py to helpers.py'),
    ('en', "no, that's fine, go ahead"),
    ('en', 'should we use Postgres or SQLite for this?'),
    ('en', 'for now, skip the lint step'),
    ('en', 'always write tests'),
    ('en', 'be careful'),
    ('en', 'ok, commit it'),
    ('ru', 'привет! посмотри, пожалуйста, почему падает сборка'),
    ('ru', 'как дела с тестами?'),
    ('ru', 'спасибо, нет проблем'),
    ('ru', 'ничего страшного, это моя опечатка'),
    ('ru', 'помнишь, где лежал конфиг?'),
    ('zh', '你好，帮我看看这个报错'),
    ('zh', '进展如何？'),
    ('zh', '没问题，谢谢'),
    ('zh', '不错，继续'),
    ('tr', 'merhaba, derleme neden kırılıyor bakar mısın?'),
    ('tr', 'durum ne?'),
    ('tr', 'sorun yok, teşekkürler'),
    ('tr', 'bir şey yanlış mı gitti?'),
]
# Holdout noise: other look-alikes, measured only.
HOLDOUT_NOISE_TEXTS = [
    ('en', 'nothing wrong here, carry on'),
    ('en', 'no rush, finish the refactor first'),
    ('en', 'I remember we had a flag for that, can you find it?'),
    ('en', 'can you check whether the `--dry-run` flag is wrong in the docs?'),
    ('ru', 'нет, спасибо, этого достаточно'),
    ('zh', '没关系，我们明天再看'),
    ('tr', 'önemli değil, devam et'),
]
# fmt: on
