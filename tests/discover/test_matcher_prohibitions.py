"""The matcher against real memory shapes: a rule stated across two statements whose clauses look
opposed, a narrower word said by a broader one, a document's requirement the memory already states,
and a rule that would have the assistant do what the memory forbids it."""

from __future__ import annotations

import pytest

from consolidate.discover.matcher import Matcher

BRANCHES = (
    "## Workflow\n\n"
    "- All non-trivial changes must be on a feature branch — never commit directly to `main`.\n"
    "- Force-pushing is fine on feature branches. Never force-push to `main`.\n"
)

FORBIDDEN_LIST = (
    "## Operations the assistant cannot perform\n\n"
    "Because the release scripts read the tags, the assistant cannot perform these operations:\n\n"
    "- `git push --force` - rewrites shared history\n"
    "- Deleting release tags\n"
    "- Amending commits that hold generated files\n\n"
    "The user performs these by hand.\n"
)


@pytest.mark.parametrize(
    "principle",
    [
        # the rule in one bullet whose other clause ("never commit directly …") looks opposed, the
        # cause ("force-pushing `main` is bad form") in the other bullet
        "On all non-trivial commits we should work on a branch as force-pushing `main` is bad form",
        # the same rule, clause by clause, across the two bullets
        "Put every non-trivial commit on a feature branch and never force-push to `main`",
    ],
)
def test_a_rule_spread_over_two_statements_with_a_clause_that_looks_opposed_is_recorded(
    principle: str,
) -> None:
    found = Matcher.of_texts([BRANCHES]).judge(principle)
    assert found.category == "RECORDED"
    assert found.related.startswith("- All non-trivial changes must be on a feature branch")


def test_a_negation_still_opposes_what_it_is_said_of() -> None:
    known = Matcher.of_texts([BRANCHES])
    assert known.judge("Commit directly to `main` for trivial fixes").category == "CONTRADICT"


def test_a_true_new_rule_near_the_words_of_the_branch_rules_is_still_proposed() -> None:
    known = Matcher.of_texts([BRANCHES])
    for principle in (
        "Run the benchmarks on a feature branch before every non-trivial commit",
        "Run the benchmarks on a feature branch before merging",
    ):
        assert known.judge(principle).category not in ("RECORDED", "CONTRADICT", "FORBIDDEN"), principle


def test_commits_are_said_by_changes_never_the_other_way_round() -> None:
    changes = Matcher.of_texts(["- All non-trivial changes go on a feature branch.\n"])
    assert changes.judge("Put every non-trivial commit on a feature branch").category == "RECORDED"
    commits = Matcher.of_texts(["- Every commit is signed with the release key.\n"])
    assert commits.judge("Sign every change with the release key").category != "RECORDED"


def test_a_rule_ordering_a_forbidden_item_is_forbidden_and_quotes_the_prohibition() -> None:
    known = Matcher.of_texts([FORBIDDEN_LIST])
    found = known.judge("Delete the release tags before re-tagging a version")
    assert (found.category, found.quote, found.related) == (
        "FORBIDDEN",
        "Deleting release tags",
        "- Deleting release tags",
    )
    amend = known.judge("Amend generated files into the commit before bumping the version")
    assert (amend.category, amend.quote) == ("FORBIDDEN", "Amending commits that hold generated files")
    push = known.judge("Run `git push --force` after a rebase")
    assert (push.category, push.quote) == ("FORBIDDEN", "`git push --force` - rewrites shared history")


def test_what_the_user_does_or_a_rule_that_forbids_it_too_is_not_forbidden() -> None:
    known = Matcher.of_texts([FORBIDDEN_LIST])
    assert known.judge("Never delete release tags").category == "RECORDED"  # agrees with the list
    for principle in (
        "Remind the user to delete release tags before re-tagging",  # the user does it
        "The user deletes release tags before re-tagging",
        "Create release tags only from the main branch",  # a true new rule near those words
        "Amend the commit message to fix a typo",  # another object of the same verb
    ):
        assert known.judge(principle).category not in ("RECORDED", "FORBIDDEN", "CONTRADICT"), principle


def test_a_never_rule_forbids_its_action_said_of_the_same_thing() -> None:
    known = Matcher.of_texts([BRANCHES])
    found = known.judge("Force-push to `main` after a rebase")
    assert (found.category, found.quote) == ("FORBIDDEN", "Never force-push to `main`")
    assert known.judge("Force-push the feature branch after a rebase").category != "FORBIDDEN"


