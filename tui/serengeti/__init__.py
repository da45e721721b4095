"""Serengeti's table (SERENGETI.md): the auction box with its payout grid and bid entry,
the players, the event log, the end screen and the words they are told in."""
