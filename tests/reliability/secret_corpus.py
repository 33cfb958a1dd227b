"""A generated secret corpus: every kind of secret the redaction layer knows, planted in every channel a
session, a command or a capture can carry text through. Nothing in it is real: each value is drawn from a
seeded random generator in the provider's published shape.

`plantings(seed)` gives one `Secret` per kind; `needles(secret)` are the strings whose presence anywhere
on disk means the secret (or a piece of it long enough to matter) leaked.
"""

from __future__ import annotations

import base64
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = B62 + "+/"
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


@dataclass(frozen=True)
class Secret:
    kind: str
    text: str  # the secret as it appears in a sentence (may span lines)
    cores: tuple[str, ...]  # the random parts: any 8-character piece of one on disk is a leak
    sentence: str  # a plausible line saying it


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        # what a real token looks like: both cases and digits where the alphabet has them
        if alphabet is HEX and (value.isdigit() or value.isalpha()):
            continue
        if alphabet in (B62, B64) and not (
            any(c.isupper() for c in value)
            and any(c.islower() for c in value)
            and any(c.isdigit() for c in value)
        ):
            continue
        return value


def _password(rng: random.Random) -> str:
    return _pick(rng, B62, 6) + rng.choice("-!%") + _pick(rng, B62, 5)


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(SYLLABLES) + rng.choice(SYLLABLES) + rng.choice(SYLLABLES) for _ in range(n))


Maker = Callable[[random.Random], Secret]


def _prefixed(kind: str, prefix: str, alphabet: str, n: int, say: str) -> Maker:
    def make(rng: random.Random) -> Secret:
        core = _pick(rng, alphabet, n)
        token = prefix + core
        return Secret(kind, token, (core,), say.format(token))

    return make


def _make_wrapped(rng: random.Random) -> Secret:
    core = _pick(rng, B62, 36)
    return Secret(
        "github-token-wrapped",
        f"ghp_{core[:20]}\n{core[20:]}",
        (core[:20], core[20:]),
        f"the CI token is ghp_{core[:20]}\n{core[20:]} for now",
    )


def _make_pem(rng: random.Random) -> Secret:
    body = "\n".join(_pick(rng, B64, 64) for _ in range(3))
    pem = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    return Secret("private-key", pem, tuple(body.split("\n")), f"the deploy key is\n{pem}\nkeep it")


def _make_jwt(rng: random.Random) -> Secret:
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = "eyJ" + _pick(rng, B62, 40)
    sig = _pick(rng, B62, 43)
    token = f"{head}.{body}.{sig}"
    return Secret("jwt", token, (body[3:], sig), f"the session JWT {token} expires hourly")


def _make_basic(rng: random.Random) -> Secret:
    user, password = _pick(rng, string.ascii_lowercase, 6), _password(rng)
    encoded = base64.b64encode(f"{user}:{password}".encode()).decode()
    return Secret(
        "basic-auth", encoded, (encoded,), f"send `Authorization: Basic {encoded}` to the staging API"
    )


def _make_url(kind: str, user: str, at_inside: bool) -> Maker:
    def make(rng: random.Random) -> Secret:
        password = _pick(rng, B62, 5) + ("@" if at_inside else "") + _pick(rng, B62, 8)
        url = f"postgres://{user}:{password}@db2.internal:5432/app"
        if kind == "redis-url":
            url = f"redis://:{password}@cache.internal:6379"
        cores = tuple(part for part in password.split("@") if len(part) >= 5)
        return Secret(kind, password, cores, f"connect with {url} when migrating")

    return make


def _make_assignment(kind: str, template: str, value: Callable[[random.Random], str]) -> Maker:
    def make(rng: random.Random) -> Secret:
        secret = value(rng)
        cores = tuple(part for part in secret.replace(";", " ").replace("-", " ").split() if len(part) >= 5)
        return Secret(kind, secret, cores or (secret,), template.format(secret))

    return make


def _make_passphrase(rng: random.Random) -> Secret:
    phrase = _words(rng, 4)
    words = phrase.split()
    pairs = tuple(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))
    return Secret("passphrase", phrase, pairs, f"vault password: {phrase}")


def _make_azure(rng: random.Random) -> Secret:
    key = _pick(rng, B64, 86) + "=="
    return Secret(
        "azure-storage-key",
        key,
        (key.rstrip("="),),
        f"DefaultEndpointsProtocol=https;AccountName=stor1;AccountKey={key};EndpointSuffix=core.windows.net",
    )


def _make_heroku(rng: random.Random) -> Secret:
    value = "-".join(_pick(rng, HEX, n) for n in (8, 4, 4, 4, 12))
    return Secret(
        "heroku-api-key", value, (value.replace("-", "")[:16], value[-12:]), f"heroku api key {value}"
    )


def _make_slack_webhook(rng: random.Random) -> Secret:
    path = f"T{_pick(rng, B62.upper()[26:] + string.digits, 8)}/B{_pick(rng, string.ascii_uppercase + string.digits, 8)}/{_pick(rng, B62, 24)}"
    url = f"https://hooks.slack.com/services/{path}"
    return Secret("slack-webhook", url, (path.split("/")[-1],), f"alerts go to {url}")


def _make_discord(rng: random.Random) -> Secret:
    token = _pick(rng, B62, 60)
    url = f"https://discord.com/api/webhooks/{rng.randrange(10**17, 10**18)}/{token}"
    return Secret("discord-webhook", url, (token,), f"post release notes to {url}")


def _make_aws_secret(rng: random.Random) -> Secret:
    key = _pick(rng, B64, 40)
    return Secret("aws-secret-key-unlabeled", key, (key,), f"export it as {key} before terraform apply")