def test_what_a_document_must_make_clear_is_recorded_where_the_memory_states_it() -> None:
    known = Matcher.of_texts(
        ["## Conventions\n\n- **Granularity:** builds are configured per package, not per crate.\n"]
    )
    found = known.judge("The README needs to be clear that builds are configured per package, not per crate")
    assert found.category == "RECORDED"
    assert found.related == "- **Granularity:** builds are configured per package, not per crate."
    for principle in (
        "The README needs to mention the `--mp` flag",  # a document task the memory does not state
        "The README needs to be clear that `tspec` never touches `Cargo.lock`",
    ):
        assert known.judge(principle).category != "RECORDED", principle


@pytest.mark.parametrize(
    ("item", "quote"),
    [
        ("- Never stage the `.cache/` files", "Never stage the `.cache/` files"),
        ("- Don't stage the `.cache/` files", "Don't stage the `.cache/` files"),
        ("- Do not stage the `.cache/` files", "Do not stage the `.cache/` files"),
        ("- **Never** stage the `.cache/` files", "Never stage the `.cache/` files"),
        ("1. **Do not** stage the `.cache/` files", "Do not stage the `.cache/` files"),
    ],
)
def test_a_list_item_opening_with_never_is_a_prohibition(item: str, quote: str) -> None:
    known = Matcher.of_texts([f"## Housekeeping\n\n{item}\n- Keep the changelog short.\n"])
    found = known.judge("Stage the `.cache/` files with every change")
    assert (found.category, found.quote) == ("FORBIDDEN", quote)
    # the same prohibition in other words is recorded, never forbidden
    assert known.judge("Never stage the `.cache/` files").category == "RECORDED"
    # a reminder to the user, or the item's action said of something else, breaks nothing
    assert known.judge("Remind the user to stage the `.cache/` files").category != "FORBIDDEN"
    assert known.judge("Stage the lockfile with every change").category != "FORBIDDEN"


@pytest.mark.parametrize(
    "known",
    [
        "## Housekeeping\n\n- Do not stage the `.cache/` files\n- Keep the changelog short.\n",
        "## Housekeeping\n\n- Never stage the `.cache/` files\n- Keep the changelog short.\n",
        "## Housekeeping\n\nNever stage the `.cache/` files.\n",
    ],
)
def test_another_act_on_what_a_prohibition_names_is_neither_recorded_nor_its_update(known: str) -> None:
    # "prune the cache files" shares the prohibition's object, not its act: a rule of its own
    found = Matcher.of_texts([known]).judge("Prune the `.cache/` files before tagging a release")
    assert found.category == "FILL_GAP", found


def test_a_permission_of_what_a_list_item_forbids_contradicts_it() -> None:
    known = Matcher.of_texts(["## Releases\n\n- Never tag a release from a fork.\n- Sign the tags.\n"])
    assert known.judge("Tagging a release from a fork is fine").category == "CONTRADICT"
    assert known.judge("Tag the release from a fork").category == "FORBIDDEN"


WRAPPER = (
    "## Build Commands\n\n"
    "**Always build through `mk` itself.** Never use bare `npm test`, `npm run lint` or `npm publish` — "
    "use the mk equivalents.\n\n"
    "```bash\n"
    "mk test            # Run the tests (NEVER npm test)\n"
    "mk publish         # Publish a release (NEVER npm publish)\n"
    "```\n"
)


@pytest.mark.parametrize(
    "principle",
    [
        "Use mk test instead of npm test",  # the alternative it rules out is what the memory forbids
        "Use `mk publish` instead of `npm publish`",
        "Use `mk test` rather than `npm test`",
        "Use mk lint, not the npm lint script",  # a word of a forbidden command is not the command
    ],
)
def test_a_rule_that_rules_out_what_the_memory_forbids_is_never_forbidden(principle: str) -> None:
    found = Matcher.of_texts([WRAPPER]).judge(principle)
    assert found.category != "FORBIDDEN", found
    assert found.category in ("RECORDED", "UPDATE", "FILL_GAP")


@pytest.mark.parametrize(
    "principle",
    ["Use `npm test` to run the suite", "Use npm test before every push"],
)
def test_a_rule_that_orders_the_forbidden_command_is_still_forbidden(principle: str) -> None:
    found = Matcher.of_texts([WRAPPER]).judge(principle)
    assert found.category == "FORBIDDEN"
    assert "npm" in found.quote
