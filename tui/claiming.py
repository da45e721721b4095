"""What the client does about moving an identity to another device (the claim
code), mixed into `ClientApp`: the code shown in the lobby (`handoff`), a good code
(`claimed`: go on as that identity) and a refused one (said in the lobby's dialog)."""

from __future__ import annotations

from typing import Any

from textual.app import App

from .lobby import ClaimDialog, LobbyScreen
from .tokens import TokenStore

# A refused `claim`, as the lobby's dialog says it (the server does not tell a wrong code
# from a used or an expired one: a guesser learns nothing).
CLAIM_REFUSED = {
    "wrong_code": (
        "That code is wrong, used or expired: a code works once, for 10 minutes. "
        "Check it, or press k on the other device for a new one."
    ),
    "rate_limited": "Too many wrong codes from here: wait a minute, then try again.",
}


class ClaimReplies(App[None]):
    """The app's part about claim codes; `ClientApp` provides what is declared here."""

    # Provided by ClientApp.
    connection: Any
    lobby: LobbyScreen | None
    local: Any
    player_name: str
    tokens: TokenStore | None
    url: str | None
    watching: str | None
    rewatch: bool
    _claim_id: int | None

    def claim_sent(self, msg_id: int | None) -> None:
        """The lobby's dialog sent a `claim` (`msg_id` None: there is no connection)."""
        self._claim_id = msg_id
        if msg_id is None and (dialog := self._claim_dialog()) is not None:
            dialog.show_error("Not connected to the server: try again in a moment.")

    def claim_refused(self, msg: dict[str, Any]) -> bool:
        """Whether the error `msg` answers the claim sent, said in its dialog."""
        if msg.get("re") is None or msg.get("re") != self._claim_id:
            return False
        self._claim_id = None
        if (dialog := self._claim_dialog()) is None:
            return False
        dialog.show_error(CLAIM_REFUSED.get(str(msg.get("code")), str(msg.get("message"))))
        return True

    def _on_handoff(self, msg: dict[str, Any]) -> None:
        code = msg.get("code")
        if isinstance(code, str) and self.lobby is not None:
            self.lobby.show_handoff(code, int(msg.get("expires_s") or 600))

    def _claim_dialog(self) -> ClaimDialog | None:
        return next((s for s in self.screen_stack if isinstance(s, ClaimDialog)), None)

    def _on_claimed(self, msg: dict[str, Any]) -> None:
        """A code from another device was good: go on as its identity (its name, its
        seat), kept for this server under that identity's name (tui/tokens.py)."""
        token, name = msg.get("token"), msg.get("name")
        if not isinstance(token, str) or self.connection is None or self.local is not None:
            return
        self._claim_id = None
        name = name if isinstance(name, str) and name else self.player_name
        if (dialog := self._claim_dialog()) is not None:
            dialog.dismiss(None)
        previous, self.player_name = self.player_name, name
        self.watching, self.rewatch = None, False
        if self.tokens is not None and self.url:
            self.tokens.put(self.url, name, token)
        if self.lobby is not None:
            self.lobby.set_player(name)
        self.connection.become(token, name)
        self.notify(f"You now play {name} here (instead of {previous}).", markup=False)