def _make_hex(rng: random.Random) -> Secret:
    value = _pick(rng, HEX, 32)
    return Secret("hex-token", value, (value,), f"the webhook needs {value} in the header")


def _make_blob(rng: random.Random) -> Secret:
    blob = base64.b64encode(rng.randbytes(48)).decode()
    while not (
        any(c.isupper() for c in blob) and any(c.islower() for c in blob) and any(c.isdigit() for c in blob)
    ):
        blob = base64.b64encode(rng.randbytes(48)).decode()
    return Secret("base64-blob", blob, (blob.rstrip("="),), f"the license blob is {blob}")


def _make_telegram(rng: random.Random) -> Secret:
    token = f"{rng.randrange(10**8, 10**9)}:AA{_pick(rng, B62, 33)}"
    return Secret("telegram-bot-token", token, (token.split(":AA")[1],), f"the bot token {token}")


def _make_sendgrid(rng: random.Random) -> Secret:
    a, b = _pick(rng, B62, 22), _pick(rng, B62, 43)
    return Secret("sendgrid-key", f"SG.{a}.{b}", (a, b), f"mail goes out with SG.{a}.{b}")


MAKERS: tuple[Maker, ...] = (
    _prefixed("github-token", "ghp_", B62, 36, "the CI token is {} — rotate monthly"),
    _prefixed("github-pat", "github_pat_", B62 + "_", 82, "use {} for the release workflow"),
    _make_wrapped,
    _prefixed("gitlab-token", "glpat-", B62, 20, "GitLab pushes use {}"),
    _prefixed("anthropic-key", "sk-ant-api03-", B62, 93, "the eval key is {}"),
    _prefixed("openai-key", "sk-proj-", B62, 48, "the embeddings key is {}"),
    _prefixed("aws-access-key", "AKIA", string.ascii_uppercase + string.digits, 16, "the bucket uses {}"),
    _make_aws_secret,
    _prefixed("slack-bot-token", "xoxb-", string.digits, 12, "the bot posts with {}"),
    _prefixed(
        "slack-app-token", "xapp-1-A", string.ascii_uppercase + string.digits, 24, "socket mode needs {}"
    ),
    _make_slack_webhook,
    _make_discord,
    _prefixed("google-api-key", "AIza", B62 + "_-", 35, "maps calls use {}"),
    _prefixed("stripe-key", "sk_live_", B62, 24, "charges use {}"),
    _prefixed("stripe-webhook-secret", "whsec_", B62, 32, "verify webhooks with {}"),
    _prefixed("huggingface-token", "hf_", B62, 34, "model downloads need {}"),
    _prefixed("npm-token", "npm_", B62, 36, "publishing uses {}"),
    _prefixed("pypi-token", "pypi-AgEIcHlwaS5vcmc", B62, 60, "upload with {}"),
    _make_sendgrid,
    _prefixed("twilio-key", "SK", HEX, 32, "SMS goes through {}"),
    _prefixed("mailgun-key", "key-", HEX, 32, "mailgun takes {}"),
    _make_telegram,
    _prefixed("shopify-token", "shpat_", HEX, 32, "the store admin token {}"),
    _prefixed("digitalocean-token", "dop_v1_", HEX, 64, "droplets are made with {}"),
    _prefixed("vault-token", "hvs.", B62, 24, "vault login {}"),
    _prefixed("databricks-token", "dapi", HEX, 32, "the warehouse takes {}"),
    _make_jwt,
    _make_pem,
    _prefixed("bearer-token", "", B62, 32, "send Authorization: Bearer {} with each call"),
    _make_basic,
    _make_url("url-credentials", "deploy", False),
    _make_url("url-credentials-at", "deploy", True),
    _make_url("redis-url", "", False),
    _make_assignment("env-pass", "run it with DB_PASS={} set", _password),
    _make_assignment(
        "password-semicolon",
        "the DSN has password={};Timeout=30",
        lambda r: _pick(r, B62, 5) + ";" + _pick(r, B62, 6),
    ),
    _make_assignment("password-was", "the password was {} until Monday", _password),
    _make_assignment("password-is", "the staging password is {}", _password),
    _make_passphrase,
    _make_assignment("mysql-p", "mysql -u root -p{} shop", _password),
    _make_assignment("curl-u", "curl -u admin:{} https://ci.internal/api", _password),
    _make_assignment("sshpass", "sshpass -p {} ssh deploy@web1", _password),
    _make_assignment("cli-password", "mytool login --password {} --user ci", _password),
    _make_assignment("secret-key-prose", "the secret key {} signs cookies", lambda r: _pick(r, B62, 24)),
    _make_azure,
    _make_heroku,
    _make_hex,
    _make_blob,
    _make_assignment("json-api-key", 'config has "api_key": "{}"', lambda r: _pick(r, B62, 28)),
    _make_assignment("yaml-client-secret", "client_secret: {}", lambda r: _pick(r, B62, 30)),
)


def plantings(seed: int = 0) -> list[Secret]:
    rng = random.Random(seed)
    return [make(rng) for make in MAKERS]


def needles(secret: Secret, width: int = 8) -> set[str]:
    """Every `width`-character piece of the secret's random parts (the whole part when shorter)."""
    found = set()
    for core in secret.cores:
        if len(core) <= width:
            found.add(core)
        else:
            found.update(core[i : i + width] for i in range(len(core) - width + 1))
    return found


def leaks(secrets: list[Secret], texts: dict[str, str]) -> list[tuple[str, str]]:
    """(kind, where) for every secret a piece of which occurs in one of the texts."""
    found = []
    for secret in secrets:
        pieces = needles(secret)
        for where, text in texts.items():
            if any(piece in text for piece in pieces):
                found.append((secret.kind, where))
    return found
