from __future__ import annotations

from pathlib import Path

import pytest

from consolidate.capture import queue as q
from consolidate.capture.config import Config
from consolidate.errors import UsageError
from tests.helpers.gitrepo import GitRepo


@pytest.fixture
def queue(tmp_path: Path) -> q.Queue:
    return q.Queue(tmp_path / "state" / q.QUEUE_FILE)


def test_item_id_is_sha256_of_channel_nul_payload() -> None:
    import hashlib

    assert q.item_id("learning", "x") == hashlib.sha256(b"learning\0x").hexdigest()
    assert q.NewItem("learning", "x").id != q.NewItem("profile-fact", "x").id


def test_enqueue_once_and_ack_never_returns(queue: q.Queue) -> None:
    items = [q.NewItem("learning", "use uv — the system python lacks deps"), q.NewItem("learning", "b")]
    assert len(queue.enqueue("/repo", items)) == 2
    assert queue.enqueue("/repo", items) == []
    pending = queue.pending("/repo")
    assert [p["payload"] for p in pending] == [i.payload for i in items]
    assert set(pending[0]) >= {"id", "channel", "payload", "created_at", "source"}
    assert queue.ack("/repo", [items[0].id]) == [items[0].id]
    assert queue.enqueue("/repo", items) == []  # acked: processed, never re-queued
    assert [p["id"] for p in queue.pending("/repo")] == [items[1].id]
    assert queue.ack("/repo", [items[0].id]) == []  # a second ack is a no-op


def test_buckets_are_isolated_and_counted_per_channel(queue: q.Queue) -> None:
    queue.enqueue(
        "/a", [q.NewItem("learning", "x"), q.NewItem("profile-fact", "y"), q.NewItem("learning", "z")]
    )
    queue.enqueue("/b", [q.NewItem("learning", "x")])
    assert queue.counts("/a") == {"learning": 2, "profile-fact": 1}
    assert queue.counts("/b") == {"learning": 1}
    assert [p["payload"] for p in queue.pending("/a", "profile-fact")] == ["y"]
    queue.ack("/a", [q.item_id("learning", "x")])
    assert queue.counts("/b") == {"learning": 1}


def test_resolve_prefix_unknown_and_ambiguous(queue: q.Queue) -> None:
    payloads = [f"p{i}" for i in range(40)]  # 40 ids: some share a first hex digit
    queue.enqueue("/r", [q.NewItem("learning", p) for p in payloads])
    ids = [q.item_id("learning", p) for p in payloads]
    assert queue.resolve("/r", ids[0][:12]) == ids[0]
    assert queue.resolve("/r", ids[0].upper()) == ids[0]
    shared = next(i[0] for i in ids if sum(j[0] == i[0] for j in ids) > 1)
    with pytest.raises(UsageError, match="ambiguous"):
        queue.resolve("/r", shared)
    with pytest.raises(UsageError, match="no pending item"):
        queue.resolve("/r", "0" * 64)
    with pytest.raises(UsageError, match="hexadecimal"):
        queue.resolve("/r", "xyz")


def test_pending_signal_names_the_count() -> None:
    config = Config(channels={"learning": q.Config().channels["learning"], "profile-fact": ""})
    assert config.signal("learning", 2).startswith("2 learning(s) pending — ")
    assert config.signal("profile-fact", 1).startswith("1 profile-fact item(s) pending")


def test_library_api_shares_a_bucket_across_worktrees(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("a", "a")
    git_repo.commit("init")
    worktree = tmp_path / "wt"
    git_repo.git("worktree", "add", "-q", str(worktree), "-b", "f")
    with q.open_queue() as queue:
        queue.enqueue(q.bucket_for(worktree), [q.NewItem("learning", "shared")])
    items = q.pending_items(git_repo.path)
    assert [i["payload"] for i in items] == ["shared"]
    assert q.ack(worktree, [items[0]["id"]]) == [items[0]["id"]]
    assert q.pending_items(git_repo.path) == []
