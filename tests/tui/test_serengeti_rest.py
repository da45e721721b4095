"""Issue 28's list at the Serengeti table, the real app at 80×24 against the real engine
(docs/playtests.md #9): the Players box's `on` column says `left` and `away` in full, a
player's cards by tribe wrap between tribes, never inside one; the payout grid's `2 pl`
is explained where it is shown."""

from __future__ import annotations

from test_artsociety_newcomer import screen_lines
from tui_offline import server_view
from tui_serengeti import ann_to_act, new_game, offline, play_until

from modernart.engine.serengeti.cards import FULL_DECK
from modernart.tui.serengeti.words import by_tribe


async def test_s12_the_players_box_keeps_statuses_and_tribes_whole_at_80x24() -> None:
    game = new_game()
    play_until(game, ann_to_act(12))
    view = server_view(game, 0)
    many = [c for i, c in enumerate(FULL_DECK) if i % 2 == 0 or c.startswith("yellow")]
    view["seats"][1]["owned"] = many  # six tribes, 19 cards: more than one line holds
    view["seats"][2]["left"] = True
    view["seats"][3]["autopilot"] = True
    app = offline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_view([], view)
        await pilot.pause()
        rows = screen_lines(app)
        top = next(i for i, r in enumerate(rows) if "─ Players ─" in r)
        box = rows[top : next(i for i in range(top + 1, len(rows)) if rows[i].startswith("╰"))]
        assert any(" left " in r for r in box) and any(" away " in r for r in box)
        groups = by_tribe(many).plain.split(" · ")
        assert len(groups) == 6
        for group in groups:  # each tribe's digits on one line
            assert any(group in r for r in box), (group, box)


async def test_s11_the_payout_grid_says_what_2_pl_means() -> None:
    game = new_game()
    play_until(game, ann_to_act(12))
    app = offline(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = screen_lines(app)
        pays = next(r for r in rows if "│ pays " in r)
        assert " 2 pl " in pays  # two players hold a digit (S11): they would share
        assert "2 pl = 2 players share · 5 cards left" in "\n".join(rows)
        await pilot.press("f1")
        assert "`2 pl`: the two players who hold it share the price, S11" in app.screen.text
