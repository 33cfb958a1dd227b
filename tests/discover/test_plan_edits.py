"""A plan the user edits before approving it: the standing rules they wrote into it are signals."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from consolidate.discover import discover
from consolidate.discover.discover import build_report
from consolidate.discover.planedits import EDITED_MARK, added_lines, plan_rules
from consolidate.discover.signals import Signal
from consolidate.evaluate.synthetic_sessions import SessionWriter, write_session
from consolidate.settings import load_settings
from tests.helpers.signals import signals_in

PROPOSED = """# Plan: split the parser

## Context
The parser module has grown past a thousand lines.

## Steps
1. Move the tokenizer into `lexer.rs`
2. Rename `parse_all` to `parse_document`
3. Run the test suite
"""


def _signals(tmp_path: Path, writer: SessionWriter, *, lean: bool = True) -> list[Signal]:
    write_session(tmp_path, writer)
    return signals_in(tmp_path, lean=lean)


def _edited(*added: str, changed: dict[str, str] | None = None) -> str:
    text = PROPOSED
    for old, new in (changed or {}).items():
        text = text.replace(old, new)
    return text.replace("## Steps\n", "## Steps\n" + "".join(f"{line}\n" for line in added))


def test_a_standing_rule_added_to_a_plan_is_a_signal_worded_from_the_users_line(tmp_path: Path) -> None:
    writer = SessionWriter("p1")
    writer.user("split the parser into smaller modules")
    _, approval = writer.plan(
        PROPOSED, _edited("0. Step 0: always open a feature branch before touching code")
    )
    writer.assistant("Starting with the branch.")
    for lean in (True, False):
        (signal,) = _signals(tmp_path, writer, lean=lean)
        assert (signal.kind, signal.uuid, signal.standing) == ("preference", approval, True)
        assert signal.principle == "Always open a feature branch before touching code"
    (candidate,) = build_report(_signals(tmp_path, writer)).candidates
    assert candidate.principle.startswith("Always open a feature branch before touching code")


def test_rules_added_in_other_languages_are_signals(tmp_path: Path) -> None:
    writer = SessionWriter("p2")
    writer.plan(
        PROPOSED,
        _edited(
            "- **Шаг 0:** никогда не коммить напрямую в main",
            "- 每次修改解析器以后都要更新 CHANGELOG",
            "- Her seferinde birleştirmeden önce `cargo clippy` çalıştır",
            "- Her seferinde merge öncesi sonuçları PR'a ekle",
        ),
    )
    principles = [s.principle for s in _signals(tmp_path, writer)]
    kept = [c.principle for c in build_report(_signals(tmp_path, writer)).candidates]
    assert sorted(kept) == sorted(principles)  # worded as the user wrote it: no English article mended in
    assert principles == [
        "Никогда не коммить напрямую в main",
        "每次修改解析器以后都要更新 CHANGELOG",
        "Her seferinde birleştirmeden önce `cargo clippy` çalıştır",
        "Her seferinde merge öncesi sonuçları PR'a ekle",
    ]


def test_one_off_steps_the_user_adds_or_rewords_are_no_signal(tmp_path: Path) -> None:
    writer = SessionWriter("p3")
    writer.plan(
        PROPOSED,
        _edited(
            "0. Delete the unused `legacy.rs` first",
            "```sh\n# always run this\ncargo build --all\n```",
            changed={"3. Run the test suite": "3. Run the test suite with `--release`"},
        ),
    )
    assert _signals(tmp_path, writer) == []


def test_a_rule_the_assistant_proposed_itself_is_not_the_users(tmp_path: Path) -> None:
    proposed = PROPOSED + "4. Always run `cargo fmt` before committing\n"
    writer = SessionWriter("p4")
    writer.plan(proposed, proposed.replace("4. Always", "4. always") + "5. Update the docs\n")
    writer.plan(PROPOSED)  # approved as proposed
    assert _signals(tmp_path, writer) == []


def test_lines_only_moved_are_not_added() -> None:
    lines = PROPOSED.splitlines()
    moved = "\n".join([*lines[:6], lines[8], lines[6], lines[7]])
    assert added_lines(PROPOSED, moved) == []
    assert plan_rules(PROPOSED, PROPOSED + "\n- Why do you never run the tests?\n") == []


def test_an_edited_plan_in_a_subagent_or_a_rejected_plan_is_no_signal(tmp_path: Path) -> None:
    writer = SessionWriter("p5")
    _, ids = writer.assistant(tools=[("ExitPlanMode", {"plan": PROPOSED})])
    writer.reject(ids[0], "no, always ask before splitting modules")
    found = _signals(tmp_path, writer)
    assert all(s.kind == "rejection" for s in found)


def test_a_plan_approved_after_a_scan_is_read_against_the_plan_carried_over(
    tmp_path: Path, claude_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    settings = load_settings(project, home=claude_home)
    directory = settings.layout.transcripts_dir
    writer = SessionWriter("live", start=datetime.now(UTC) - timedelta(hours=1))
    writer.user("split the parser into smaller modules")
    _, ids = writer.assistant(tools=[("ExitPlanMode", {"plan": PROPOSED})])
    write_session(directory, writer)
    since = datetime(2026, 1, 1, tzinfo=UTC)
    assert discover(settings, since=since).candidates == []  # the plan awaits approval
    edited = _edited("0. Always open a feature branch before touching code")
    writer.tool_result(ids[0], f"User has approved your plan.\n\n{EDITED_MARK}\n{edited}")
    writer.assistant("Starting with the branch.")
    write_session(directory, writer)
    report = discover(settings, since=since)
    assert report.stats["files_appended"] == 1
    assert [c.principle for c in report.candidates] == ["Always open a feature branch before touching code"]


@pytest.mark.parametrize(
    "line",
    [
        "- The cache is invalidated whenever a rate changes",
        "- By default the CLI prints JSON",
        "2. Make the parser always return a Result",
        "- Always-on logging is added to the server",
        "- Update tests each time the API changes in this PR",
        "- Whenever a rate changes, the cache is dropped",
        "- In future work we can add caching",
        "- Каждый раз при запуске сервер читает конфиг",
        "- 每次启动时服务器读取配置",
        "- 默认情况下返回空列表",
        "- Varsayılan olarak çıktı JSON olur",
        "- Note: the cache is always warm",
        "- After the refactor, the parser never allocates",
    ],
)
def test_a_line_that_says_how_the_code_behaves_is_this_plan_not_a_rule(line: str) -> None:
    assert plan_rules(PROPOSED, f"{PROPOSED}{line}\n") == []


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("- Run `make lint` before every commit", "Run `make lint` before every commit"),
        ("- We always squash commits before merging", "We always squash commits before merging"),
        ("- From now on, write the plan to notes/ first", "Write the plan to notes/ first"),
        (
            "- Whenever the schema changes, regenerate the ERD",
            "Whenever the schema changes, regenerate the ERD",
        ),
        ("- Всегда запускай тесты перед коммитом", "Всегда запускай тесты перед коммитом"),
        ("- Bundan sonra her PR için changelog güncellenmeli", "Her PR için changelog güncellenmeli"),
        ("- Впредь всегда пиши план в notes/", "Всегда пиши план в notes/"),
        ("- Before merging: always run `make bench`", "Always run `make bench` before merging"),
        ("- Setup: always create the branch first", "Always create the branch first"),
        ("- Перед коммитом: всегда запускай тесты", "Перед коммитом, всегда запускай тесты"),
    ],
)
def test_a_standing_order_in_any_form_is_a_rule(line: str, rule: str) -> None:
    assert plan_rules(PROPOSED, f"{PROPOSED}{line}\n") == [(line, rule)]
