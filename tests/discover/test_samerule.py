"""Matching a candidate rule by meaning against what is remembered: labeled synthetic pairs."""

from __future__ import annotations

import pytest

from consolidate.discover.samerule import Memory, restating_entries, shape

# (remembered text, candidate principle): the candidate restates the remembered rule in other words.
SAME_RULE = [
    (
        "- **After the tests pass, deploy the build right away** with `make deploy` so staging runs it.",
        "Once all the tests pass, deploy it ASAP so we try it on staging.",
    ),
    (
        "- **Do not deploy before the tests pass.** Run `make check` first.",
        "Don't deploy it until after it passes its tests",
    ),
    (
        "## Commands the agent must not run\n\n"
        "Because the lock file is shared with CI, the agent cannot run these:\n\n"
        "- `npm update` - rewrites the lock file\n- `npm audit fix` - rewrites the lock file\n",
        "Do not run npm update because the lock file is shared",
    ),
    (
        "**When a release is done:**\n1. Update `CHANGELOG.md` with the release notes\n"
        "2. Remove `-rc` from the version in `package.json`\n3. Tag the commit (include the lock file)\n",
        "After a release, update the changelog, remove `-rc` from the version in package.json and tag "
        "the commit with the lock file",
    ),
    (
        "- Footnotes: several citations use `[1],[2]` not `[1,2]` (that breaks the renderer)",
        "`[3],[7]` keeps several footnote citations apart in the renderer",
    ),
    (
        "- Use `uv run xxx` rather than calling `python xxx` directly.",
        "Use `uv run pytest` instead of `python pytest`",
    ),
    (
        "- Bump the version to `X.Y.Z-beta` before starting a feature; commit that as a marker commit.",
        "bump version to 0.4.0-beta and commit that before we start, this gives an obvious marker commit",
    ),
    (
        "- Never force-push to `main`; open a pull request instead.",
        "Do not force push to `main`, open a pull request",
    ),
    (
        "- Keep the migration files preserved byte for byte: copy them, never rewrite them.",
        "Migration files need to be preserved byte for byte",
    ),
    (  # two bullets state it together
        "- All non-trivial changes go on a feature branch.\n- Run `make lint` before pushing.\n\n"
        "## Safety\n\n- Never force-push to `main`.\n",
        "Put every non-trivial change on a feature branch and never force-push to `main`",
    ),
    (  # the same rule with another reason
        "- All non-trivial changes go on a feature branch.",
        "For non-trivial changes we should work on a branch as force pushing to main is bad form",
    ),
    (  # abbreviations read as the word they stand for
        "- Run the `just` commands from the repository root, never from a package directory.",
        "Run `just` cmds from the repo root",
    ),
    (
        "- **Doc refs:** several references use `[1],[2]`, never `[1,2]`",
        "`[4],[9]` makes each one a separate reference link",
    ),
    (  # a step of a procedure, "always required", and saying it as that step
        "**Before a feature:**\n1. Open an issue\n2. Bump the version in `setup.cfg` (always required)\n"
        "3. Commit the plan\n",
        "Always bump the version; mention that as step 1 so the reviewer doesn't have to ask",
    ),
    (  # a numbered series written as its first step
        "- Start a feature with a marker commit that bumps the version to `X.Y.Z-dev0`.",
        "Start each feature with a marker commit bumping the version to `0.4.0-dev`",
    ),
    (
        "- Update `CHANGELOG.md` before tagging a release, so users see what changed.",
        "Update `CHANGELOG.md` before tagging a release because the packagers read it",
    ),
    (  # stop / wait: one word of the general vocabulary of rules
        "**After deploying, report the build number and wait:**\n```\nDeployed build 42.\n```",
        "Stop after every deploy so the user can check the build",
    ),
    (  # a ban said after what it bans
        "- Never run migrations against production by hand.",
        "Running migrations against production by hand is forbidden",
    ),
    (  # creating a worktree, working in one, using one: one practice
        "- Every schema experiment must happen in a separate worktree.",
        "Always create a worktree for each schema experiment",
    ),
    (
        "- **Every schema experiment must happen in a separate worktree** so the main checkout stays clean.",
        "For schema experiments, open a worktree",
    ),
    (  # a judgement after the rule is its reason, whatever it says
        "- All schema experiments happen in a separate worktree.",
        "On all schema experiments, work in a worktree; editing the shared checkout is risky",
    ),
    (  # saving a checklist is writing it
        "**Before a release:**\n1. Write the checklist into `docs/releases.md` with the date\n",
        "Save the release checklist with the date in docs/releases.md",
    ),
    (  # both negate the program, one in a code span under a heading that names it
        "- **When running `npm` scripts:** Use `pnpm xxx` rather than `npm xxx`.",
        "Use pnpm instead of npm.",
    ),
    (  # "X, not Y" said of the same Y: the line that says it, though a word of the rule is not there
        "- **Scope:** style rules apply at the module level, not the function level. A module holds "
        "many functions.",
        "We provide checks at the module level not the function level.",
    ),
]

