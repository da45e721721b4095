"""Modern Art bots playing whole games (engine/selfplay.py does it for any game)."""

from __future__ import annotations

from ...selfplay import play_out

__all__ = ["play_out"]
