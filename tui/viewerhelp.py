"""The replay viewer's keys for F1: in the lobby's help (its past games open in the
viewer) and first in `modernart view`'s help, above the game's rules."""

VIEWER_KEYS = (
    "# Past games and the replay viewer\n\n"
    "`p` lists past games; Enter on one opens it in the replay viewer (offline: "
    "`modernart view FILE`): ← → a step, Home/End the start or the end, 1–9 a round's "
    "start, `v` at the end reveals what every player hid, Escape closes it.\n\n"
    "With the expert's review of the game, a marked step says its mark on the status "
    "line (`?!` inaccuracy, `?` mistake, `??` blunder) and the log under the action the "
    "better action, what it gains and why; `r` shows each player's chart of its expected "
    "result over the game and its three costliest decisions (Enter goes to one). "
    "`modernart view` reviews the game itself on `a` (its progress on the status line; "
    "`--review FILE` shows one `modernart review FILE --json` wrote).\n\n"
)
