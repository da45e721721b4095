"""Issue 28's footers (docs/playtests.md #10), the real app at 80×24 against the real
engine: Serengeti lists its hint key, and an open chat takes every printable key, so the
footer offers none of the game's ("+ Min" stayed while `+` typed a plus into the chat)."""

from __future__ import annotations

from tui_keys import until
from tui_offline import NAMES, OfflineApp, hand_deck
from tui_serengeti import ann_to_act, offline, play_until
from tui_serengeti import new_game as serengeti_game

from modernart.engine.modernart import Game


def footer(app: OfflineApp) -> str:
    return app.screen._compositor.render_strips()[-1].text.rstrip()


async def test_serengeti_lists_the_hint_key_while_you_decide() -> None:
    game = serengeti_game()
    play_until(game, ann_to_act(2))
    app = offline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "p Pass" in footer(app))
        assert "? Hint" in footer(app) and footer(app).endswith("f1 Help")


async def test_r12_an_open_chat_hides_the_quick_raises_it_would_type() -> None:
    game = Game(NAMES, deck=hand_deck([["lite_metal.open"]]), first_auctioneer=0)
    app = OfflineApp(game, seat=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.table.act({"type": "play", "card": "lite_metal.open"})
        await until(pilot, lambda: "+ Min" in footer(app))
        await pilot.press("t")
        await until(pilot, lambda: "+ Min" not in footer(app))
        assert footer(app).endswith("^q Quit f1 Help")
        await pilot.press("plus", "enter")  # the plus is typed into the chat and sent
        assert app.sent[-1] == {"t": "chat", "text": "+"}
        assert app.game.phase == "open"  # no bid was made
