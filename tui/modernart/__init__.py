"""Modern Art's table (RULES.md): the value board, the players, the auction panel, the
hand, the event log and the words they are told in."""
