"""Link syntax written as code (`[[bin]]`, a fenced example) is an example, never a link."""

from __future__ import annotations

from memory_layout.pointers import find_links, has_broken_link, rebase_links, retarget_links, unlink

TEXT = (
    "A binary is a `[[bin]]` table (an array of tables); see [the notes](notes.md).\n"
    "Write `[label](file.md)` for a pointer.\n"
    "```toml\n"
    "[[bin]]\n"
    'name = "tool"\n'
    "[old](gone.md)\n"
    "```\n"
    "Also [[topic]] after the fence.\n"
)


def test_links_inside_code_spans_and_fences_are_not_found() -> None:
    assert [link.target for link in find_links(TEXT)] == ["notes.md", "topic.md"]


def test_a_double_backtick_span_hides_a_single_backtick_link() -> None:
    assert [link.target for link in find_links("``a ` [x](y.md)`` and [z](w.md)")] == ["w.md"]


def test_unlink_and_retarget_leave_code_as_written() -> None:
    dead = unlink(TEXT, lambda target: True)
    assert "`[[bin]]`" in dead and "[[bin]]\n" in dead and "[old](gone.md)" in dead
    assert "`[label](file.md)`" in dead
    assert "see the notes." in dead and "Also topic after" in dead
    moved = retarget_links(TEXT, lambda target: f"moved/{target}")
    assert "`[[bin]]`" in moved and "[old](gone.md)\n" in moved
    assert "[the notes](moved/notes.md)" in moved and "[topic](moved/topic.md)" in moved


def test_rebase_rewrites_prose_links_only() -> None:
    rebased = rebase_links(TEXT, "a", "b")
    assert "[the notes](../a/notes.md)" in rebased
    assert "`[label](file.md)`" in rebased and "[old](gone.md)\n" in rebased


def test_link_syntax_in_code_is_not_a_broken_link() -> None:
    assert not has_broken_link("Run `[a](b c)` as written.")
    assert has_broken_link("See [a](b c) here.")


def test_an_unclosed_fence_runs_to_the_end() -> None:
    assert find_links("[a](a.md)\n```\n[b](b.md)\n") == find_links("[a](a.md)\n")


def test_a_link_that_leads_nowhere_is_written_as_code() -> None:
    from memory_layout.pointers import quoted_links

    text = 'Move it below the "See older [done.md](done.md)" line; see [the notes](notes.md) and [[gone]].'
    quoted = quoted_links(text, lambda target: target == "notes.md")
    assert quoted == (
        'Move it below the "See older `[done.md](done.md)`" line; see [the notes](notes.md) and `[[gone]]`.'
    )
    assert [link.target for link in find_links(quoted)] == ["notes.md"]
    # links already in code, URLs and links that resolve stay as written
    same = "Write `[x](y.md)`, read [docs](https://example.com/a.md) and [n](notes.md)."
    assert quoted_links(same, lambda target: target == "notes.md") == same
    # a backtick inside the link takes a longer fence
    assert quoted_links("[a `b`](c.md)", lambda target: False) == "``[a `b`](c.md)``"
