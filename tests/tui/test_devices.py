"""This identity's devices in the client (issue 33, item 9b): `d` lists them at 80×24, `x`
revokes another one, and a window another device took over stops, saying which, and does
not reconnect. The real app under run_test() against a real server."""

from __future__ import annotations

from conftest import RawClient
from textual.widgets import DataTable
from tui_keys import shown, text_of, until
from websockets.asyncio.client import connect

from modernart.tui.app import ClientApp
from modernart.tui.confirm import Confirm
from modernart.tui.devices import DevicesScreen
from modernart.tui.lobby import HandoffDialog
from modernart.tui.tokens import TokenStore


def rows(screen: DevicesScreen) -> list[str]:
    table = screen.query_one(DataTable)
    return [" | ".join(map(str, table.get_row_at(i))) for i in range(table.row_count)]


async def hello(url: str, name: str, token: str) -> RawClient:
    client = RawClient(await connect(url))
    await client.send("hello", v=1, name=name, token=token)
    return client


async def test_d_lists_the_devices_and_x_revokes_another_at_80x24(url, raw, tmp_path):
    laptop = await raw("Ann")  # this identity's first device; a phone claims its code
    token = (await laptop.wait_for("welcome"))["token"]
    await laptop.send("handoff")
    code = (await laptop.wait_for("handoff"))["code"]
    phone = await raw("Phone")
    await phone.send("claim", code=code)
    phone_token = (await phone.wait_for("claimed"))["token"]

    tokens = TokenStore(tmp_path / "tokens.json")
    tokens.put(url, "Ann", token)  # this client is the laptop now
    app = ClientApp(url, "Ann", tokens=tokens)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connection == "connected")
        assert "d devices" in text_of(app.lobby.query_one("#lobby-hint"))
        await pilot.press("d")
        await until(pilot, lambda: shown(app, DevicesScreen))
        screen = app.screen
        assert isinstance(screen, DevicesScreen)
        await until(pilot, lambda: len(rows(screen)) == 2)
        mine, other = rows(screen)
        assert "terminal client (this one)" in mine and "now" in mine
        assert "this one" not in other
        assert not any(secret in row for secret in (token, phone_token) for row in rows(screen))
        table = screen.query_one(DataTable)
        assert table.region.bottom <= 24 and table.region.right <= 80  # all of it at 80×24

        await pilot.press("x")  # this device: refused here, nothing sent
        hint = screen.query_one("#people-hint")
        await until(pilot, lambda: "That is this device" in text_of(hint))
        await pilot.press("down", "x")
        await until(pilot, lambda: shown(app, Confirm))
        await pilot.press("y")
        await until(pilot, lambda: app.screen is screen and len(rows(screen)) == 1)
        assert "this one" in rows(screen)[0]
        assert "Revoked" in text_of(hint)
        refused = await hello(url, "Ann", phone_token)  # the phone's token plays Ann no more
        assert (await refused.wait_for("error"))["code"] == "name_taken"
        await refused.close()

        # Another device takes over: this window says which one, and stops for good.
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.lobby)
        await pilot.press("k")
        await until(pilot, lambda: shown(app, HandoffDialog))
        code = text_of(app.screen.query_one("#handoff-code"))
        await pilot.press("escape")
        tablet = await raw("Tablet")
        await tablet.send("claim", code=code)
        tablet_token = (await tablet.wait_for("claimed"))["token"]
        taken = await hello(url, "Ann", tablet_token)
        await taken.wait_for("welcome")
        await until(pilot, lambda: app.lobby.connection == "replaced")
        said = " ".join(text_of(app.lobby.query_one("#error")).split())
        assert "Ann is now played from another device (terminal client)" in said
        await until(pilot, lambda: app.network is not None and app.network.is_finished)
        assert not app.connection.connected and taken.ws.close_code is None
        await taken.close()
