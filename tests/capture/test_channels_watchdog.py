from __future__ import annotations

from consolidate.capture import watchdog
from consolidate.capture.channels import Sorted, sort_markers, within_one_edit
from consolidate.transcripts.markers import find_markers
from consolidate.transcripts.records import normalize
from tests.capture.fixtures import Session

CHANNELS = {"learning": "", "profile-fact": ""}


def sort(text: str) -> Sorted:
    found = Sorted()
    sort_markers(find_markers(text), CHANNELS, {"session": "s"}, found)
    return found


def test_declared_channels_are_queued_undeclared_dropped_typos_reported() -> None:
    text = (
        "📝 Learned: pool the redis clients.\n"
        "<!-- learning:\n  Redis pool exhausted under load: one shared pool fixed it.\n-->\n"
        "<!-- profile-fact:\n  entity: alex\n  type: person\n-->\n"
        "<!-- profile-fct: entity: bo -->\n<!-- lerning: a typo -->\n<!-- todo: unrelated -->\n"
    )
    found = sort(text)
    assert [(i.channel, i.payload, i.source["form"]) for i in found.items] == [
        ("learning", "Redis pool exhausted under load: one shared pool fixed it.", "comment"),
        ("profile-fact", "entity: alex\ntype: person", "comment"),
    ]
    assert [(t.written, t.meant) for t in found.typos] == [
        ("profile-fct", "profile-fact"),
        ("lerning", "learning"),
    ]
    assert "did you mean `profile-fact`" in found.typos[0].describe()


def test_lesson_blocks_become_episodes_with_triggers() -> None:
    text = "#lesson\nrule: Run pytest through make test\nwhy: it sets the offline env\ntool: Bash\ncommand: \\bpytest\\b\nguard: false\ntags: tests, tooling\n#/lesson"
    (lesson,) = sort(text).lessons
    assert lesson["rule"] == "Run pytest through make test" and lesson["why"] == "it sets the offline env"
    assert lesson["trigger"] == {"tool": "Bash", "command": "\\bpytest\\b", "guard": "false"}
    assert (
        lesson["tags"] == ["tests", "tooling"]
        and lesson["source"] == "marker"
        and len(lesson["origin"]) == 64
    )
    assert sort(text).items == []


def test_secrets_in_markers_are_redacted() -> None:
    (item,) = sort(
        "<!-- learning: deploys need GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 set -->"
    ).items
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in item.payload


def test_within_one_edit() -> None:
    assert within_one_edit("lerning", "learning") and within_one_edit("learnings", "learning")
    assert within_one_edit("leaening", "learning") and not within_one_edit("learning", "learning")
    assert not within_one_edit("lrning", "learning") and not within_one_edit("todo", "learning")


def records(session: Session) -> list:  # type: ignore[type-arg]
    return [r for r in (normalize(raw) for raw in session.records) if r is not None]


def run_watch(session: Session) -> dict:  # type: ignore[type-arg]
    watch = watchdog.fresh()
    for record in records(session):
        marked = record.type == "assistant" and bool(find_markers(record.text))
        watchdog.observe(watch, record, marked)
    return watch


def test_watchdog_counts_only_typed_text_and_assistant_turns() -> None:
    session = Session().user("a" * 600).assistant("ok", tools=[{"name": "Bash", "input": {"command": "ls"}}])
    session.tool_result("x" * 5000).assistant("listed")  # a tool round trip is not a new turn
    session.user("<system-reminder>" + "r" * 3000 + "</system-reminder>", isMeta=True)
    session.user("<command-name>/compact</command-name>")
    watch = run_watch(session)
    assert (watch["turns"], watch["chars"]) == (1, 600)
    assert watchdog.nudge(watch, 2, 1000) is None
    session.user("b" * 500).assistant("done")
    watch = run_watch(session)
    assert (watch["turns"], watch["chars"]) == (2, 1100)
    text = watchdog.nudge(watch, 2, 1000)
    assert text is not None and "2 assistant turns" in text
    assert watchdog.nudge(watch, 2, 1000) is None  # once per dry stretch


def test_a_marker_starts_a_new_stretch() -> None:
    session = (
        Session().user("a" * 1200).assistant("x").user("b").assistant("noted <!-- learning: keep it -->")
    )
    assert run_watch(session) == {"turns": 0, "chars": 0, "awaiting_reply": False, "nudged": False}
