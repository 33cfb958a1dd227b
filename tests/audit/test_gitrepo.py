from __future__ import annotations

from pathlib import Path

from consolidate.gitrepo import GitRepo
from tests.audit.conftest import Project


def test_not_a_repository_gives_none(tmp_path: Path) -> None:
    assert GitRepo.find(tmp_path) is None


def test_tracked_files_and_grep(project: Project) -> None:
    repo = GitRepo.find(project.repo.path)
    assert repo is not None
    assert "src/shop/routes.py" in repo.tracked_files and "src/shop/legacy.py" not in repo.tracked_files
    assert repo.grep_words(["read_cart", "load_cart", "InvoiceService", "old_tax"]) == {
        "read_cart",
        "InvoiceService",
    }


def test_renames_and_deletions_from_history(project: Project) -> None:
    repo = GitRepo.find(project.repo.path)
    assert repo is not None
    events = {(e.kind, e.old, e.new) for e in repo.path_events}
    assert ("R", "src/shop/handlers.py", "src/shop/routes.py") in events
    assert ("D", "src/shop/legacy.py", "") in events
    deleted = next(e for e in repo.path_events if e.kind == "D")
    assert deleted.commit.subject == "Rename handlers, drop legacy tax, read_cart"
    assert deleted.commit.date.date().isoformat() == "2026-02-10"


def test_removals_find_the_commit_and_the_replacing_line(project: Project) -> None:
    repo = GitRepo.find(project.repo.path)
    assert repo is not None
    found = repo.removals(["load_cart", "old_tax", "never_existed"])
    assert set(found) == {"load_cart", "old_tax"}
    assert any("read_cart" in line for line in found["load_cart"].added)


def test_line_dates_log_and_recent(project: Project) -> None:
    repo = GitRepo.find(project.repo.path)
    assert repo is not None
    dates = repo.line_dates("src/shop/orders.py")
    assert dates[1].date().isoformat() == "2026-01-05" and dates[5].date().isoformat() == "2026-02-10"
    assert [c.subject for c in repo.log_path("src/shop/routes.py")][-1] == "Initial shop"
    assert repo.file_date("src/shop/billing.py") is not None and repo.file_date("nope.py") is None
    assert len(repo.recent()) == 2


def test_many_words_are_scanned_with_the_same_answer(project: Project) -> None:
    repo = GitRepo.find(project.repo.path)
    assert repo is not None
    words = ["read_cart", "load_cart", "InvoiceService", "old_tax"] + [f"absent_{n}" for n in range(20)]
    project.repo.write("CLAUDE.md", "mentions absent_3 only in docs\n")
    project.repo.commit("docs")
    assert repo.grep_words(words, exclude=["**/CLAUDE.md"]) == {"read_cart", "InvoiceService"}
    assert "absent_3" in repo.grep_words(words)
