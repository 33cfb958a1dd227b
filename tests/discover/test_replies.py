"""The assistant's reply carried on a signal, and what it adds when learnings are assembled from the scan
state: an acknowledgement raises the moment's confidence, a lasting rule it restates words a lesson the
user's turn could not say alone, and the user's words decide what it may word."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from consolidate.discover import discover
from consolidate.discover.candidates import to_candidate
from consolidate.discover.discover import build_report
from consolidate.discover.replies import acknowledgement
from consolidate.discover.signals import REPLY_LIMIT, Signal, make_signal
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.settings import Settings, load_settings
from tests.helpers.signals import signals_in

PUSH = ("Bash", {"command": "git push --force origin main"})


def _signals(tmp_path: Path, action: tuple[str, dict[str, Any]], said: str, reply: str) -> list[Signal]:
    writer = SessionWriter("r1")
    writer.tool_call(*action, "done")
    writer.assistant("Done.")
    writer.user(said)
    writer.assistant(reply)
    write_session(tmp_path, writer)
    return signals_in(tmp_path)


def _kept(tmp_path: Path, action: tuple[str, dict[str, Any]], said: str, reply: str) -> list[str]:
    return [c.principle for c in build_report(_signals(tmp_path, action, said, reply)).candidates]


# --- what a signal carries ----------------------------------------------------------------------------
def test_a_signal_carries_the_first_sentences_of_the_reply_redacted_and_bounded(tmp_path: Path) -> None:
    token = "ghp_" + "k7" * 18
    first = "You're right — `make check` must always run before a push."
    reply = f"{first} I used the token {token} by mistake. " + "Then I re-ran the whole suite again. " * 30
    (signal,) = _signals(tmp_path, ("Bash", {"command": "git push"}), "you skipped the checks", reply)
    assert signal.reply.startswith(first)
    assert token not in signal.reply and "[REDACTED" in signal.reply
    assert len(signal.reply) <= REPLY_LIMIT and signal.reply.endswith(".")  # whole sentences only


def test_only_the_first_paragraph_of_the_reply_is_kept() -> None:
    signal = make_signal(
        "correction",
        "Use pnpm",
        quote="use pnpm",
        reply="Understood — pnpm it is.\n\nHere is the full log: …",
    )
    assert signal.reply == "Understood — pnpm it is."


def test_a_cached_signal_with_a_damaged_reply_reads_as_no_reply() -> None:
    signal = Signal.from_dict({"kind": "correction", "principle": "Use pnpm", "reply": ["not", "text"]})
    assert signal.reply == ""
    assert Signal.from_dict({"kind": "correction", "principle": "Use pnpm"}).reply == ""  # an older cache


@pytest.fixture
def settings(tmp_path: Path, claude_home: Path) -> Settings:
    project = tmp_path / "project"
    project.mkdir()
    return load_settings(project, home=claude_home)


def test_a_scan_state_of_the_previous_format_is_read_again_not_trusted(settings: Settings) -> None:
    directory = settings.layout.transcripts_dir
    writer = SessionWriter("old", start=datetime(2026, 11, 1, tzinfo=UTC))
    writer.tool_call("Bash", {"command": "npm ci"}, "ok")
    writer.user("no, use pnpm instead of npm")
    writer.assistant("You're right — pnpm it is.")
    write_session(directory, writer)
    since = datetime(2026, 1, 1, tzinfo=UTC)
    discover(settings, since=since)
    state_path = settings.run_dir("scan") / "state.json"
    state = json.loads(state_path.read_text())
    for entry in state["files"].values():  # as the previous version wrote it: signals without the reply
        entry["data"]["version"] = "5:" + entry["data"]["version"].split(":", 1)[1]
    state_path.write_text(json.dumps(state))
    again = discover(settings, since=since)
    assert again.stats.get("files_unchanged", 0) == 0 and again.stats["lines"] > 0
    assert [c.principle for c in again.candidates] == ["Use pnpm instead of npm"]
    (signals_file,) = settings.run_dir("scan").glob("signals-*.jsonl")
    cached = json.loads(signals_file.read_text().splitlines()[0])
    (correction,) = [s for s in cached if s["kind"] == "correction"]
    assert correction["reply"] == "You're right — pnpm it is."


# --- an acknowledgement raises the moment's score ----------------------------------------------------
@pytest.mark.parametrize(
    ("reply", "strength"),
    [
        ("You're right — pnpm everywhere.", 2),
        ("Good catch, thanks.", 2),
        ("My mistake, switching.", 2),
        ("Sorry about that.", 2),
        ("Вы правы, переключаюсь.", 2),
        ("你说得对，我改一下。", 2),
        ("Haklısınız, düzeltiyorum.", 2),
        ("Understood. Switching now.", 1),
        ("Running it now.", 0),
    ],
)
def test_the_opening_of_the_reply_is_read_in_our_four_languages(reply: str, strength: int) -> None:
    assert acknowledgement(make_signal("correction", "Use pnpm", quote="q", reply=reply)) == strength


def test_a_conceding_reply_raises_the_confidence_of_the_moment() -> None:
    def confidence(reply: str) -> float:
        signal = make_signal("correction", "Always use pnpm instead of npm", quote="q", reply=reply)
        return to_candidate(signal).confidence

    assert confidence("You're right — pnpm it is.") > confidence("Understood.") > confidence("")
    assert confidence("Running it now.") == confidence("")


# --- the reply words what the user's words could not say alone ----------------------------------------
def test_that_in_the_users_turn_is_named_by_the_rule_the_reply_restates(tmp_path: Path) -> None:
    said = _kept(
        tmp_path, PUSH, "don't do that again", "You're right — I should never force-push to main. Sorry."
    )
    assert said == ["Never force-push to main."]


def test_the_turkish_that_is_named_too(tmp_path: Path) -> None:
    assert _kept(
        tmp_path, PUSH, "bunu bir daha yapma", "Haklısınız, main dalına asla force push yapılmamalı."
    ) == ["Main dalına asla force push yapılmamalı."]


def test_a_pronoun_the_stopped_call_cannot_name_is_named_by_the_reply(tmp_path: Path) -> None:
    said = _kept(
        tmp_path,
        ("Bash", {"command": "gh pr create --fill"}),
        "don't merge it until the CI is green",
        "Good catch — a pull request is never merged until the CI is green.",
    )
    assert said == ["A pull request is never merged until the CI is green."]


def test_a_pronoun_the_stopped_call_names_keeps_the_users_words(tmp_path: Path) -> None:
    said = _kept(
        tmp_path,
        ("Bash", {"command": "npm publish"}),
        "don't publish it before the changelog is updated",
        "Good catch — a release is never published before `CHANGELOG.md` is updated.",
    )
    assert said == ["Don't run `npm publish` before the changelog is updated"]


def test_a_correction_said_for_this_time_takes_the_lasting_rule_the_reply_restates(tmp_path: Path) -> None:
    said = _kept(
        tmp_path,
        ("Edit", {"file_path": "/p/CHANGELOG.md"}),
        "no, put the changelog entry in the same commit as the fix",
        "You're right — every fix always carries its changelog entry in the same commit. Amending now.",
    )
    assert said == ["Every fix always carries its changelog entry in the same commit."]


def test_an_english_word_ending_like_a_turkish_ban_is_no_negation(tmp_path: Path) -> None:
    said = _kept(
        tmp_path,
        ("Edit", {"file_path": "/p/tests/test_io.py"}),
        "no, keep the same name",
        "You're right — a test module always keeps the same name as the module it tests.",
    )
    assert said == ["A test module always keeps the same name as the module it tests."]


def test_a_lasting_rule_about_something_else_does_not_word_the_correction(tmp_path: Path) -> None:
    said = _kept(
        tmp_path,
        ("Edit", {"file_path": "/p/CHANGELOG.md"}),
        "no, put the changelog entry in the same commit as the fix",
        "You're right — releases are always tagged from main.",
    )
    assert said == []


# --- look-alikes: the reply words nothing the user did not ask for -----------------------------------
@pytest.mark.parametrize(
    ("action", "said", "reply"),
    [
        # an acknowledgement followed by a one-off fix, or by the assistant's own next step
        (PUSH, "don't do that", "You're right — I'll revert that push now."),
        (PUSH, "don't do that again", "My mistake — I'll now restore main from the reflog."),
        (("Edit", {"file_path": "/p/README.md"}), "that typo again", "Good catch — fixed the typo in the README."),
        # a sycophantic "You're right" to a question about how a thing is
        (("Edit", {"file_path": "/p/src/a.py"}), "does the cache get cleared on deploy?",
         "You're right — the cache is always cleared on deploy."),
        (("Edit", {"file_path": "/p/src/a.py"}), "is the staging db always reset at night?",
         "You're right — the staging database is always reset every night."),
        # a reply restating a rule the user rejected
        (("Bash", {"command": "make lint"}), "no need to lint before every commit",
         "Understood — always run the linter before every commit."),
        (("Bash", {"command": "git merge --squash feat"}), "no, don't squash it",
         "You're right — always squash feature branches before merging."),
        # a reply whose rule is about something the user never spoke of
        (PUSH, "don't do that again", "You're right — the changelog should always be updated first."),
    ],
)  # fmt: skip
def test_the_reply_words_no_rule_the_user_did_not_ask_for(
    tmp_path: Path, action: tuple[str, dict[str, Any]], said: str, reply: str
) -> None:
    assert _kept(tmp_path, action, said, reply) == []
