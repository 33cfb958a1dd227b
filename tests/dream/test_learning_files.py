"""A learning's topic file: its frontmatter name and description each say something of their own."""

from __future__ import annotations

import pytest

from consolidate.dream.additions import topic_name
from consolidate.dream.learning import topic_file
from consolidate.models import Candidate
from memory_layout.frontmatter import parse_frontmatter


def _matter(candidate: Candidate) -> tuple[str, str]:
    text = topic_file(candidate)
    inner = text.split("---\n")[1]
    matter = parse_frontmatter(f"---\n{inner}---\n", inner)
    return str(matter.name), str(matter.description)


@pytest.mark.parametrize("kind", ["correction", "rejection", "preference", "decision", "error-fix", "marker"])
def test_the_description_of_any_learning_is_not_its_name(kind: str) -> None:
    candidate = Candidate(
        kind=kind,
        principle="Use uv add, never pip install, so uv.lock stays in sync with the declared dependencies.",
        trigger="adding a dependency",
    )
    name, description = _matter(candidate)
    assert description != name
    assert description.startswith("When adding a dependency: ")
    assert description.endswith("stays in sync with the declared dependencies")  # the whole rule, not cut
    assert len(name) <= 60


def test_a_short_rule_without_a_trigger_still_gets_a_description_of_its_own() -> None:
    name, description = _matter(Candidate(kind="correction", principle="Use pnpm.", trigger=""))
    assert name == "Use pnpm"
    assert description == "In every session in this project"


def test_a_rule_its_name_says_whole_gets_only_when_it_matters() -> None:
    name, description = _matter(
        Candidate(kind="remember", principle="Always bump version.", trigger="bumping the version")
    )
    assert name == "Always bump version"
    assert description == "When bumping the version"


def test_the_description_keeps_code_and_the_dot_of_an_argument() -> None:
    name, description = _matter(
        Candidate(
            kind="error-fix", principle="For `qx-7 push`, omit `-R .`.", trigger="running `qx-7 push`"
        )
    )
    assert description == "When running `qx-7 push`"
    assert name == "For qx-7 push, omit `-R .`"  # a span that ends in a dot keeps its backticks
    name, description = _matter(
        Candidate(
            kind="error-fix",
            principle="Pass `-R .` to `qx-7 push`. Then check the remote branch before you open the pull request.",
            trigger="running `qx-7 push`",
        )
    )
    assert name == "Pass `-R .` to qx-7 push"
    assert description == (
        "When running `qx-7 push`: pass `-R .` to `qx-7 push`. Then check the remote branch before you open "
        "the pull request"
    )  # one sentence: the rule after the colon goes on in lower case


def test_a_name_opening_the_rule_after_the_colon_keeps_its_capital() -> None:
    for rule in (
        "Postgres runs the staging jobs on weekends only, so the schema migrations wait for Monday",
        "README.md holds the release steps, so the changelog only links to it and never repeats them",
    ):
        _, description = _matter(Candidate(kind="correction", principle=rule, trigger="releasing"))
        assert description == f"When releasing: {rule}"


def test_a_common_word_opening_the_rule_after_the_colon_goes_on_in_lower_case() -> None:
    _, description = _matter(
        Candidate(
            kind="correction",
            principle="Always tag the release after the notes are merged, so the tag points at them",
            trigger="releasing",
        )
    )
    assert (
        description
        == "When releasing: always tag the release after the notes are merged, so the tag points at them"
    )


def test_a_description_is_never_cut_mid_text() -> None:
    long_rule = "Run `make check` before every push, " + "and keep every generated file in step with it, " * 4
    name, description = _matter(
        Candidate(kind="preference", principle=long_rule.strip(" ,") + ".", trigger="")
    )
    assert not description.endswith("…")
    assert description == "Before every push" or description.startswith("In every session")


def test_a_moment_taken_from_the_rule_never_ends_in_an_ellipsis() -> None:
    _, description = _matter(Candidate(kind="correction", principle="never deploy … ; deploy", trigger=""))
    assert description == "When about to deploy"


