"""Every moment that taught a lesson is cited: the turn a "remember that" points back at, and short
turns that said the same rule again; and the last touch on a candidate's wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.discover.dedupe import merge_candidates
from consolidate.discover.detectors import detect_signals
from consolidate.discover.discover import build_report
from consolidate.discover.echoes import attach_echoes, is_echo_text
from consolidate.discover.echopool import MAX_EVIDENCE, EchoPool
from consolidate.discover.existing import contradicts, negated_terms
from consolidate.discover.report import Evidence, Learning
from consolidate.discover.rewrite import third_person
from consolidate.discover.signals import Signal, make_signal
from consolidate.discover.spelling import corrected, misspelt
from consolidate.discover.wording import finish
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.transcripts import find_transcripts, read_transcript


def _signals(tmp_path: Path, writer: SessionWriter, echoes: bool = False) -> list[Signal]:
    write_session(tmp_path, writer)
    found: list[Signal] = []
    for file in find_transcripts(tmp_path):
        found += detect_signals(read_transcript(file).active(), file, echoes=echoes)
    return found


def test_a_remember_that_cites_the_turn_it_points_back_at(tmp_path: Path) -> None:
    writer = SessionWriter("e1")
    origin = writer.user("the README needs to be clear that specs apply per package, not per crate")
    writer.assistant("Agreed — a tspec applies to a Cargo package. Want me to note it?")
    request = writer.user("yep, remember that")
    writer.assistant("Noted.")
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert [e.uuid for e in candidate.evidence] == [request, origin]
    assert "package" in candidate.evidence[1].quote


def test_a_request_that_states_its_rule_cites_only_itself(tmp_path: Path) -> None:
    writer = SessionWriter("e2")
    writer.user("what does the build script do?")
    writer.assistant("It generates the version file.")
    request = writer.user("remember that we always run `make lint` before committing")
    writer.assistant("Noted.")
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert [e.uuid for e in candidate.evidence] == [request]


def test_short_turns_repeating_a_lesson_join_it_as_evidence(tmp_path: Path) -> None:
    writer = SessionWriter("e3")
    writer.tool_call("Bash", {"command": "git commit -m fix"}, "ok")
    first = writer.user("remind me to amend the .claude sessions!")
    writer.assistant("Reminder: amend the .claude session files.")
    writer.user("unrelated: rename the parser module to reader")
    writer.assistant("Renamed.")
    writer.tool_call("Bash", {"command": "git commit -m more"}, "ok")
    rule = writer.user("you can't do it yourself, please remind me every commit")
    writer.assistant("Understood. I'll remind you to amend the .claude session files after each commit.")
    signals = _signals(tmp_path, writer, echoes=True)
    assert all(s.kind != "echo" or not s.trigger for s in signals)
    (candidate,) = build_report(signals).candidates
    assert candidate.principle == "Remind the user to amend the .claude session files after each commit."
    assert [e.uuid for e in candidate.evidence] == [rule, first]
    assert candidate.frequency == 1  # an echo cites a moment; it does not rank the lesson higher
    without = build_report([s for s in signals if s.kind != "echo"]).candidates
    assert [e.uuid for e in without[0].evidence] == [rule]


def test_an_echo_alone_is_never_a_candidate(tmp_path: Path) -> None:
    writer = SessionWriter("e4")
    writer.user("remind me to amend the .claude sessions!")
    writer.assistant("Reminder: amend the .claude session files.")
    signals = _signals(tmp_path, writer, echoes=True)
    assert [s.kind for s in signals] == ["echo"]
    assert build_report(signals).candidates == []
    assert _signals(tmp_path / "again", writer) == []  # only the scanner asks for echoes


def _candidate(principle: str, uuid: str = "u0") -> Learning:
    return Learning(
        kind="correction", principle=principle, trigger="x", evidence=[Evidence(session="s", uuid=uuid)]
    )


def test_an_echo_joins_only_a_candidate_it_repeats() -> None:
    near = _candidate("Use `pnpm` instead of `npm` for installs in this repo")
    far = _candidate("Run the linter before every commit")
    echoes = [
        make_signal("echo", "use pnpm for installs please", quote="use pnpm for installs please", uuid="e1"),
        make_signal("echo", "never use pnpm for installs here", quote="q", uuid="e2"),  # says the opposite
        make_signal("echo", "deploy the docs site tonight", quote="q", uuid="e3"),
    ]
    attach_echoes([near, far], echoes)
    assert [e.uuid for e in near.evidence] == ["u0", "e1"]
    assert [e.uuid for e in far.evidence] == ["u0"]


def test_the_pool_keeps_every_echo_a_report_can_cite_and_no_other() -> None:
    said = "remind me to amend the .claude sessions"
    rule = make_signal(
        "marker",
        "Remind the user to amend the .claude session files after each commit",
        quote="q",
        session="s0",
        uuid="r",
        trigger="committing",
    )
    turns = [make_signal("echo", said, quote=said, session=f"s{n}", uuid=f"e{n}") for n in range(20)]
    also = make_signal("echo", said, quote=said, session="s0", uuid="r")  # the rule's own turn
    twice = make_signal("echo", said, quote=said, session="s1", uuid="e1")  # read again from a copy
    secret = make_signal(
        "echo", "deploy with token ghp_" + "a1B2c3D4e5" * 4, quote="q", session="s9", uuid="k"
    )
    everything = [turns[0], turns[1], twice, rule, also, secret, *turns[2:]]
    pool = EchoPool()
    pool.add_file(everything)
    kept = [(s.session, s.uuid) for s in pool.signals]
    assert kept == [("s0", "e0"), ("s1", "e1"), ("s0", "r"), ("s0", "r")] + [
        (f"s{n}", f"e{n}") for n in range(2, MAX_EVIDENCE)
    ]
    # what the report makes of them is what it makes of all of them
    full, pooled = build_report(everything), build_report(pool.signals)
    assert [[e.uuid for e in c.evidence] for c in pooled.candidates] == [
        [e.uuid for e in c.evidence] for c in full.candidates
    ]
    assert len(full.candidates[0].evidence) == MAX_EVIDENCE


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        ("remind me to amend the .claude sessions!", True),
        ("does it make sense to you?", False),
        ("ok", False),
        ("x " * 200, False),
    ],
)
def test_what_may_be_an_echo(text: str, echo: bool) -> None:
    assert is_echo_text(text) is echo


@pytest.mark.parametrize(
    ("principle", "trigger", "wording", "then"),
    [
        (
            "You can't merge because of our circular references, it's even worse than commits",
            "merging a branch",
            "Do not merge because of our circular references",
            "merging a branch",
        ),
        (
            "You can't commit everything (i.e. you can't commit .claude/ session files).",
            "writing a commit",
            "Do not commit .claude/ session files",
            "writing a commit",
        ),
        (
            "When doing a multi-step always create a branch",
            "creating a branch",
            "Always create a branch",
            "doing a multi-step",
        ),  # fmt: skip
        (
            "Always pass `--path .`",
            "running `tspec install`",
            "Always pass `--path .` to `tspec install`",
            "running `tspec install`",
        ),  # fmt: skip
        ("Use `tspec install`, it's safer", "x", "Use `tspec install`, it's safer", "x"),
        (
            "Always pass `--path .` to `tspec install`",
            "running `tspec install`",
            "Always pass `--path .` to `tspec install`",
            "running `tspec install`",
        ),  # fmt: skip
    ],
)
def test_the_last_touch_on_the_wording(principle: str, trigger: str, wording: str, then: str) -> None:
    assert finish(principle, trigger) == (wording, then)


def test_a_typo_does_not_speak_when_a_clean_wording_says_the_same() -> None:
    clean = "Use `tspec` instead of `cargo` when possible"
    typo = "Uswd `tspec ...` cmds when possible which should be almost always"
    assert misspelt(typo, [clean]) == 1 and misspelt(clean, [typo]) == 0
    assert misspelt("Amemd the session files", ["amend the files"]) == 1
    assert misspelt("commits on a branch", ["commit on branches"]) == 0  # inflections are no typos
    (merged,) = merge_candidates([_candidate(typo, "a"), _candidate(clean, "b")])
    assert merged.principle == clean


def test_a_condition_after_a_swap_is_not_negated() -> None:
    assert negated_terms("Use `tspec` instead of `cargo` when possible") == frozenset({"cargo"})
    assert not contradicts("Use `tspec` instead of `cargo` when possible", "Use `tspec` when possible")
    assert contradicts("Use `tspec` instead of `cargo`", "Use `cargo` for builds")


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("Amemd the session files first", "Amend the session files first"),
        ("then amemd it", "then amend it"),
        ("a smart start", "a smart start"),  # one key off, but not a neighbouring key: a real word
        ("keep `amemd` as typed in code", "keep `amemd` as typed in code"),
        ("Use the tests", "Use the tests"),
        ("Uswd `make` cmds when possible", "Use `make` cmds when possible"),  # the verb a rule starts with
        ("Pysh the tag after the release", "Push the tag after the release"),
        ("Used `make` for builds", "Used `make` for builds"),  # a real form of the verb
        ("Uses the cache", "Uses the cache"),
        ("Same as before", "Same as before"),
        ("the uswd flag", "the uswd flag"),  # only the first word is the instruction's verb
    ],
)
def test_a_verb_one_key_off_is_spelt_right(typed: str, meant: str) -> None:
    assert corrected(typed) == meant


def _after_a_bare_stop(name: str, said: str, reply: str) -> SessionWriter:
    writer = SessionWriter(name)
    writer.tool_call("Bash", {"command": "make test"}, "ok")
    _, ids = writer.assistant(tools=[("Bash", {"command": "make lint"})])
    writer.reject(ids[0])
    writer.user(said)
    writer.assistant(reply)
    return writer


def test_a_rejection_said_to_hold_always_is_no_one_off(tmp_path: Path) -> None:
    rule = "after the tests pass install the new build right away"
    always = _after_a_bare_stop(
        "e5",
        f'{rule}, any reason not to "always" do that?',
        "No reason not to. I'll make that the default workflow going forward.",
    )
    (candidate,) = build_report(_signals(tmp_path, always)).candidates
    assert candidate.principle == "After the tests pass, install the new build right away"
    once = _after_a_bare_stop("e6", rule, "Installing.")
    assert build_report(_signals(tmp_path / "once", once)).candidates == []


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        (
            "Stop after each commit so I can review the change",
            "Stop after each commit so the user can review the change",
        ),
        (
            "mention it as step 0 so I don't have to ask",
            "Mention it as step 0 so the user doesn't have to ask",
        ),
        ("Remind me every commit", "Remind the user every commit"),
        ("I want the tests first", "The user wants the tests first"),
        ("I think I know", "I think I know"),  # some "I" would not read right: left as said
        ("Use `make test`", "Use `make test`"),
    ],
)
def test_the_users_i_is_the_user(said: str, rule: str) -> None:
    assert third_person(said) == rule


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("Do not defer installation, the sooner the better", {"defer"}),  # deferring, not installing
        ("never use `npm install` here", {"npm", "instal"}),
        ("Never use bare `cargo test` or `cargo fmt`", {"bare", "cargo", "test", "fmt"}),
        (
            "Never use bare `cargo test`, `cargo clippy`, or `cargo fmt`",
            {"bare", "cargo", "test", "clippy", "fmt"},
        ),
        ("never push to main", {"push"}),
        ("rather than use cargo build", {"cargo", "build"}),
    ],
)
def test_what_a_negation_reaches(text: str, negated: set[str]) -> None:
    assert set(negated_terms(text)) == negated


def test_a_rule_said_as_it_is_somewhere_is_recorded_though_another_line_names_the_other_tool() -> None:
    from consolidate.discover.matcher import Matcher

    known = Matcher.of_texts(
        {
            "CLAUDE.md": "tspec is a build wrapper that sits on top of cargo, one `tspec` per package.\n"
            "Always use `tspec` itself for development. Never use bare `cargo test` or `cargo fmt`.\n"
        }
    )
    assert known.judge("Use `tspec` instead of `cargo` when possible.").category == "RECORDED"
    only = Matcher.of_texts({"CLAUDE.md": "Use `cargo` when possible, `tspec` is only a wrapper.\n"})
    assert only.judge("Use `tspec` instead of `cargo` when possible.").category == "CONTRADICT"
    assert not contradicts("Install right after the tests pass", "Do not defer installation")


def test_the_user_is_no_content_word_two_rules_share() -> None:
    from consolidate.discover.dedupe import similar

    remind = "Remind the user to amend `.claude/*` files after each commit."
    stop = "Stop after all commit so the user can review the change, amend the .claude/ session files and do tests"
    assert not similar(remind, stop)


def test_the_pool_keeps_its_echoes_on_disk_and_reads_them_back_in_order() -> None:
    from consolidate.discover.echopool import Echo, SignalList

    items: list[Signal | Echo] = []
    for n in range(600):
        if n % 7 == 3:
            items.append(make_signal("correction", f"Use tool {n}", quote=f"q{n}", session="s", uuid=f"r{n}"))
        else:  # long enough for several chunks of the file; a lone surrogate survives the trip
            items.append(
                Echo("s", f"e{n}", f"t{n}", f"said {n} " + "x" * 900, "\ud800" if n == 5 else "q", "f")
            )
    listed = SignalList()
    listed.extend(items)
    assert not [
        v for v in vars(listed).values() if isinstance(v, list) and any(isinstance(i, Echo) for i in v)
    ]
    assert len(listed) == len(items) and list(listed) == items
    assert listed[3] is items[3] and listed[-1] == items[-1] and listed[590:] == items[590:]
    assert listed[::-50] == items[::-50]
    assert listed.full() == [i for i in items if isinstance(i, Signal)]
    assert [(a, b) for a, b in zip(listed, listed[1:], strict=False)] == list(
        zip(items, items[1:], strict=False)
    )
    listed.extend(listed[:2])  # read from itself
    assert list(listed) == [*items, *items[:2]]
    listed.close()
