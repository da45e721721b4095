"""Play an identity from another device (issue 17), on the native client: `i` in the
lobby takes the code another device's `k` showed; a restarted client lands back in
the room it watched (issue 16). The real app under run_test() against a real server."""

from __future__ import annotations

import asyncio
import time

from conftest import RawClient
from textual.widgets import Input
from tui_keys import shown, text_of
from tui_keys import until as until_within
from websockets.asyncio.client import connect

from modernart.server.people.handoff import normal
from modernart.tui.app import ClientApp
from modernart.tui.lobby import ClaimDialog, HandoffDialog
from modernart.tui.tokens import TokenStore


async def until(pilot, cond, timeout: float = 30.0) -> None:
    """tui_keys.until with room for a loaded machine (an upper bound only)."""
    await until_within(pilot, cond, timeout)


def state_of(table) -> str:
    """What the table's auction panel says, once it is composed ("" before)."""
    return "".join(text_of(widget) for widget in table.query("#state"))


def dialog_of(app: ClientApp) -> ClaimDialog | None:
    return next((s for s in app.screen_stack if isinstance(s, ClaimDialog)), None)


async def type_code(pilot, app: ClientApp, code: str) -> ClaimDialog:
    """Open the dialog with `i` (if it is not open) and submit `code` in it."""
    if dialog_of(app) is None:
        await pilot.press("i")
        await until(pilot, lambda: dialog_of(app) is not None)
    dialog = dialog_of(app)
    assert dialog is not None
    field = dialog.query_one(Input)
    field.value = ""
    await pilot.press(*code, "enter")
    return dialog


def error_of(dialog: ClaimDialog) -> str:
    return text_of(dialog.query_one("#claim-error"))


async def new_code(client) -> str:
    """A fresh `handoff` code for a raw client (it replaces the client's earlier one)."""
    before = sum(1 for m in client.inbox if m["t"] == "handoff")
    await client.send("handoff")
    async with asyncio.timeout(10):
        while (codes := [m["code"] for m in client.inbox if m["t"] == "handoff"])[before:] == []:
            await asyncio.sleep(0.01)
    return codes[-1]


async def test_a_code_from_another_device_brings_this_client_to_that_seat(
    server, url, raw, tmp_path
):
    ann = await raw("Ann")  # the other device: a seat in a waiting room
    await ann.send("create", seats=3, name="T", options={"bot_delay_ms": 10_000})
    joined = await ann.wait_for("joined")
    ann_token = (await ann.wait_for("welcome"))["token"]

    tokens = TokenStore(tmp_path / "config" / "tokens.json")
    app = ClientApp(url, "Phone", tokens=tokens)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        assert "i play one from another device" in text_of(app.lobby.query_one("#lobby-hint"))
        own = app.you
        dialog = await type_code(pilot, app, "abc")  # too short: nothing is sent
        assert "8 letters and digits" in error_of(dialog)

        # A wrong code, then an expired one: a clear error in the dialog, nothing changes.
        dialog = await type_code(pilot, app, "0000-0000")
        await until(pilot, lambda: "wrong, used or expired" in error_of(dialog))
        assert app.you == own and app.player_name == "Phone" and app.seat is None
        expired = await new_code(ann)
        server.hub.handoffs.codes[normal(expired)].expires = time.monotonic() - 1
        dialog = await type_code(pilot, app, expired)
        await until(pilot, lambda: "wrong, used or expired" in error_of(dialog))
        assert app.you == own and app.seat is None and tokens.get(url, "Ann") is None

        code = await new_code(ann)
        await type_code(pilot, app, code.lower().replace("-", " "))  # as typed
        await until(pilot, lambda: app.seat == 0 and app.room == joined["room"])
        await until(pilot, lambda: app.table is not None and app.screen is app.table)
        await until(pilot, lambda: "Waiting room" in state_of(app.table))
        assert dialog_of(app) is None
        assert app.player_name == "Ann" and app.you == app_you(ann) != own
        # Kept for the next start: this device's own token, not the other's (issue 33).
        assert tokens.get(url, "Ann") == app.connection.token != ann_token
        assert tokens.get(url, "Phone") not in (None, ann_token)  # its own stays kept
        await until(pilot, lambda: ann.ws.close_code == 4000)  # the other device lets go

    # The code works once: another client that types it changes nothing.
    other = ClientApp(url, "Third", tokens=TokenStore(tmp_path / "other.json"))
    async with other.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: other.lobby is not None and other.lobby.rooms)
        dialog = await type_code(pilot, other, code)
        await until(pilot, lambda: "wrong, used or expired" in error_of(dialog))
        assert other.player_name == "Third" and other.seat is None

    # Started again under the claimed identity's name: straight back to its seat.
    again = ClientApp(url, "Ann", tokens=tokens)
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: again.seat == 0 and again.room == joined["room"])
        await until(pilot, lambda: again.table is not None and again.screen is again.table)
        await until(pilot, lambda: "Waiting room" in state_of(again.table))


def app_you(client) -> str:
    return next(m for m in client.inbox if m["t"] == "welcome")["you"]


async def test_the_code_shown_by_k_closes_once_another_device_used_it(url, raw, tmp_path):
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        await pilot.press("k")
        await until(pilot, lambda: shown(app, HandoffDialog))
        code = text_of(app.screen.query_one("#handoff-code"))
        assert any("press i in the lobby" in text_of(w) for w in app.screen.query("Static"))
        phone = await raw("Phone")
        await phone.send("claim", code=code)
        claimed = await phone.wait_for("claimed")
        assert claimed["name"] == "Ann" and claimed["token"] != app.connection.token
        other = RawClient(await connect(url))  # the other device goes on as Ann
        await other.send("hello", v=1, name="Ann", token=claimed["token"])
        await other.wait_for("welcome", you=app.you)
        await until(pilot, lambda: not isinstance(app.screen, HandoffDialog))
        said = text_of(app.lobby.query_one("#error"))
        assert "played from another device (terminal client)" in said
        await other.close()
