"""A client session on a terminal, for any transport (SSH: server/ssh; a browser next).

The game clients (Textual apps) run in worker processes forked from a zygote
that imported them once (server/doors/terminal/zygote.py), each on a PTY of its own;
each session's screen is kept as cells drawn from Textual's own updates
(server/doors/terminal/screen.py) so that only changed cells are sent.
Faults stay in their process: a session that crashes or stops answering is
killed and started again on the same terminal, back at its seat.

How a transport uses it:

    terminals = Terminals(server, TerminalSettings(limits=Limits(memory_mb=…)), keys)
    await terminals.start()                     # starts the zygote (once per server)
    reason = terminals.refusal(peer, key)       # optional early check: None or a message
    try:
        session = await terminals.open(
            peer="203.0.113.5",                 # the person's address: per-address limits
            name="alice",                       # the player name (valid per PROTOCOL.md)
            term="xterm-256color", cols=80, rows=24,   # clamped to 300×100
            key="SHA256:…",                     # a stable identity key, or None: a guest
            output=write_to_terminal,           # bytes for the terminal, as they come
            closed=say_and_close,               # closed(text, exit_status): once, at the end
        )
    except Refused as exc:                      # full (memory budget), too many, too fast…
        say_and_close(str(exc), 1)
    session.feed(keys)                          # bytes typed at the terminal; then
    if session.input_full:                      # read no more until it has taken them
        await session.input_room()              # (pastes cut at 64 KiB, rates: keyboard.py)
    session.resize(cols, rows)                  # a window change
    session.pause(); session.resume()           # the terminal's flow control
    session.lost()                              # the terminal went away (no word sent)
    await session.close("why")                  # the server ends it: closed("why", 0)
    await terminals.stop()                      # every session told, the zygote ended

`key` is the identity: the same key resumes the same identity (its seat, or the
room it watched), and a second session of a key replaces the first, which is
told why. `keys` maps a key to its identity's token (the store's table). The
memory budget (`Limits.memory_mb`) covers every transport's sessions together:
give one `Terminals` to every door.
"""

import importlib

# Imported on first use (PEP 562): the zygote, `python -m modernart.server.doors.terminal.zygote`,
# runs this file first and must not import the server.
_EXPORTS = {
    "FULL": "admission",
    "Admission": "admission",
    "Limits": "admission",
    "MAX_COLS": "session",
    "MAX_ROWS": "session",
    "TerminalSession": "session",
    "HelloRefused": "terminals",
    "KeyTokens": "terminals",
    "Refused": "terminals",
    "TerminalSettings": "terminals",
    "Terminals": "terminals",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
