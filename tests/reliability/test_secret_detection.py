"""The detector on the generated corpus: every kind found in its sentence, wherever it sits; ordinary
engineering prose left alone; redaction idempotent; cut after redaction, never before."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from consolidate import secrets
from consolidate.secrets import find_secrets, has_secret, only_secret, redact, redact_clip, redact_data
from tests.reliability.secret_corpus import MAKERS, needles, plantings

KINDS = [secret.kind for secret in plantings(0)]


def test_the_corpus_has_at_least_forty_kinds() -> None:
    assert len(set(KINDS)) == len(MAKERS) >= 40


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("index", range(len(MAKERS)), ids=KINDS)
def test_every_kind_is_redacted_in_its_sentence(index: int, seed: int) -> None:
    secret = plantings(seed)[index]
    for text in (secret.sentence, f"- **When deploying:** {secret.sentence}.", f'"{secret.sentence}"'):
        clean = redact(text)
        assert not [piece for piece in needles(secret) if piece in clean], clean
        assert "[REDACTED:" in clean and has_secret(text)
        assert redact(clean) == clean  # idempotent: the markers are not secrets themselves


@pytest.mark.parametrize(
    "text",
    [
        "the password is required for login",
        "password reset flow is broken since the upgrade",
        "the password was changed by the admin",
        "Use `make test` to run the suite; see consolidate/dream/additions.py",
        "commit 3e0c083545b3eb0c65cd8934b4f64a678f2af398 fixed the cache",
        "session 0b9f6c2e-3f1a-4d2b-9c8e-1a2b3c4d5e6f ended",
        "handleUserAuthentication2Callback is the entry point",
        "max_tokens: 4096 keeps the token budget small",
        "The auth middleware reads AUTH_TOKEN from the environment",
        "api_key = os.environ['API_KEY']",
        "password: ${DB_PASSWORD}",
        "token: <your token>",
        "snapshot sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "test_dream_redacts_secrets_in_memory_without_showing_them",
        "SSH_KEY=~/.ssh/id_ed25519 is read by the deploy script",
        "see https://example.com/g/4f715591ca9137bf5842a5dee418848c for the report",
        "password: must be at least twelve characters",
        "ssh://git@github.com/org/repo.git is the remote",
        "docker run -u 1000:1000 app",
        "the dream ran in /tmp/tmp6ag64yx8/w/project/CLAUDE.md",
        "TMPDIR is /var/folders/3l/7jv0xhxs4sq0dsk4wbkj0c9w0000gn/T/tmpq8x2k1m9/acme-api",
        '{"op": "redact_secrets", "file": "/home/dev/run 1/tmp6ag64yx8/acme-api/CLAUDE.md"}',
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert find_secrets(text) == [], redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "the webhook posts to /api/v1/Zk3Lp9Qx7Wv2Rt5Mn8Bc4Df6Gh1 on the host",
        "export it as wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY before terraform apply",
    ],
)
def test_a_token_is_found_inside_a_path_and_with_slashes(text: str) -> None:
    """Temporary directories are not tokens, but a token stored as a part of a path still is, and a
    base64 token with slashes is not a path."""
    assert has_secret(text), text


@pytest.mark.parametrize(
    ("text", "only"),
    [
        ("DB_PASS=hunter2hunter2", True),
        ("the staging password is Qz7-Lp2vRt9x", True),
        ("remember ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", True),
        ("When connecting to staging, export DB_PASS=Qz7-Lp2vRt9x from the vault first", False),
        ("Run the migrations before the smoke tests", False),
    ],
)
def test_a_text_that_is_only_a_secret(text: str, only: bool) -> None:
    assert only_secret(text) is only


def test_cut_after_redacting_never_before() -> None:
    url = "x" * 190 + " postgres://deploy:Qz7Lp2vRt9xWq@db.internal/app"
    assert "Qz7Lp2" not in redact_clip(url, 200)
    assert "Qz7Lp2" in url[:215] and "@" not in url[:200]  # the naive cut loses the `@` the rule needs
    clipped = redact_clip("password=Qz7-Lp2vRt9x and then a long tail " * 3, 30)
    assert clipped.endswith("…") and "Qz7" not in clipped and not clipped.rstrip("…").endswith("[REDACTED")


def test_redact_data_walks_keys_and_values() -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    data = {"title": f"fix {token}", "list": [token, 3, None], token: "key"}
    clean = redact_data(data)
    assert token not in repr(clean) and clean["list"][1:] == [3, None]


def test_redact_data_gives_the_value_itself_when_it_holds_no_secret() -> None:
    data = {"signals": [{"quote": "use uv, not pip", "uuid": "0b6f8c1e-5d7a-4c1b-9f3e-2a8d4e6b7c90"}], "n": 2}
    assert redact_data(data) is data
    # A secret in any one string, as a value or a key, is found on its own.
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for holder in ({"a": ["x", {"b": f"y {token}"}]}, {"a": {f"k {token}": 1}}):
        clean = redact_data(holder)
        assert clean is not holder and token not in repr(clean) and "[REDACTED:" in repr(clean)


_HEX = "0123456789abcdef"


@given(
    st.lists(st.sampled_from(_HEX), min_size=32, max_size=32).map("".join),
    st.one_of(st.just(""), st.integers(0, 10**9 - 1).map(lambda n: f"#{n}")),
    st.datetimes(min_value=datetime(1000, 1, 1)),
    st.integers(0, 10**9),
    st.sampled_from([0, 3, 6, 9]),
)
def test_no_rule_finds_a_secret_in_a_record_id_or_time(
    digits: str, episode: str, when: datetime, fraction: int, places: int
) -> None:
    """The ids and times a signal carries are passed over (`_PLAIN_ID`): every rule agrees, on lower-case
    UUIDs of any hex digits (all digits, all letters), with an episode's `#n`, and on ISO times in UTC."""
    uuid = "-".join((digits[:8], digits[8:12], digits[12:16], digits[16:20], digits[20:]))
    stamp = (
        when.strftime("%Y-%m-%dT%H:%M:%S") + (f".{fraction % 10**places:0{places}d}" if places else "") + "Z"
    )
    for text in (uuid + episode, stamp):
        assert secrets._PLAIN_ID.fullmatch(text)
        assert secrets._find_by_rules(text) == []
        assert find_secrets(text) == [] and redact(text) == text


@pytest.mark.parametrize("digits", ["0" * 32, "a" * 32, "abcdef" * 5 + "ab", "0123456789" * 3 + "01"])
def test_no_rule_finds_a_secret_in_an_extreme_uuid(digits: str) -> None:
    uuid = "-".join((digits[:8], digits[8:12], digits[12:16], digits[16:20], digits[20:]))
    assert secrets._PLAIN_ID.fullmatch(uuid) and secrets._find_by_rules(uuid) == []


def test_an_id_of_another_shape_is_still_searched() -> None:
    """Upper-case or mixed hex, or a longer text around an id, goes through every rule as before."""
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    for text in ("0B6F8C1E-5D7A-4C1B-9F3E-2A8D4E6B7C90", f"{token}#1", "2025-01-01T00:00:00Z " + token):
        assert not secrets._PLAIN_ID.fullmatch(text)
    assert find_secrets(f"2025-01-01T00:00:00Z {token}")
