"""The flat frontmatter reader gives what YAML gives, and leaves everything else to YAML."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_layout import parse_document
from memory_layout.frontmatter import flat_frontmatter, parse_frontmatter, yaml_frontmatter

# Words YAML reads as something other than text, indicators, and plain words, so that generated lines
# hit both the flat reader and every reason to leave a line to YAML.
_SPECIAL = [
    "yes", "No", "on", "OFF", "true", "False", "null", "~", "Null", "NULL", "0", "12", "-3", "+4", "1.5",
    ".inf", ".NaN", "0x1F", "0o17", "1_000", "2026-12-01", "2026-12-01 10:00:00", "<<", "=", "1:20",
    "a: b", "a #b", "a#b", "x:", ":x", "-x", "- x", "?x", "'q'", '"q"', "[a]", "{a: 1}", "&a", "*a", "!t",
    "|", ">", "%x", "@x", "`x`", "a\tb", "\x85", "\u2028", "\ufeff", "\x07", "é", "日本", "\U0001f600",
]  # fmt: skip
_WORD = st.one_of(
    st.sampled_from(_SPECIAL),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=12),
    st.from_regex(r"[A-Za-z][A-Za-z0-9 _.,;()/-]{0,30}", fullmatch=True),
)
_VALUE = st.one_of(_WORD, st.lists(_WORD, min_size=2, max_size=4).map(" ".join))
_KEY = st.one_of(
    st.sampled_from(["name", "description", "type", "yes", "null", "on", "x-y", "_k", "1a"]), _WORD
)
_SEP = st.sampled_from([": ", ":  ", ":", " : ", ":\t"])
_NAMES = st.sampled_from(["name", "description", "type"])
_LINE = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", _NAMES, _VALUE),  # mostly what the flat reader takes
    st.builds(lambda k, s, v, t: f"{k}{s}{v}{t}", _KEY, _SEP, _VALUE, st.sampled_from(["", " ", "  ", "\t"])),
    st.sampled_from(["", " ", "# comment", "  indented: x", "- item", "metadata:", "  type: project"]),
)


def _same(inner: str) -> None:
    fast = parse_frontmatter("raw", inner)
    slow = yaml_frontmatter("raw", inner)
    assert (fast.data, fast.error) == (slow.data, slow.error)
    assert all(type(k) is type(k2) and type(v) is type(v2) for (k, v), (k2, v2) in zip(
        fast.data.items(), slow.data.items(), strict=True
    ))  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(_LINE, min_size=0, max_size=6))
@example(["name: a", "name: b"])  # a repeated key: YAML keeps the last
@example(["type: yes"])
@example(["created: 2026-12-01"])
@example(["description: works :)"])
@example(["description: a #b"])  # a comment, not part of the value
def test_any_frontmatter_reads_as_yaml_reads_it(lines: list[str]) -> None:
    _same("\n".join(lines) + "\n")


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9_-]{0,12}", fullmatch=True),
        st.from_regex(r"[A-Za-z0-9][A-Za-z0-9 ,.;()/'_-]{0,60}", fullmatch=True),
        min_size=1,
        max_size=5,
    )
)
def test_flat_frontmatter_is_read_without_yaml(data: dict[str, str]) -> None:
    inner = "".join(f"{k}: {v}\n" for k, v in data.items())
    expected = yaml_frontmatter("raw", inner).data
    flat = flat_frontmatter(inner)
    # the flat reader takes it unless YAML itself would read a value as something else
    if all(isinstance(v, str) and isinstance(k, str) for k, v in expected.items()):
        assert flat == expected
    else:
        assert flat is None
    assert parse_frontmatter("raw", inner).data == expected


def test_our_and_claude_codes_frontmatter_take_the_flat_path() -> None:
    ours = "name: deploy steps\ndescription: Deploys go through CI (never by hand).\ntype: project\n"
    assert flat_frontmatter(ours) == {
        "name": "deploy steps",
        "description": "Deploys go through CI (never by hand).",
        "type": "project",
    }
    nested = "name: x\nmetadata:\n  type: project\n"
    assert flat_frontmatter(nested) is None
    assert parse_frontmatter("raw", nested).type == "project"


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("---\nname: [unclosed\n---\nbody\n", "broken frontmatter at line "),
        ("---\nname: a: b\n---\nbody\n", "broken frontmatter at line "),
        ("---\njust words\n---\nbody\n", "broken frontmatter: expected key: value pairs"),
        ("---\nname: x\n- entry\n", "broken frontmatter: no closing '---'"),
        ("---\nname: \x07bell\n---\nbody\n", "broken frontmatter"),
    ],
)
def test_broken_frontmatter_is_one_line_warning(text: str, start: str) -> None:
    doc = parse_document(text)
    assert doc.render() == text
    assert len(doc.warnings) == 1 and doc.warnings[0].startswith(start)
    assert "\n" not in doc.warnings[0]
