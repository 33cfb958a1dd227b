"""Capture and hook settings from TOML: `<state dir>/config.toml`, then `<repo>/.consolidate.toml`.

The project file wins key by key. A file that does not parse is skipped with a message (hooks log it),
never an error: a typo in a config file must not break a session.
"""

from __future__ import annotations

from ..lazyre import lazy
from ..plain import Frozen, replace

TYPE_CHECKING = False  # not `typing`: the hooks import this module
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

USER_CONFIG = "config.toml"
PROJECT_CONFIG = ".consolidate.toml"
LEARNING = "learning"
CHANNEL_NAME = lazy(r"^[a-z][a-z0-9_-]{0,39}$")
LEARNING_SIGNAL = (
    "{n} learning(s) pending — fold them into memory with `consolidate dream` "
    "(the dream proposes each as a reviewable change and acks it once applied or rejected)"
)

# TOML table → (Config field, key in the table)
_NUMBERS = {
    "reminder": {
        "hours": "reminder_hours",
        "sessions": "reminder_sessions",
        "cooldown_hours": "reminder_cooldown_hours",
    },
    "inject": {"max_lessons": "inject_max_lessons", "max_bytes": "inject_max_bytes"},
    "watchdog": {"assistant_turns": "watchdog_turns", "user_chars": "watchdog_chars"},
    "session_start": {"top_lessons": "top_lessons"},
    "periodic": {
        "enabled": "periodic_enabled",
        "timeout_minutes": "periodic_timeout_minutes",
        "refresh_hours": "periodic_refresh_hours",
        "nice": "periodic_nice",
    },
    "recall": {
        "auto": "recall_auto",
        "max_hits": "recall_max_hits",
        "max_bytes": "recall_max_bytes",
        "refresh_minutes": "recall_refresh_minutes",
    },
}


class Config(Frozen):
    """Every knob of capture and the hooks, with the defaults of the spec."""

    __slots__ = FIELDS = (
        "channels", "reminder_hours", "reminder_sessions", "reminder_cooldown_hours", "inject_max_lessons",
        "inject_max_bytes", "watchdog_turns", "watchdog_chars", "top_lessons", "periodic_enabled",
        "periodic_timeout_minutes", "periodic_refresh_hours", "periodic_nice", "periodic_engine",
        "recall_auto", "recall_max_hits", "recall_max_bytes", "recall_refresh_minutes", "problems",
    )  # fmt: skip
    channels: dict[str, str]
    reminder_hours: float
    reminder_sessions: int
    reminder_cooldown_hours: float
    inject_max_lessons: int
    inject_max_bytes: int
    watchdog_turns: int
    watchdog_chars: int
    top_lessons: int
    periodic_enabled: bool
    periodic_timeout_minutes: float
    periodic_refresh_hours: float
    periodic_engine: str
    periodic_nice: int
    recall_auto: bool
    recall_max_hits: int
    recall_max_bytes: int
    recall_refresh_minutes: float
    problems: tuple[str, ...]

    def __init__(
        self,
        channels: dict[str, str] | None = None,
        reminder_hours: float = 24.0,
        reminder_sessions: int = 5,
        reminder_cooldown_hours: float = 12.0,
        inject_max_lessons: int = 3,
        inject_max_bytes: int = 4096,
        watchdog_turns: int = 2,
        watchdog_chars: int = 1000,
        top_lessons: int = 5,
        periodic_enabled: bool = True,  # SessionEnd prepares a pending plan when the reminder is due
        periodic_timeout_minutes: float = 30.0,
        periodic_refresh_hours: float = 24.0,  # a pending plan younger than this is not prepared again
        periodic_nice: int = 10,
        periodic_engine: str = "",  # "" = $CONSOLIDATE_ENGINE, else offline
        recall_auto: bool = False,
        recall_max_hits: int = 3,
        recall_max_bytes: int = 2048,
        recall_refresh_minutes: float = 30.0,
        problems: tuple[str, ...] = (),
    ) -> None:
        self._set(
            channels={LEARNING: LEARNING_SIGNAL} if channels is None else channels,
            reminder_hours=reminder_hours,
            reminder_sessions=reminder_sessions,
            reminder_cooldown_hours=reminder_cooldown_hours,
            inject_max_lessons=inject_max_lessons,
            inject_max_bytes=inject_max_bytes,
            watchdog_turns=watchdog_turns,
            watchdog_chars=watchdog_chars,
            top_lessons=top_lessons,
            periodic_enabled=periodic_enabled,
            periodic_timeout_minutes=periodic_timeout_minutes,
            periodic_refresh_hours=periodic_refresh_hours,
            periodic_nice=periodic_nice,
            periodic_engine=periodic_engine,
            recall_auto=recall_auto,
            recall_max_hits=recall_max_hits,
            recall_max_bytes=recall_max_bytes,
            recall_refresh_minutes=recall_refresh_minutes,
            problems=problems,
        )

    def signal(self, channel: str, count: int) -> str:
        template = (
            self.channels.get(channel)
            or f"{{n}} {channel} item(s) pending — drain them with `consolidate dream`"
        )
        return template.replace("{n}", str(count))


_DEFAULTS = Config()


def load_config(state_dir: Path, repo: Path | None) -> Config:
    """The user's config overlaid by the project's."""
    config = Config()
    for path in (state_dir / USER_CONFIG, (repo / PROJECT_CONFIG) if repo else None):
        if path is not None and path.is_file():
            config = _overlay(config, path)
    return config


def _overlay(config: Config, path: Path) -> Config:
    import tomllib  # only when a config file exists: its parser costs milliseconds on every hook

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return replace(config, problems=(*config.problems, f"{path}: skipped, {exc}"))
    problems = list(config.problems)
    changes: dict[str, Any] = {"channels": _channels(config.channels, data.get("channels"), path, problems)}
    for table, keys in _NUMBERS.items():
        section = data.get(table)
        if not isinstance(section, dict):
            continue
        for key, attribute in keys.items():
            value, kind = section.get(key), _field_type(attribute)
            number = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
            if isinstance(value, bool) if kind is bool else number:
                changes[attribute] = kind(value)
            elif value is not None:
                expected = "true or false" if kind is bool else "a non-negative number"
                problems.append(f"{path}: [{table}] {key} must be {expected}")
    periodic = data.get("periodic")
    if isinstance(periodic, dict) and "engine" in periodic:
        if isinstance(periodic["engine"], str):
            changes["periodic_engine"] = periodic["engine"].strip()
        else:
            problems.append(f'{path}: [periodic] engine must be a string such as "offline"')
    return replace(config, problems=tuple(problems), **changes)


def _channels(current: dict[str, str], declared: object, path: Path, problems: list[str]) -> dict[str, str]:
    channels = dict(current)
    if declared is None:
        return channels
    if not isinstance(declared, dict):
        problems.append(f"{path}: [channels] must be a table of channel tables")
        return channels
    for name, spec in declared.items():
        if not CHANNEL_NAME.match(name):
            problems.append(f"{path}: channel name {name!r} must be lowercase letters, digits, - or _")
            continue
        signal = spec.get("signal") if isinstance(spec, dict) else None
        channels[name] = signal if isinstance(signal, str) and signal else channels.get(name, "")
    return channels


def _field_type(attribute: str) -> type:
    """The type of a numeric or boolean field, as its default has it."""
    default = getattr(_DEFAULTS, attribute, 0.0)
    return bool if isinstance(default, bool) else type(default)
