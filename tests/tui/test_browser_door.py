"""The client in the browser door's page (tui/browser.py; play-test 2026-12-03 evening,
#6): Ctrl+Q bound but not offered, F1 says how to leave; elsewhere as ever."""

from __future__ import annotations

from tui_keys import shown, until

from modernart.tui.app import ClientApp
from modernart.tui.help import HelpScreen
from modernart.tui.helptext import HelpText


def offered(app: ClientApp) -> set[str]:
    """The actions the footer shows now."""
    return {b.action for _, b, _, _ in app.screen.active_bindings.values() if b.show}


async def test_in_a_browser_ctrl_q_is_not_offered_but_quits_and_f1_says_close_the_tab():
    app = ClientApp("ws://127.0.0.1:9/", "Ann", own_machine=False, in_browser=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.where == "browser"
        assert "quit" not in offered(app) and "help" in offered(app)
        await pilot.press("f1")
        await until(pilot, lambda: shown(app, HelpScreen))
        await pilot.pause()
        words = " ".join(s.text for s in app.screen.query_one(HelpText)._lines).split()
        assert "close the tab;" in " ".join(words)
        await pilot.press("escape", "ctrl+q")
        await until(pilot, lambda: app.return_code is not None)


async def test_over_ssh_the_footer_offers_ctrl_q():
    app = ClientApp("ws://127.0.0.1:9/", "Ann", own_machine=False)
    async with app.run_test(size=(80, 24)):
        assert app.where == "ssh" and "quit" in offered(app)
