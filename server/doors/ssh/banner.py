"""The SSH banner: how to get in, told before sign-in to those who may need it.

OpenSSH prints a banner for every connection, `scp` and `ssh … record` included, and
the server must send it before it knows whether the client has a key (a keyless
client gives up at the first refusal). So it goes to every user name and address that
has not yet signed in with a key here: a player who has, signs in by key again, and
their `scp` or `record` prints nothing but the game (play-tests 2026-12-03 night #7).
"""

from __future__ import annotations

from collections import OrderedDict

from modernart.engine.games import all_games

KEY_SIGN_INS_KEPT = 4096  # (user name, address) pairs remembered; the oldest go first


def banner_text(guests: bool) -> str:
    """How to get in: a key is your identity; guests, when allowed."""
    titles = [game.title for game in all_games()]
    games = ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]
    lines = [
        f"{games} over SSH: your SSH key is your player identity.",
        "No key yet? Make one with `ssh-keygen -t ed25519` and connect again.",
    ]
    if guests:
        lines.append("Guests without a key are welcome: `ssh -o PubkeyAuthentication=no …`.")
    return "\r\n".join(lines) + "\r\n"


class KeySignIns:
    """The (user name, address) pairs that signed in with a key since the server started:
    bounded, so that many keys cannot grow it (it lives in memory only)."""

    def __init__(self, kept: int = KEY_SIGN_INS_KEPT) -> None:
        self.kept = kept
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()

    def add(self, username: str, address: str) -> None:
        self._seen[(username, address)] = None
        self._seen.move_to_end((username, address))
        while len(self._seen) > self.kept:
            self._seen.popitem(last=False)

    def __contains__(self, pair: tuple[str, str]) -> bool:
        return pair in self._seen
