from __future__ import annotations

import subprocess
from pathlib import Path

from consolidate.capture import places
from consolidate.settings import state_dir
from memory_layout import paths
from tests.helpers.gitrepo import GitRepo


def test_light_path_rules_agree_with_memory_layout(tmp_path: Path) -> None:
    odd = tmp_path / "my.proj_dir v2"
    odd.mkdir()
    env = {"HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}
    assert places.project_key(odd) == paths.project_key(odd)
    assert places.claude_home(None, env) == paths.claude_home(None, env)
    assert places.claude_home(None, {"HOME": str(tmp_path)}) == paths.claude_home(
        None, {"HOME": str(tmp_path)}
    )
    home = tmp_path / "cfg"
    assert places.state_root(home, {}) == state_dir(home, {})
    assert places.state_root(home, {"CONSOLIDATE_STATE_DIR": "/x"}) == state_dir(
        home, {"CONSOLIDATE_STATE_DIR": "/x"}
    )


def test_memory_and_transcript_dirs_follow_git_root_and_cwd(git_repo: GitRepo, tmp_path: Path) -> None:
    sub = git_repo.path / "pkg"
    sub.mkdir()
    home = tmp_path / "cfg"
    layout = paths.resolve_layout(sub, home=home)
    assert places.memory_dir(home, sub) == layout.memory_dir
    assert places.transcripts_dir(home, sub) == layout.transcripts_dir


def test_worktree_resolves_to_the_main_checkout(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("a.txt", "a")
    git_repo.commit("init")
    worktree = tmp_path / "wt"
    git_repo.git("worktree", "add", "-q", str(worktree), "-b", "feature")
    (worktree / "deep").mkdir()
    assert places.repo_root(worktree / "deep") == git_repo.path.resolve()
    assert places.repo_root(git_repo.path) == git_repo.path.resolve()
    assert places.git_root(worktree) == worktree.resolve()


def test_outside_git_the_directory_is_its_own_root(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert places.repo_root(plain) == plain.resolve()
    assert subprocess.run(["git", "-C", str(plain), "rev-parse"], capture_output=True).returncode != 0