@pytest.mark.parametrize(
    "trigger",
    [
        "adding a workspace member or fixture, or debugging a missing package",
        "regenerating the protobuf bindings after a schema migration",
        "internationalization",  # one long word: the slug is that word
    ],
)
def test_a_topic_files_name_ends_on_a_whole_word(trigger: str) -> None:
    name = topic_name(Candidate(kind="correction", principle="Run the checks first.", trigger=trigger), set())
    kind, _, slug = name.removesuffix(".md").partition("_")
    assert kind == "feedback" and 0 < len(slug) <= 40
    said = trigger.replace(",", " ").split()
    taken = iter(said)
    assert all(word in taken for word in slug.split("_"))  # every word whole, in the trigger's order


@pytest.mark.parametrize(
    ("principle", "name"),
    [
        ("Build runners have no network access", "feedback_build_runners_network_access.md"),
        (
            "A nightly backup definitely needs to keep every table",
            "feedback_nightly_backup_needs_keep_table.md",
        ),
    ],
)
def test_a_topic_files_name_is_the_words_that_say_what_it_is_about(principle: str, name: str) -> None:
    """No "have", "no", "all" or "definitely" in a file name: it would end on a word that says nothing
    ("…_runners_have_no.md")."""
    assert topic_name(Candidate(kind="correction", principle=principle), set()) == name


def test_a_lone_dot_argument_ends_no_sentence() -> None:
    """`--path .` is an argument: a title cut there ("Use tspec install --path") orders another command."""
    from consolidate.dream.titles import first_sentence, title_of

    rule = "Use pipx install --editable . instead of pip install -e"
    assert first_sentence(rule) == rule
    assert title_of(Candidate(kind="remember", principle=rule)) == rule
    assert first_sentence("Run the linter. Then push.") == "Run the linter."  # a real end still ends


def test_a_remembered_topic_name_never_ends_on_what_it_rules_out_unsaid() -> None:
    from consolidate.dream.topics import subject_slug

    assert subject_slug("", "Use pipx install --editable . instead of pip install -e") == (
        "pipx_install_editable_not_pip"
    )


@pytest.mark.parametrize(
    ("principle", "name"),
    [
        ("use make smoke before every deploy", "Use make smoke before every deploy"),
        ("never push the release tag by hand", "Never push the release tag by hand"),
        ("pnpm is the package manager of this repo", "pnpm is the package manager of this repo"),  # a name
        (
            "uv.lock is committed with every dependency change",
            "uv.lock is committed with every dependency change",
        ),
    ],
)
def test_a_rule_that_begins_a_line_begins_with_a_capital_unless_it_is_a_name(
    principle: str, name: str
) -> None:
    """A remembered "when X: use Y" keeps the rule in lower case after its colon; where the rule begins
    the line (an always-on pointer, a topic's name) it is a sentence."""
    from consolidate.dream.learning import pointer_line

    assert _matter(Candidate(kind="remember", principle=principle))[0] == name
    assert pointer_line(Candidate(kind="remember", principle=principle), "x.md").startswith(name)


def test_a_quote_cut_short_keeps_its_ellipsis_in_the_topic_file() -> None:
    from consolidate.models import EvidenceRef

    candidate = Candidate(
        kind="error-fix",
        principle="For `qx-7 push`, omit `-R .`.",
        evidence=[EvidenceRef(quote="error: unexpected argument '-R' found; Usage: qx-7 push [OPTIONS] …")],
    )
    text = topic_file(candidate)
    assert "**Evidence:** “error: unexpected argument '-R' found; Usage: qx-7 push [OPTIONS] …”" in text
    whole = candidate.model_copy(
        update={"evidence": [EvidenceRef(quote="error: unexpected argument '-R' found.")]}
    )
    assert "**Evidence:** “error: unexpected argument '-R' found.”" in topic_file(whole)
