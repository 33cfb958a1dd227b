"""Lessons carried by the shape of the dialogue in any of the four languages: a terse remark the reply
concedes with a lasting rule, a redirect after an interrupt that the next call follows, a promise, a
decision in other words; and look-alikes of each shape that teach nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover import discover
from consolidate.discover.acks import lasting_rule, read_reply
from consolidate.discover.detectors import detect_signals
from consolidate.discover.discover import build_report
from consolidate.discover.signals import Signal
from consolidate.evaluate.discover_score import evaluate
from consolidate.evaluate.discover_shapes import generate_shapes
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.settings import Settings, load_settings
from consolidate.transcripts import find_transcripts, read_transcript


def _kept(tmp_path: Path, writer: SessionWriter) -> list[tuple[str, str, str]]:
    write_session(tmp_path, writer)
    found: list[Signal] = []
    for file in find_transcripts(tmp_path):
        found += detect_signals(read_transcript(file).active(), file)
    return [(c.kind, c.principle, c.evidence[0].uuid) for c in build_report(found).candidates]


def test_a_question_conceded_with_a_lasting_rule_gives_the_replys_rule(tmp_path: Path) -> None:
    writer = SessionWriter("s1")
    writer.tool_call("Edit", {"file_path": "/w/Cargo.lock"}, "ok")
    anchor = writer.user("wait, did you edit Cargo.lock by hand?")
    writer.assistant(
        "My mistake — Cargo.lock must never be edited by hand, only through `cargo update`. Reverting."
    )
    assert _kept(tmp_path, writer) == [
        ("correction", "Cargo.lock must never be edited by hand, only through `cargo update`.", anchor)
    ]


@pytest.mark.parametrize(
    ("said", "reply", "rule"),
    [
        ("у нас стенд на 8443", "Вы правы — стенд всегда слушает порт 8443. Повторю.",
         "Стенд всегда слушает порт 8443."),
        ("提交说明是英文的", "你说得对，这个仓库的提交说明必须用英文写，我重新提交一次。", "这个仓库的提交说明必须用英文写"),
        ("girinti dört boşluk", "Haklısınız, bu depoda girinti her zaman dört boşluk olmalı; düzelttim.",
         "Bu depoda girinti her zaman dört boşluk olmalı"),
    ],
)  # fmt: skip
def test_the_same_in_russian_chinese_and_turkish(tmp_path: Path, said: str, reply: str, rule: str) -> None:
    writer = SessionWriter("s2")
    writer.tool_call("Bash", {"command": "make run"}, "ok")
    writer.user(said)
    writer.assistant(reply)
    assert [p for _, p, _ in _kept(tmp_path, writer)] == [rule]


@pytest.mark.parametrize(
    "reply",
    [
        "You're right — fixed the typo in test_parser.py.",  # a slip of this time
        "Good point — the loop should start at 1 here.",  # a fix of this code, nothing that lasts
        "You're right — `--exact` needs the full path, so the short name never matches. Let me fix it.",
        "Understood — fixture data must always be changed in the generator.",  # accepted, not conceded
    ],
)
def test_a_concession_with_nothing_that_lasts_is_no_signal(tmp_path: Path, reply: str) -> None:
    writer = SessionWriter("s3")
    writer.tool_call("Edit", {"file_path": "/w/src/parser.py"}, "ok")
    writer.user("hmm, look at that again")
    writer.assistant(reply)
    assert _kept(tmp_path, writer) == []


def test_lasting_rule_cuts_the_assistants_next_step() -> None:
    reply = read_reply("Good catch — generated files are never edited; I'll change the template instead.")
    assert lasting_rule(reply) == "generated files are never edited"


def test_a_redirect_after_an_interrupt_followed_by_the_named_command(tmp_path: Path) -> None:
    writer = SessionWriter("s4")
    writer.assistant("Installing.", tools=[("Bash", {"command": "pip install -e ."})])
    writer.interrupt()
    anchor = writer.user("hold on, dev deps come from `uv sync`, pip leaves the lock behind")
    writer.tool_call("Bash", {"command": "uv sync"}, "ok", text="Got it.")
    assert _kept(tmp_path, writer) == [("correction", "Use `uv sync` instead of `pip install`", anchor)]


@pytest.mark.parametrize(
    ("said", "redone"),
    [
        ("actually run `ls` first", "ls"),  # an order for this time: neither the old program nor "always"
        ("do the README first", "cat README.md"),  # the new command is not what the user named
    ],
)
def test_a_redirect_for_this_time_is_no_signal(tmp_path: Path, said: str, redone: str) -> None:
    writer = SessionWriter("s5")
    writer.assistant("Testing.", tools=[("Bash", {"command": "pytest -q"})])
    writer.interrupt()
    writer.user(said)
    writer.tool_call("Bash", {"command": redone}, "ok", text="Sure.")
    assert _kept(tmp_path, writer) == []


@pytest.mark.parametrize(
    ("reply", "committed"),
    [
        ("Понял, буду каждый раз обновлять openapi.yaml.", True),
        ("明白，以后每次改接口我都会同步更新 openapi.yaml。", True),
        ("Anladım, bundan sonra her PR öncesi `make fmt` çalıştıracağım.", True),
        ("Понял, обновлю openapi.yaml.", False),
        ("好的，我来更新 openapi.yaml。", False),
        ("Tamam, şimdi `make fmt` çalıştırıyorum.", False),
    ],
)
def test_a_promise_that_outlives_the_moment_in_any_language(reply: str, committed: bool) -> None:
    assert read_reply(reply).commitment is committed


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("I'd rather we stick to dataclasses over pydantic here, since the payloads stay in-process",
         "Stick to dataclasses over pydantic"),
        ("ok, final call: the jobs run on RQ, because Celery is too much to operate", "The jobs run on RQ"),
        ("остановимся на Kafka, потому что нужен повтор событий", "Kafka"),
        ("就这么定了：配置统一放 YAML，因为运维只看 YAML", "配置统一放 YAML"),
        ("Veritabanında SQLite'ta karar kıldık, çünkü kurulum gerektirmiyor", "SQLite"),
    ],
)  # fmt: skip
def test_a_decision_in_other_words(tmp_path: Path, said: str, key: str) -> None:
    writer = SessionWriter("s6")
    writer.assistant("Both would work; which one do you prefer?")
    writer.user(said)
    writer.assistant("Okay.")
    (found,) = _kept(tmp_path, writer)
    assert found[0] == "decision" and key in found[1]


def test_a_question_that_weighs_two_options_is_no_decision(tmp_path: Path) -> None:
    writer = SessionWriter("s7")
    writer.user("should we stick with Kafka or keep RabbitMQ for this, since both are deployed?")
    writer.assistant("Good question — both fit.")
    assert _kept(tmp_path, writer) == []


def test_the_shape_scenarios_are_found_and_their_look_alikes_are_not(
    tmp_path: Path, claude_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    settings: Settings = load_settings(project, home=claude_home)
    devset = generate_shapes(tmp_path / "shapes", seed=3)
    result = evaluate(discover(settings, transcripts_dir=tmp_path / "shapes"), devset)
    precision, recall = result.overall()
    assert precision == 1.0 and recall >= 0.9, (result.misses, result.false)
    assert not result.noise_hits


@pytest.mark.parametrize(
    ("said", "reply"),
    [
        ("к сведению: миграции нужно запускать только из контейнера `api`", "Понял."),
        ("提醒一下，部署前需要先跑 `make smoke`", "好的。"),
        ("bilgin olsun, sürüm etiketleri v harfiyle başlamalı", "Tamam."),
    ],
)
def test_a_rule_given_as_information_in_any_language(tmp_path: Path, said: str, reply: str) -> None:
    writer = SessionWriter("s8")
    writer.tool_call("Bash", {"command": "git log -1"}, "ok")
    anchor = writer.user(said)
    writer.assistant(reply)
    assert [(kind, uuid) for kind, _, uuid in _kept(tmp_path, writer)] == [("preference", anchor)]


def test_an_english_not_is_no_turkish_note(tmp_path: Path) -> None:
    writer = SessionWriter("s9")
    writer.user("not sure we need to run the linter here")
    writer.assistant("Okay.")
    assert _kept(tmp_path, writer) == []


def test_a_redirect_naming_the_old_program_in_code(tmp_path: Path) -> None:
    writer = SessionWriter("s10")
    writer.assistant("Building.", tools=[("Bash", {"command": "npm run build"})])
    writer.interrupt()
    writer.user("stop, `npm run build` is stale - `just build`")
    writer.tool_call("Bash", {"command": "just build"}, "ok", text="Okay.")
    assert [p for _, p, _ in _kept(tmp_path, writer)] == ["Use `just build` instead of `npm run build`"]


@pytest.mark.parametrize(
    "said",
    [
        "I prefer to keep going, since we are close",
        "остановимся на этом, потому что уже поздно",
        "就这么定了，因为时间不够了",
    ],
)
def test_a_decision_that_chooses_nothing_is_no_candidate(tmp_path: Path, said: str) -> None:
    writer = SessionWriter("s11")
    writer.user(said)
    writer.assistant("Okay.")
    assert _kept(tmp_path, writer) == []


@pytest.mark.parametrize(
    "reply",
    [
        "You're right — the test always failed because of the typo.",
        "Вы правы, тест всегда падал из-за опечатки.",
        "你说得对，这个测试总是失败了。",
        "Haklısınız, test her zaman başarısız oldu.",
    ],
)
def test_what_always_happened_is_no_lasting_rule(reply: str) -> None:
    assert lasting_rule(read_reply(reply)) == ""


def test_a_command_put_first_after_an_interrupt_is_no_swap(tmp_path: Path) -> None:
    writer = SessionWriter("s12")
    writer.assistant("Deploying.", tools=[("Bash", {"command": "make deploy"})])
    writer.interrupt()
    writer.user("wait, run `git status` here first")
    writer.tool_call("Bash", {"command": "git status"}, "ok", text="Sure.")
    assert _kept(tmp_path, writer) == []
