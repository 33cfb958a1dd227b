"""Learning markers: hidden comments, visible lines in four languages, #lesson blocks."""

from __future__ import annotations

import pytest

from consolidate.transcripts import find_markers


def test_single_and_multi_line_comments() -> None:
    text = ("Done.\n<!-- learning: Use one shared Redis pool; per-request clients exhaust it. -->\n"
            "<!-- learning:\nFirst line.\nSecond line with the why.\n-->")  # fmt: skip
    markers = find_markers(text)
    assert [(m.channel, m.form, m.payload) for m in markers] == [
        ("learning", "comment", "Use one shared Redis pool; per-request clients exhaust it."),
        ("learning", "comment", "First line.\nSecond line with the why."),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "📝 Learned: the sandbox rejects amounts under $1",
        "📝 Öğrenildi: JWT yenileme 7 gün",
        "📝 Усвоено: сборка требует Node 20",
        "📝 学到：缓存键必须包含 lockfile 哈希",
        "**📝 Learned:** bold form works",
    ],  # fmt: skip
)
def test_visible_lines_in_each_language(line: str) -> None:
    markers = find_markers(f"Fixed.\n{line}\n")
    assert len(markers) == 1 and markers[0].form == "visible" and markers[0].channel == "learning"


def test_visible_line_that_repeats_its_comment_is_kept_once() -> None:
    text = ("📝 Learned: 7-day JWT refresh chosen — long sessions.\n"
            "<!-- learning: 7-day JWT refresh chosen — we want long sessions; users log in weekly. -->")  # fmt: skip
    markers = find_markers(text)
    assert [m.form for m in markers] == ["comment"]


def test_a_visible_line_and_a_comment_are_one_learning_whatever_their_wording() -> None:
    text = (
        "Done.\n📝 Learned: use the wrapper for tests\n"
        "<!-- learning: `acme test` sets the fixture env, so plain `cargo test` fails; run the wrapper -->\n"
        "Also:\n📝 Learned: staging is read-only on Fridays\n"
    )
    markers = find_markers(text)
    assert [(m.form, m.payload[:12]) for m in markers] == [
        ("comment", "`acme test` "),
        ("visible", "staging is r"),
    ]


def test_lesson_block_with_fields() -> None:
    text = "#lesson\ntool: Bash\ntrigger: running alembic\nlesson: Run it through `make migrate`\n#/lesson"
    (marker,) = find_markers(text)
    assert marker.form == "lesson"
    assert dict(marker.fields) == {
        "tool": "Bash",
        "trigger": "running alembic",
        "lesson": "Run it through `make migrate`",
    }


def test_examples_in_code_and_placeholders_are_not_markers() -> None:
    text = (
        "The format is `<!-- learning: … -->`:\n```\n<!-- learning: example inside a fence -->\n📝 Learned: x\n```\n"
        "<!-- learning: <one to three sentences with the why> -->\n<!-- learning: ... -->\n📝 Note: not a marker label"
    )
    assert find_markers(text) == []


def test_other_channels_keep_their_name() -> None:
    text = "<!-- profile-fact:\n  entity: alex\n  type: person\n-->\n<!-- profile-fct: typo channel -->"
    assert [m.channel for m in find_markers(text)] == ["profile-fact", "profile-fct"]


def test_plain_text_has_no_markers() -> None:
    assert find_markers("Nothing to see here.") == []
