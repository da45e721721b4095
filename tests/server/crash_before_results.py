"""`modernart-server` that dies (SIGKILL, no cleanup) at the moment a finished game's
results would be stored: after its last action was committed, before its end. Run
as `python -m tests.server.crash_before_results <modernart-server arguments>` from
the checkout (tests/server/test_rating_restart.py)."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from modernart.server.cli import main
from modernart.server.store.players import PlayerTables

_save = PlayerTables.save_results


def _die_first(self: PlayerTables, room: str, game: str, outcome: str, *args: Any) -> None:
    if outcome == "finished":
        os.kill(os.getpid(), signal.SIGKILL)
    _save(self, room, game, outcome, *args)


PlayerTables.save_results = _die_first  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