# (remembered text, candidate principle): the candidate shares words or a command but is another rule.
OTHER_RULE = [
    (
        "- Run `cargo fmt` before every commit.",
        "`cargo fmt` breaks the macro files; use `cargo fmt -- --skip macros`",
    ),
    ("- Run `cargo fmt` before every commit.", "Never run `cargo fmt` before a commit"),
    ("- Use `pnpm` instead of `npm` for installs.", "Use `npm` instead of `pnpm` for installs"),
    ("- Deploys run from the `release` branch only.", "tag releases from the `release` branch only"),
    ("- Run `pytest -x` before pushing.", "Run `pytest --lf` after a failure to rerun the failed tests"),
    (
        "- **After code changes pass tests, install the new build** with `make install`.",
        "Install the new build with `make install PREFIX=~/.local` on shared machines",
    ),
    ("- Commit messages use the imperative mood.", "Squash fixup commits before merging a pull request"),
    (
        "**Before starting a feature:**\n1. Create a branch\n2. Write the plan in `notes/plan.md`\n",
        "Delete the branch after the feature is merged and archive the plan",
    ),
    ("- Always write tests for new parsers.", "Tests for the parser must not touch the network"),
    ("- Do not commit the `.env` file.", "Commit the `.env.example` file with every new setting"),
    (
        "- **Run all checks**: `make` (format, lint, typecheck, test with coverage)",
        "Run the tests with `make test` (with coverage)",  # another command, though its words are there
    ),
    (
        "- `retries` (default: `3`): how often a failed step is retried",
        "`retries` (default: `5`): how often a failed step is retried",  # another value: a change
    ),
    (  # one bullet agrees, the other is contradicted: not the rule
        "- All non-trivial changes go on a feature branch.\n- Never force-push to `main`.\n",
        "Put every non-trivial change on a feature branch and force-push it to `main`",
    ),
    (  # one bullet agrees, the rest is new
        "- All non-trivial changes go on a feature branch.\n- Never force-push to `main`.\n",
        "Put every non-trivial change on a feature branch and tag it with the release version",
    ),
    (  # another step of a numbered series: a change of value
        "- The release candidate is tagged `v1.2.0-rc1`.",
        "The release candidate is tagged `v1.2.0-rc2`",
    ),
    (  # the same reason, another rule
        "- Update `CHANGELOG.md` before tagging a release, so users see what changed.",
        "Write the release notes in the GitHub release, so users see what changed",
    ),
    (  # an abbreviation of another word than the remembered one
        "- Keep the configuration in `pyproject.toml`.",
        "Keep the dependency pins in `pyproject.toml`, not in the configuration files",
    ),
    (  # a cause that negates is not the rule's polarity, but the rule's own negation is
        "- Run the full test suite before every release.",
        "Never run the full test suite before a release as running it takes an hour",
    ),
    (
        "**Before a feature:**\n1. Open an issue\n2. Bump the version in `setup.cfg` (always required)\n",
        "Always mention the version bump in the commit subject so the changelog picks it up",
    ),
    (  # another verb of a place one works in: not the practice of working in it
        "- Create a worktree for every schema experiment.",
        "Delete the worktree after each schema experiment",
    ),
    (  # it negates what the line asserts: not its rule, however many words they share
        "**lintkit** checks style at the **module** level via rule files. For per-function checks, "
        "split the module.",
        "We provide checks at the module level not the function level.",
    ),
]


@pytest.mark.parametrize(("known", "principle"), SAME_RULE)
def test_a_rule_said_in_other_words_is_found(known: str, principle: str) -> None:
    found = Memory.of_texts([known]).restating(principle)
    assert found is not None, principle
    assert found.score >= 0.65


