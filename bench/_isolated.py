"""An isolated HOME, Claude config dir, state dir and trash for a bench run (nothing of the user's is read
or written), with the project root importable."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def isolate() -> Path:
    """A fresh temp dir with `home/.claude` inside; the environment points every place of ours there."""
    tmp = Path(tempfile.mkdtemp(prefix="consolidate-bench-"))
    home = tmp / "home"
    (home / ".claude").mkdir(parents=True)
    os.environ.update(
        HOME=str(home),
        CLAUDE_CONFIG_DIR=str(home / ".claude"),
        CONSOLIDATE_STATE_DIR=str(home / ".consolidate-state"),
        XDG_DATA_HOME=str(tmp / "xdg"),
        GIT_CONFIG_GLOBAL=str(home / ".gitconfig"),
        GIT_CONFIG_NOSYSTEM="1",
        NO_COLOR="1",
        ANTHROPIC_BASE_URL="http://127.0.0.1:9",
    )
    os.environ.pop("ANTHROPIC_API_KEY", None)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return tmp
