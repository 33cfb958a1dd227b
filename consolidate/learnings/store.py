"""The episodes file of one project: `<state dir>/learnings/<project key>/episodes.jsonl`.

Writers hold an advisory lock on a sibling `.lock` file while they read, allocate an id and append, so
concurrent captures never share an id. Each record is one `write` of one line on an O_APPEND handle,
then fsync; a torn last line from a crash is skipped on read and the next append starts a fresh line.
"""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from ..capture.places import project_key, repo_root
from ..errors import UsageError
from . import manifest
from .episodes import IMPACT, TYPES, Episode, Trigger, bump_event, confirm_event, fold, status_event
from .guards import GLOBAL_ROOT, sync_marker
from .scoring import find_duplicate

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


EPISODES_FILE = manifest.EPISODES_FILE
GLOBAL_STORE = "global"


def store_path(state_dir: Path, project: str | os.PathLike[str] | None) -> Path:
    """A project's episodes file (keyed like its queue bucket); `None` is the global store."""
    key = GLOBAL_STORE if project is None else project_key(repo_root(project))
    return state_dir / "learnings" / key / EPISODES_FILE


def open_store(state_dir: Path, project: str | os.PathLike[str] | None) -> EpisodeStore:
    """The store of a project (or the global store), knowing the root its guard marker names."""
    root = GLOBAL_ROOT if project is None else str(repo_root(project))
    return EpisodeStore(store_path(state_dir, project), root=root)


def stamp(now: datetime) -> str:
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class EpisodeStore:
    def __init__(self, path: Path, root: str | None = None) -> None:
        self.path = path
        self.root = root  # the project root (or `*`) its guard marker names; None: no marker kept

    def records(self) -> Iterator[dict[str, Any]]:
        try:
            handle = self.path.open("rb")
        except FileNotFoundError:
            return
        with handle:
            for line in handle:
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError):
                    continue  # a torn or hand-broken line: skipped, never fatal
                if isinstance(record, dict):
                    yield record

    def episodes(self) -> dict[str, Episode]:
        return fold(self.records())

    def get(self, identifier: str) -> Episode:
        episodes = self.episodes()
        wanted = identifier.strip().upper()
        if wanted not in episodes:
            raise UsageError(f"no episode {identifier} in {self.path}")
        return episodes[wanted]

    @contextmanager
    def locked(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "a") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            yield
            self.sync_guard_marker()
            with suppress(OSError):  # the hook then finds it stale and reads the episodes itself
                manifest.rebuild(self.path)

    def sync_guard_marker(self) -> None:
        """Keep the guard marker (read by the shell launcher) in step with the episodes."""
        if self.root is not None:
            sync_marker(self.path.parent, self.root, self.episodes().values())

    def append(self, record: dict[str, Any]) -> None:
        from ..secrets import redact_data
        from ..transcripts.state import encode_json

        line = encode_json(redact_data(record)) + b"\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size and not _ends_with_newline(self.path):
                line = b"\n" + line
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def capture(self, data: dict[str, Any], now: datetime) -> tuple[Episode, bool]:
        """Record a new episode, or bump the live one with a near-duplicate rule; (episode, is_new)."""
        draft = episode_from_input(data)
        with self.locked():
            episodes = self.episodes()
            if draft.origin and any(e.origin == draft.origin for e in episodes.values()):
                return next(e for e in episodes.values() if e.origin == draft.origin), False
            duplicate = find_duplicate(draft.rule, episodes.values())
            if duplicate is not None:
                self.append(bump_event(duplicate.id, stamp(now)))
                return self.episodes()[duplicate.id], False
            draft.id, draft.ts = next_id(episodes, now), stamp(now)
            self.append(draft.to_record())
            return draft, True

    def bump(self, identifier: str, now: datetime) -> Episode:
        with self.locked():
            episode = self.get(identifier)
            self.append(bump_event(episode.id, stamp(now)))
            return self.episodes()[episode.id]

    def confirm(self, identifier: str, now: datetime) -> Episode:
        """The user's word that a guard lesson the assistant wrote may deny calls from now on."""
        with self.locked():
            episode = self.get(identifier)
            if episode.trigger is None or not episode.trigger.guard:
                raise UsageError(f"{episode.id} is not a guard lesson; there is nothing to confirm")
            if not episode.confirmed:
                self.append(confirm_event(episode.id, stamp(now)))
            return self.episodes()[episode.id]

    def set_status(self, identifier: str, status: str, now: datetime) -> Episode:
        with self.locked():
            episode = self.get(identifier)
            if episode.status != status:
                self.append(status_event(episode.id, status, stamp(now)))
            return self.episodes()[episode.id]


def next_id(episodes: dict[str, Episode], now: datetime) -> str:
    prefix = "EP-" + now.astimezone(UTC).strftime("%Y%m%d") + "-"
    taken = [int(i[len(prefix) :]) for i in episodes if i.startswith(prefix) and i[len(prefix) :].isdigit()]
    return f"{prefix}{max(taken, default=0) + 1:03d}"


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def episode_from_input(data: object) -> Episode:
    """Validate a capture's JSON object; secrets in any text are redacted before it is stored."""
    from ..secrets import only_secret, redact  # captures are rare; hooks that only read lessons skip it

    if not isinstance(data, dict):
        raise UsageError('an episode is a JSON object with at least a "rule"')
    rule = data.get("rule")
    if not isinstance(rule, str) or not rule.strip():
        raise UsageError('an episode needs a non-empty "rule" (the rule for the future)')
    impact = data.get("impact", "medium")
    if impact not in IMPACT:
        raise UsageError(f"impact must be one of {', '.join(IMPACT)} (got {impact!r})")
    kind = data.get("type", "correction")
    if kind not in TYPES:
        raise UsageError(f"type must be one of {', '.join(TYPES)} (got {kind!r})")
    if only_secret(rule):
        raise UsageError("the rule is only a secret (token, password or key); it is never recorded")
    trigger = data.get("trigger")
    if trigger is not None and not isinstance(trigger, dict):
        raise UsageError('"trigger" is an object: {"tool", "command", "path", "project", "guard"}')
    clean = {
        k: redact(v) if isinstance(v, str) else v
        for k, v in data.items()
        if k not in ("id", "ts", "op", "confirmed")  # only `learnings confirm` confirms a guard
    }
    clean["tags"] = (
        [redact(str(t)) for t in data.get("tags") or []] if isinstance(data.get("tags"), list) else []
    )
    episode = Episode.from_record({**clean, "id": "new", "ts": "", "freq": 1, "status": "active"})
    if episode is None:
        raise UsageError('an episode needs a non-empty "rule"')
    episode.trigger = Trigger.from_record(trigger)
    problem = episode.trigger.problem() if episode.trigger else None
    if problem:
        raise UsageError(problem)
    return episode