@pytest.mark.parametrize(("known", "principle"), OTHER_RULE)
def test_another_rule_that_shares_words_or_a_command_is_not(known: str, principle: str) -> None:
    assert Memory.of_texts([known]).restating(principle) is None


def test_the_matched_unit_names_the_statement_and_its_list() -> None:
    memory = Memory.of_texts(
        ["## Release\n\n**On release:**\n1. Update `CHANGELOG.md`\n2. Remove `-rc` from the version\n"]
    )
    found = memory.restating("On release update the changelog and remove -rc from the version")
    assert found is not None and found.unit.group
    assert memory.statements[found.unit.members[0]] == ("Release", "**On release:**")


def test_entries_form_lists_within_their_file_and_section() -> None:
    entries = [
        ("CLAUDE.md", "Workflow", "**Before a release:**"),
        ("CLAUDE.md", "Workflow", "1. Run `make check`"),
        ("CLAUDE.md", "Workflow", "2. Update `CHANGELOG.md` with the release notes"),
        ("CLAUDE.md", "Other", "- Use `uv` for installs"),
    ]
    memory = restating_entries(entries)
    assert [u.members for u in memory.units if u.group] == [(0, 1, 2)]
    found = memory.restating("Before a release run `make check` and update the changelog with release notes")
    assert found is not None and found.unit.members == (0, 1, 2)


def test_too_little_to_judge_is_never_a_restatement() -> None:
    assert Memory.of_texts(["- Use tabs."]).restating("Use tabs") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("0.10.0-dev", "X.Y.Z-dev"),
        ("[12],[14]", "[1],[2]"),
        ("git checkout -b <type>-<name>", "git checkout -b <a>-<b>"),
        ("X.Y.Z-dev0", "0.10.0-dev"),
        ("1.2.0-rcN", "1.2.0-rc3"),
    ],
)
def test_code_of_one_shape_compares_equal(a: str, b: str) -> None:
    assert shape(a) == shape(b)


def test_a_rule_that_says_an_old_one_and_more_extends_it() -> None:
    memory = Memory.of_texts(["- Run `cargo fmt` before every commit."])
    longer = "Run `cargo fmt -- --skip macros` before every commit: plain `cargo fmt` breaks the macro files"
    found = memory.extended(longer)
    assert found is not None and found.unit.text == "- Run `cargo fmt` before every commit."
    assert memory.restating(longer) is None  # it names more than the old rule: an update, never a duplicate
    assert memory.extended("`cargo fmt` breaks the macro files") is None  # shares a command, not the rule
    assert memory.extended("Always run `cargo fmt` before a commit") is None  # the same rule: no update


def test_a_restated_candidate_is_an_update_naming_the_statement_in_the_scan() -> None:
    from consolidate.discover.discover import build_report
    from consolidate.discover.signals import make_signal

    signal = make_signal(
        "preference",
        "Don't deploy the service until after it passes its tests",
        quote="don't deploy the service until after it passes its tests",
        session="s1",
        uuid="u1",
        timestamp="2026-01-01T00:00:00Z",
        file="s1.jsonl",
    )
    memory = {
        "CLAUDE.md": "## Deploys\n\n- **Do not deploy before the tests pass.** Run `make check` first.\n"
    }
    (found,) = build_report([signal], memory).candidates
    assert found.category == "UPDATE"
    assert found.related == "- **Do not deploy before the tests pass.** Run `make check` first."


def test_the_memory_reads_in_full_only_the_units_a_learning_is_compared_with() -> None:
    from consolidate.discover import samerule

    statements = [
        (
            "Deploy",
            "**After the tests pass, deploy the build right away** with `make deploy` so staging runs it.",
        ),
        ("Release", "Bump the version in `pyproject.toml` before tagging a release."),
        ("Style", "Keep functions short and name them for what they return."),
    ]
    samerule.read.cache_clear()
    memory = Memory(statements)
    assert samerule.read.cache_info().currsize == 0  # the index and the weights need only `content`
    found = memory.restating("Once all the tests pass, deploy it ASAP so we try it on staging.")
    assert found is not None and found.unit.members == (0,)
    # the principle and the one unit that shares two words with it; the others are never read in full
    assert samerule.read.cache_info().currsize == 2
    said = samerule.read(statements[0][1])
    told = samerule.content(statements[0][1])
    assert (said.stems, said.anchors, said.anchor_words) == (told.stems, told.anchors, told.anchor_words)
