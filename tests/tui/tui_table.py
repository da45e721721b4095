"""A three-player table on a real server: Bob (raw client, host, seat 0), Ann (the app, seat 1,
the first auctioneer) and Cy (raw client, seat 2), with a fixed deal."""

from __future__ import annotations

import contextlib
import pathlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from tui_keys import until

from modernart.engine.modernart import FULL_DECK
from modernart.tui.app import ClientApp
from modernart.tui.tokens import TokenStore


def deck_of(bob: list[str], ann: list[str], cy: list[str]) -> list[str]:
    """A deck dealing these cards (then filler) to Bob, Ann and Cy (10 each, R6)."""
    rest = list(FULL_DECK)
    for code in bob + ann + cy:
        rest.remove(code)
    hands = []
    for hand, filler in ((bob, "yoko."), (ann, "christin_p."), (cy, "karl_gitter.")):
        fill = [c for c in rest if c.startswith(filler) and not c.endswith("double")]
        fill = fill[: 10 - len(hand)]
        for code in fill:
            rest.remove(code)
        hands += hand + fill
    return hands + rest


def deal(ann: list[str]) -> list[str]:
    """A deck where Ann (seat 1 of 3, 10 cards each) holds `ann` plus filler Krypto-free cards."""
    rest = list(FULL_DECK)
    for code in ann:
        rest.remove(code)
    # Bob holds no Lite Metal; Cy holds a sealed one to add to a double (R16).
    bob = [c for c in rest if c.startswith(("yoko.", "karl_gitter."))][:10]
    for code in bob:
        rest.remove(code)
    fill = [c for c in rest if c.startswith("christin_p.")][: 10 - len(ann)]
    for code in fill:
        rest.remove(code)
    cy = ["lite_metal.sealed", *[c for c in rest if c.startswith("krypto.")][:9]]
    for code in cy:
        rest.remove(code)
    return bob + ann + fill + cy + rest


@contextlib.asynccontextmanager
async def seated_game(
    url: str,
    raw: Callable[[str], Awaitable[Any]],
    tmp_path: pathlib.Path,
    ann: list[str],
    size: tuple[int, int] = (120, 40),
    shout_window_ms: int = 60_000,
    deck: list[str] | None = None,
    **options: Any,
) -> AsyncIterator[tuple[ClientApp, Pilot[None], Any, Any]]:
    bob = await raw("Bob")
    options = {
        "deck": deck or deal(ann),
        "first_auctioneer": 1,
        "shout_window_ms": shout_window_ms,
        **options,
    }
    await bob.send("create", seats=3, name="Table", options=options)
    joined = await bob.wait_for("joined")
    app = ClientApp(url, "Ann", tokens=TokenStore(tmp_path / "tokens.json"))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.rooms)
        await pilot.press("j")
        await until(pilot, lambda: app.seat == 1)
        cy = await raw("Cy")
        await cy.send("join", room=joined["room"])
        await cy.wait_for("joined")
        await bob.send("start")
        await until(pilot, lambda: app.table is not None and app.table.view.get("round") == 1)
        yield app, pilot, bob, cy
