"""`consolidate remember "X"`: the early exit — duplicate check, layer choice, one reviewed change."""

from __future__ import annotations

import io
import re

import pytest

from consolidate.cli import main
from consolidate.dream.remember import remember
from consolidate.errors import UsageError
from memory_layout import parse_document


def _remember(capsys, example, *args: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(
        ["remember", *args, "--project", str(example.project), "--claude-home", str(example.claude_home)]
    )
    out, err = capsys.readouterr()
    return code, out, err


def test_remember_with_a_condition_becomes_a_trigger_pointer(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(capsys, example, "when deploying: run the smoke tests first", "--yes")
    assert code == 0
    assert "### [ADD] Learning: run the smoke tests first" in out
    index = (example.memory_dir / "MEMORY.md").read_text()
    assert "- **When deploying:** run the smoke tests first. → [detail](" in index
    assert not (example.memory_dir / ".last-consolidation").exists()  # no marker: no agents ran


def test_a_duplicate_is_not_added_twice(example, capsys) -> None:  # type: ignore[no-untyped-def]
    before = (example.memory_dir / "MEMORY.md").read_text()
    code, out, _ = _remember(
        capsys, example, "use make test because plain pytest misses the DB fixture", "--yes"
    )
    assert code == 0 and out.startswith("already remembered")
    assert (example.memory_dir / "MEMORY.md").read_text() == before


def test_universal_preferences_go_to_l0_and_need_confirmation(example, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(capsys, example, "in all projects, answer in English", "--yes")
    assert code == 0 and "nothing remembered: " in out and "confirm it in a terminal, without --yes" in out
    assert not settings.layout.user_claude_md.exists()
    out_stream = io.StringIO()
    answers = iter(["a", "y"])
    report = remember(
        settings, "in all projects, answer in English", out=out_stream, ask=lambda _: next(answers)
    )
    assert report is not None and report.ok
    assert (
        settings.layout.user_claude_md.read_text() == "## Preferences\n- Answer in English.\n"
    )  # "in all projects" is implied there
    assert "every session of every project" in out_stream.getvalue()


def test_explicit_layer_and_section(example, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _, _ = _remember(capsys, example, "the API is versioned in the URL path", "--layer", "L1", "--yes")
    assert code == 0
    assert "- The API is versioned in the URL path.\n" in settings.layout.project_claude_md.read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("consolidate", "consolidation request"),
        ("clean up memories please", "consolidation request"),
        ("the deploy key is ghp_abcdefghijklmnopqrstuvwxyz0123456789", "refusing to remember a secret"),
        ("hi", "nothing to remember"),
    ],
)
def test_refusals_are_usage_errors(example, settings, capsys, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match=message):
        remember(settings, text, yes=True, out=io.StringIO())
    code, _, err = _remember(capsys, example, text, "--yes")
    assert code == 2 and message in err and "ghp_" not in err


def test_without_a_terminal_remember_shows_the_change_and_says_why_it_was_not_applied(
    example, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    before = (example.memory_dir / "MEMORY.md").read_text()
    code, out, err = _remember(capsys, example, "when deploying: run the smoke tests first")
    assert code == 2 and "### [ADD] Learning: run the smoke tests first" in out
    assert err.strip() == (
        "consolidate: nothing remembered: no terminal to confirm on; "
        "run it again with --yes to apply it, or in a terminal to confirm it"
    )
    assert (example.memory_dir / "MEMORY.md").read_text() == before
    # what is remembered already needs no confirmation: it says so, terminal or not
    code, out, err = _remember(capsys, example, "use make test because plain pytest misses the DB fixture")
    assert code == 0 and out.startswith("already remembered") and not err
    code, out, err = _remember(capsys, example, "in all projects, answer in English")
    assert code == 2 and "run it in a terminal to confirm it" in err


def test_a_project_claude_md_linked_to_the_global_one_needs_confirmation(example, settings, capsys) -> None:  # type: ignore[no-untyped-def]
    settings.layout.user_claude_md.parent.mkdir(parents=True, exist_ok=True)
    settings.layout.user_claude_md.write_text("# Everywhere\n")
    (example.project / "CLAUDE.md").unlink()
    (example.project / "CLAUDE.md").symlink_to(settings.layout.user_claude_md)
    code, out, _ = _remember(capsys, example, "run make lint before pushing", "--layer", "L1", "--yes")
    assert code == 0 and "nothing remembered: " in out and "confirm it in a terminal, without --yes" in out
    assert settings.layout.user_claude_md.read_text() == "# Everywhere\n"


def _topic(example, out: str) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(name, text) of the topic file the one applied proposal wrote."""
    (name,) = [n for n in re.findall(r"^\+\+\+ b/(\w+\.md)$", out, re.MULTILINE) if n != "MEMORY.md"]
    return name, (example.memory_dir / name).read_text()


@pytest.mark.parametrize(
    ("text", "entry", "topic"),
    [
        ("remember that we use uv add, not pip install", "- We use uv add, not pip install.", "feedback_uv_add_not_pip.md"),
        ("from now on, use `uv add` instead of `pip install`", "- Use `uv add` instead of `pip install`.",
         "feedback_uv_add_not_pip.md"),
        ("запомни: деплой только через `make deploy`", "- Деплой только через `make deploy`.", "feedback_make_deploy.md"),
        ("记住：这个项目的日志一律用 structlog", "- 这个项目的日志一律用 structlog.", "feedback_structlog.md"),
        ("test veritabanı her gece sıfırlanıyor, bunu unutma", "- Test veritabanı her gece sıfırlanıyor.",
         "project_test_veritabani_gece_sifirlaniyor.md"),
    ],
)  # fmt: skip
def test_command_words_are_cut_and_the_topic_is_named_after_its_subject(  # type: ignore[no-untyped-def]
    example, capsys, text: str, entry: str, topic: str
) -> None:
    code, out, _ = _remember(capsys, example, text, "--yes")
    assert code == 0, out
    index = (example.memory_dir / "MEMORY.md").read_text()
    pointer = rf"^{re.escape(entry.rstrip('.'))}\.? → \[detail\]\({re.escape(topic)}\)$"
    assert re.search(pointer, index, re.MULTILINE), index
    name, body = _topic(example, out)
    assert name == topic
    text = body.split("\n---\n", 1)[1]  # after the frontmatter (its metadata may name the signal)
    for word in ("remember", "from now on", "запомни", "记住", "unutma"):
        assert word not in text.lower() and word not in index.lower()


def test_frontmatter_has_a_title_a_when_and_the_type_of_its_section(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(capsys, example, "from now on, use git switch instead of git checkout", "--yes")
    assert code == 0
    name, body = _topic(example, out)
    matter = parse_document(body).frontmatter
    assert matter is not None
    assert matter.name == "Use git switch instead of git checkout"
    assert matter.description == "When about to use git checkout"
    assert matter.type == "feedback" and name.startswith("feedback_")
    index = (example.memory_dir / "MEMORY.md").read_text()
    section = index[: index.index(name)].rsplit("\n## ", 1)[1].split("\n", 1)[0]
    assert section == "Feedback"


def test_a_fact_is_a_project_memory_in_the_project_section(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(
        capsys, example, "remember: the billing service is owned by the payments team", "--yes"
    )
    assert code == 0
    name, body = _topic(example, out)
    matter = parse_document(body).frontmatter
    assert matter is not None and matter.type == "project" and name.startswith("project_billing_service")
    assert matter.name != matter.description
    index = (example.memory_dir / "MEMORY.md").read_text()
    assert index[: index.index(name)].rsplit("\n## ", 1)[1].startswith("Project\n")


def test_an_explicit_section_decides_the_type(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(
        capsys, example, "use ruff format, never black", "--section", "reference", "--yes"
    )
    assert code == 0
    name, body = _topic(example, out)
    matter = parse_document(body).frontmatter
    assert matter is not None and matter.type == "reference" and name.startswith("reference_")


def test_already_remembered_is_said_once(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = _remember(
        capsys, example, "use make test because plain pytest misses the DB fixture", "--yes"
    )
    assert code == 0 and out.startswith("already remembered: ") and "already recorded" not in out


def test_a_rule_that_says_the_opposite_of_an_entry_is_not_called_remembered(example, capsys) -> None:  # type: ignore[no-untyped-def]
    """The memory says the opposite: remember neither claims the rule is there nor writes a second,
    contradicting one; one line says which entry stands in its way."""
    before = (example.memory_dir / "MEMORY.md").read_text()
    code, out, err = _remember(capsys, example, "do not use cursor pagination, use offsets", "--yes")
    assert code == 1
    assert "already remembered" not in out + err
    assert err.startswith("consolidate: not remembered: it says the opposite of “When working on pagination:")
    assert "(MEMORY.md)" in err and err.count("\n") == 1
    assert (example.memory_dir / "MEMORY.md").read_text() == before


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("when releasing: tag the commit as vX.Y.Z", "feedback"),
        ("bump the version before the first commit of a change", "feedback"),
        ("update the changelog with every user-facing change", "feedback"),
        ("review the generated migration before committing it", "feedback"),
        ("release notes go to CHANGELOG.md", "project"),
        ("test fixtures live in tests/fixtures", "project"),
        ("merge requests need two approvals", "project"),
    ],
)
def test_an_instruction_that_opens_with_its_verb_is_a_rule(example, capsys, text: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    """An instruction is a feedback memory in Feedback whatever verb it opens with; a verb that is
    also a noun ("release notes go …") opens a fact."""
    code, out, _ = _remember(capsys, example, text, "--yes")
    assert code == 0, out
    name, body = _topic(example, out)
    matter = parse_document(body).frontmatter
    assert matter is not None and matter.type == kind and name.startswith(f"{kind}_")
    index = (example.memory_dir / "MEMORY.md").read_text()
    section = "Feedback" if kind == "feedback" else "Project"
    assert index[: index.index(name)].rsplit("\n## ", 1)[1].startswith(f"{section}\n")


def test_a_second_rule_for_the_same_subject_is_named_after_what_it_says(example, capsys) -> None:  # type: ignore[no-untyped-def]
    """Two rules "when releasing: …", or a fact that says more than one remembered: the second topic
    file is named by the words that tell it apart, not numbered."""
    names = []
    for text in (
        "when releasing: tag the commit as vX.Y.Z",
        "when releasing: push the tag after the release commit",
        "the CI runners use Ubuntu 24.04",
        "the CI runners use Ubuntu 24.04 and cache the cargo registry",
    ):
        code, out, _ = _remember(capsys, example, text, "--yes")
        assert code == 0, out
        names.append(_topic(example, out)[0])
    assert names == [
        "feedback_releasing.md",
        "feedback_releasing_push.md",
        "project_ci_runners_ubuntu_24.md",
        "project_ci_runners_ubuntu_24_04.md",
    ]


def test_already_remembered_shows_the_entrys_words_not_its_code(example, capsys) -> None:  # type: ignore[no-untyped-def]
    claude_md = example.project / "CLAUDE.md"
    claude_md.write_text(
        claude_md.read_text()
        + "\n## Packaging\n\n**Always build wheels with `uvx hatch build`.** Never run bare `python setup.py`.\n\n"
        + "```bash\nuvx hatch build   # the wheel and the sdist\nuvx hatch publish # to the index\n```\n"
    )
    code, out, _ = _remember(capsys, example, "never run bare python setup.py, build with uvx hatch build")
    assert code == 0
    assert out == (
        "already remembered: **Always build wheels with `uvx hatch build`.** Never run bare "
        "`python setup.py`.\n"
    )


def test_a_rule_too_short_to_stand_is_not_remembered_and_never_called_remembered(example, capsys) -> None:  # type: ignore[no-untyped-def]
    before = (example.memory_dir / "MEMORY.md").read_text()
    code, out, err = _remember(capsys, example, "when running the nightly job: pass --fast", "--yes")
    assert code == 1 and "already remembered" not in out + err
    assert err.strip().endswith(
        "not remembered: too short to be a principle; say the whole rule (what to do, and when)"
    )
    assert (example.memory_dir / "MEMORY.md").read_text() == before


_DOGFOOD = (
    "\n## Build Commands\n\n**Always build with `mk` itself.** Never use bare `cargo clippy` — use the mk "
    "equivalents.\n\n```bash\nmk test -p core    # Run tests (NEVER cargo test)\nmk clippy          # Run lints "
    "(NEVER cargo clippy)\n```\n\n## Release\n\n- Tag each release as `vX.Y.Z`.\n- Update the changelog first.\n"
    "- Publish the crate to the registry.\n"
)


def test_a_command_in_place_of_one_the_fenced_commands_forbid_is_already_remembered(example, capsys) -> None:  # type: ignore[no-untyped-def]
    claude_md = example.project / "CLAUDE.md"
    claude_md.write_text(claude_md.read_text() + _DOGFOOD)
    before = claude_md.read_text()
    code, out, _ = _remember(
        capsys, example, "Use `mk clippy` instead of `cargo clippy`", "--layer", "L1", "--yes"
    )
    assert code == 0
    assert out.startswith("already remembered: **Always build with `mk` itself.**")
    assert claude_md.read_text() == before


def test_a_rule_for_the_project_claude_md_goes_under_the_section_it_fits(example, capsys) -> None:  # type: ignore[no-untyped-def]
    claude_md = example.project / "CLAUDE.md"
    claude_md.write_text(claude_md.read_text() + _DOGFOOD)
    code, _, _ = _remember(
        capsys,
        example,
        "Announce each release in the changelog and the registry page",
        "--layer",
        "L1",
        "--yes",
    )
    assert code == 0
    text = claude_md.read_text()
    assert "Gotchas" not in text
    release = text.split("## Release", 1)[1]
    assert "Announce each release in the changelog and the registry page" in release


def test_a_rule_opening_with_a_command_name_keeps_its_spelling_and_its_lone_dot(example, capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = _remember(capsys, example, "remember that qx-7 push does not take -R .", "--yes")
    assert code == 0, err
    index = (example.memory_dir / "MEMORY.md").read_text()
    assert "- qx-7 push does not take -R . → [detail](" in index  # not "Qx-7", not "-R."
    assert "Qx-7" not in index


def test_capitalised_leaves_a_name_as_spelt() -> None:
    from consolidate.discover.text import capitalised

    assert capitalised("qx-7 push does not take -R .") == "qx-7 push does not take -R ."
    assert capitalised("src/app.py is generated") == "src/app.py is generated"
    assert capitalised("pre-commit hooks run on every commit") == "Pre-commit hooks run on every commit"
    assert capitalised("use `uv add`") == "Use `uv add`"
    assert capitalised("") == ""
