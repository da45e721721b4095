"""A line panel keeps the rows of the paragraphs it drew last, and only so many (issue 31:
every row kept is objects each of the worker's full garbage collections walks)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from modernart.tui.lines import MAX_DRAWN, LinePanel, paragraph_key


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LinePanel("kept", "first")


async def test_a_panel_keeps_the_paragraphs_it_drew_most_recently_and_no_more():
    app = PanelApp()
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        panel = app.query_one(LinePanel)
        width = panel.content_size.width
        kept = panel.rows(width)[0]
        for i in range(3 * MAX_DRAWN):
            panel.set_lines(["kept", f"line {i}"])
            assert len(panel._drawn) <= MAX_DRAWN
        assert panel.rows(width)[0] is kept  # shown all along: never drawn again
        last = panel.rows(width)[1]
        assert (paragraph_key("line 0"), width) not in panel._drawn  # let go
        panel.set_lines(["line 0", f"line {3 * MAX_DRAWN - 1}"])
        await pilot.pause()
        assert panel.text == f"line 0\nline {3 * MAX_DRAWN - 1}"
        assert panel.rows(width)[1] is last
