"""`python -m consolidate.recall.background PROJECT`: the detached index update auto-recall starts.

Quiet by design: another update already running is fine, and a failure goes to the hook log.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    from ..hooks.entry import log_failure
    from ..settings import load_settings
    from .api import refresh
    from .indexer import IndexBusy

    try:
        refresh(load_settings(argv[0] if argv else os.getcwd()), wait=False)
    except IndexBusy:
        pass
    except Exception as exc:  # detached: nobody to tell but the log
        log_failure(os.environ, "recall-refresh", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
