"""The user's interventions on one task are cited with the candidate that task taught (see `episodes`)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from consolidate.discover.discover import build_report
from consolidate.discover.episodes import EPISODE_KIND, Member, action_words, attach_episode_turns
from consolidate.discover.report import Evidence, Learning
from consolidate.discover.signals import Signal
from consolidate.discover.text import stems
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from tests.helpers.signals import signals_in


def _signals(tmp_path: Path, writer: SessionWriter) -> list[Signal]:
    write_session(tmp_path, writer)
    return signals_in(tmp_path, echoes=True)


def _rejected(writer: SessionWriter, command: str, reason: str = "") -> str:
    _, ids = writer.assistant(tools=[("Bash", {"command": command})])
    return writer.reject(ids[0], reason)


def test_rejections_before_the_rule_are_cited_with_it(tmp_path: Path) -> None:
    writer = SessionWriter("ep1")
    writer.user("publish the release")
    first = _rejected(writer, "git push --tags origin main", "only the tag")
    _rejected(writer, "git push origin v1.2.0")
    rule = writer.user("you can't push from here, the deploy key is read-only: never run `git push` yourself")
    writer.assistant("Understood — I won't push; you'll push the tag yourself.")
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert "git push" in candidate.principle
    assert [e.uuid for e in candidate.evidence] == [rule, first]
    assert candidate.frequency == 1  # a cited moment does not rank the lesson higher
    assert "only the tag" in candidate.evidence[1].quote


def _install_corrected(name: str, said: str, reply: str) -> tuple[SessionWriter, str, str]:
    """The rule to install right after the tests, a wrong install stopped, and what the user said then."""
    writer = SessionWriter(name)
    rule = writer.user("after the tests pass, always install the new build right away so we use it for real")
    writer.assistant("Agreed. I'll make that the default workflow going forward.")
    _rejected(writer, "pip install .")
    then = writer.user(said)
    _, ids = writer.assistant(reply, tools=[("Bash", {"command": "make install"})])
    writer.tool_result(ids[0], "installed")
    return writer, rule, then


def test_a_correction_of_how_the_rule_was_carried_out_joins_it(tmp_path: Path) -> None:
    writer, rule, how = _install_corrected("ep2", "Grr, how should you install it?", "With `make install`!")
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert candidate.principle.startswith("After the tests pass")
    assert [e.uuid for e in candidate.evidence] == [rule, how]


def test_a_rule_already_recorded_is_cited_with_the_new_one_of_its_task(tmp_path: Path) -> None:
    writer, rule, swap = _install_corrected("ep3", "use `make install`, not pip", "Right.")
    signals = _signals(tmp_path, writer)
    alone = build_report(signals).candidates
    assert len(alone) == 2  # two lessons, each its own candidate
    (candidate,) = build_report(signals, ["- Use `make install`, not pip."]).candidates
    assert candidate.principle.startswith("After the tests pass")
    assert [e.uuid for e in candidate.evidence] == [rule, swap]


def test_a_new_request_starts_a_new_task(tmp_path: Path) -> None:
    writer = SessionWriter("ep4")
    writer.user("publish the release")
    rule = writer.user("never run `git push` yourself: the deploy key is read-only")
    writer.assistant("Understood — I won't push.")
    writer.user("now tag the release")
    _rejected(writer, "git push origin v1.2.0", "not yet")
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert [e.uuid for e in candidate.evidence] == [rule]  # the later rejection is another task


def test_a_turn_of_the_task_about_something_else_is_not_cited(tmp_path: Path) -> None:
    writer = SessionWriter("ep5")
    writer.user("clean up the parser module")
    _, ids = writer.assistant(tools=[("Write", {"file_path": "/p/notes.txt", "content": "x"})])
    writer.reject(ids[0], "leave the notes alone")
    rule = writer.user("не надо запускать `npm test`, всегда используй `pnpm test`")
    writer.assistant("Понял, всегда `pnpm test`.")
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert [e.uuid for e in candidate.evidence] == [rule]


def test_interventions_in_any_language(tmp_path: Path) -> None:
    writer = SessionWriter("ep6")
    writer.user("发布这个版本")
    first = _rejected(writer, "git push origin main", "先别推送")
    rule = writer.user("以后永远不要自己运行 `git push`，我来推送")
    writer.assistant("明白了，我不会再自己推送。")
    signals = _signals(tmp_path, writer)
    assert {s.kind for s in signals} >= {EPISODE_KIND}
    (candidate,) = build_report(signals).candidates
    assert [e.uuid for e in candidate.evidence] == [rule, first]


def test_an_episode_turn_alone_is_never_a_candidate(tmp_path: Path) -> None:
    writer = SessionWriter("ep7")
    writer.user("publish the release")
    _rejected(writer, "git push origin main", "only the tag")
    signals = _signals(tmp_path, writer)
    assert EPISODE_KIND in {s.kind for s in signals}
    assert build_report(signals).candidates == []


def test_what_an_action_is_about() -> None:
    assert action_words("running `git merge --ff-only`") >= {"git", "merge"}
    assert action_words("presenting a plan") == {"plan"}
    assert action_words("") == frozenset()


def _remind_rule(writer: SessionWriter) -> str:
    writer.tool_call("Bash", {"command": "git commit -m fix"}, "ok")
    rule = writer.user("you can't do it yourself, please remind me every commit")
    writer.assistant("Understood. I'll remind you to amend the session files after each commit.")
    return rule


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (
            "commit this, and do you know what to remind me of after a commit?",
            "Committed. Amend the session files.",
        ),
        ("ты помнишь, что нужно напомнить после commit?", "Да: amend the session files after the commit."),
        ("你记得 commit 之后要提醒我什么吗？", "Amend the session files after each commit."),
        (
            "commit'ten sonra ne yapman gerekiyor, hatırlıyor musun?",
            "Amend the session files after the commit.",
        ),
    ],
)
def test_a_test_question_is_cited_by_the_rule_its_answer_says(
    tmp_path: Path, question: str, answer: str
) -> None:
    writer = SessionWriter("ex1")
    asked = writer.user(question)
    _, ids = writer.assistant(tools=[("Bash", {"command": "git commit -m docs"})])
    writer.tool_result(ids[0], "ok")
    writer.assistant(answer)
    writer.user("thanks, next: rename the parser module")
    writer.assistant("Renamed.")
    rule = _remind_rule(writer)
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert candidate.principle == "Remind the user to amend the session files after each commit."
    assert [e.uuid for e in candidate.evidence] == [rule, asked]
    assert candidate.evidence[1].quote.startswith(question[:20])  # the user's question, not the answer


def test_a_question_whose_answer_says_something_else_is_not_cited(tmp_path: Path) -> None:
    writer = SessionWriter("ex2")
    writer.user("do you know what the parser returns?")
    writer.assistant("A list of records, one per line.")
    rule = _remind_rule(writer)
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert [e.uuid for e in candidate.evidence] == [rule]


def _exchange(writer: SessionWriter, pause: timedelta) -> tuple[str, str]:
    writer.assistant("You wrote `[10][11]`; that is plain text now. Shall I keep it?")
    remark = writer.user("nope, that doesn't work, I'd like every reference to work and `[10],[11]` works")
    writer.assistant("You already fixed it. Shall I amend the commit?")
    writer.clock += pause
    writer.user("does it make sense to you?")
    writer.assistant(
        "Yes — write `[10],[11]`, not `[10][11]`, so each one is a separate markdown reference link."
    )
    request = writer.user("add that to CLAUDE.md")
    writer.assistant("Added.")
    return remark, request


def test_a_short_remark_just_before_the_exchange_that_taught_a_rule_is_cited(tmp_path: Path) -> None:
    writer = SessionWriter("ex3")
    remark, request = _exchange(writer, timedelta(0))
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert "separate markdown reference link" in candidate.principle
    assert {remark, request} <= {e.uuid for e in candidate.evidence}
    later = SessionWriter("ex4")
    remark, request = _exchange(later, timedelta(hours=1))
    (again,) = build_report(_signals(tmp_path / "later", later)).candidates
    assert request in {e.uuid for e in again.evidence}
    assert remark not in {e.uuid for e in again.evidence}  # an hour before: no part of that exchange


_WORDS = ["merge", "branch", "push", "tag", "install", "build", "test", "deploy"]


def _attached_one_by_one(candidates: list[Learning], members: list[Member], signals: list[Signal]) -> None:
    """`attach_episode_turns` as it read every candidate for every member: the reference."""
    task = {(s.session, s.uuid): s.episode for s in signals if s.episode}
    holders = []
    for candidate in candidates:
        episodes = {task[(e.session, e.uuid)] for e in candidate.evidence if (e.session, e.uuid) in task}
        if episodes:
            holders.append((candidate, episodes, frozenset(stems(candidate.principle))))
    cited = {(e.session, e.uuid) for c in candidates for e in c.evidence}
    for member in members:
        key = (member.evidence.session, member.evidence.uuid)
        if key in cited:
            continue
        for holder, tasks, said in holders:
            if member.episode in tasks and member.words & said and len(holder.evidence) < 8:
                holder.evidence.append(member.evidence)
                cited.add(key)
                break


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.lists(st.integers(0, 5), max_size=3), st.sets(st.sampled_from(_WORDS), max_size=3)), max_size=8),
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 30), st.sets(st.sampled_from(_WORDS), max_size=3)), max_size=40),
)  # fmt: skip
def test_a_member_joins_the_first_candidate_of_its_task_as_when_every_candidate_was_read(
    made: list[tuple[list[int], set[str]]], said: list[tuple[int, int, set[str]]]
) -> None:
    signals = [Signal("correction", "x", session="s", uuid=f"c{n}", episode=f"s#{n % 3}") for n in range(6)]

    def candidates() -> list[Learning]:
        return [
            Learning(
                "correction",
                principle=" ".join(sorted(words)) or "nothing",
                evidence=[Evidence("s", f"c{n}") for n in cites],
            )
            for cites, words in made
        ]

    members = [
        Member(f"s#{episode}", frozenset(stems(" ".join(sorted(words)))), Evidence("s", f"m{turn}"))
        for episode, turn, words in said
    ]
    fast, slow = candidates(), candidates()
    attach_episode_turns(fast, members, signals)
    _attached_one_by_one(slow, members, signals)
    assert [[e.uuid for e in c.evidence] for c in fast] == [[e.uuid for e in c.evidence] for c in slow]
