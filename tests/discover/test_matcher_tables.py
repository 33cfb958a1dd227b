"""A Markdown table in a CLAUDE.md states one rule a row: the row's first cell is its subject, each
other cell says of it what its header names. The matcher finds a rule a row states (same subject,
same act, same polarity), never by shared words alone."""

from __future__ import annotations

import pytest

from consolidate.discover.matcher import Matcher
from consolidate.discover.samerule import read
from consolidate.discover.text import stems
from consolidate.discover.units import table_rows

VAULT = """# Vault

## Storage Modes

| Command | Mode | Why |
|---|---|---|
| export, archive | streamed `zstd` | Keeps memory use flat on huge vaults |
| import, sync -m | `rsync --checksum` | Exact bit-for-bit preservation |
| list, show | cached index | Fast listing without a disk scan |

## Testing

- Run `make check` before every push.
"""
IMPORT_ROW = "| import, sync -m | `rsync --checksum` | Exact bit-for-bit preservation |"


def test_a_row_reads_as_the_statement_its_cells_make_with_the_header() -> None:
    rows = table_rows(VAULT)
    assert [written for written, _, _ in rows][1] == IMPORT_ROW
    assert [statement for _, statement, _ in rows] == [
        "export, archive: Mode: streamed `zstd`; Why: Keeps memory use flat on huge vaults",
        "import, sync -m: Mode: `rsync --checksum`; Why: Exact bit-for-bit preservation",
        "list, show: Mode: cached index; Why: Fast listing without a disk scan",
    ]


def test_no_table_without_the_rule_under_its_header() -> None:
    assert table_rows("| a | b |\n| c | d |\n") == []


@pytest.mark.parametrize(
    "principle",
    [
        "A `vault import/sync` definitely needs to preserve user data.",
        "An import should preserve the user's files exactly.",
    ],
)
def test_a_requirement_a_row_states_is_recorded_and_quotes_the_row(principle: str) -> None:
    verdict = Matcher.of_texts([VAULT]).judge(principle)
    assert (verdict.category, verdict.related) == ("RECORDED", IMPORT_ROW)


@pytest.mark.parametrize(
    "principle",
    [
        "Import must preserve file timestamps.",  # the row says nothing of timestamps
        "List must preserve the user's data.",  # another row's subject
        "Export must preserve user data.",  # its row's act is another
        "The database import must preserve user data.",  # another subject that shares a word
        "Sync must never preserve old files.",  # the opposite polarity
        "Show must print the disk scan results.",  # another act said with its row's words
        "Show must never list cached entries.",  # the opposite of its row: never a row replaced by words
    ],
)
def test_a_look_alike_of_a_row_is_a_gap(principle: str) -> None:
    assert Matcher.of_texts([VAULT]).judge(principle).category == "FILL_GAP"


def test_a_row_said_in_its_own_words_is_recorded() -> None:
    verdict = Matcher.of_texts([VAULT]).judge("Use `rsync --checksum` for import and sync.")
    assert (verdict.category, verdict.related) == ("RECORDED", IMPORT_ROW)


@pytest.mark.parametrize(("verb", "noun"), [("preserve", "preservation"), ("install", "installation")])
def test_a_word_and_its_noun_are_one_word(verb: str, noun: str) -> None:
    assert read(verb).stems == read(noun).stems
    assert stems(verb) == stems(noun)


def test_a_row_recorded_is_quoted_as_its_row_not_its_table() -> None:
    verdict = Matcher.of_texts([VAULT]).judge("A `vault import` definitely needs to preserve user data.")
    assert verdict.quote == IMPORT_ROW


def test_every_row_of_a_long_table_is_read() -> None:
    rows = "".join(f"| step{n} | `tool{n}` | Keeps stage {n} apart |\n" for n in range(1, 14))
    long = (
        "## Stages\n\n| Stage | Tool | Why |\n|---|---|---|\n"
        + rows
        + "| publish | `twine upload` | Exact artifact preservation |\n"
    )
    verdict = Matcher.of_texts([long]).judge("Publish must preserve the user's files.")
    assert (verdict.category, verdict.related) == (
        "RECORDED",
        "| publish | `twine upload` | Exact artifact preservation |",
    )
