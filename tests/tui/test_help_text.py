"""F1's text drawn as lines laid out once per width (tui/helptext.py; issues 28, 31, 33)."""

from __future__ import annotations

from tui_keys import shown, until

from modernart.tui.app import ClientApp
from modernart.tui.games import help_texts, lobby_help
from modernart.tui.help import HelpScreen
from modernart.tui.helptext import USUAL_WIDTHS, HelpText, help_lines, warm


def visible(app: ClientApp) -> list[str]:
    """The help's rows as the terminal shows them."""
    text = app.screen.query_one(HelpText)
    return [text.render_line(y).text.rstrip() for y in range(text.size.height)]


async def test_f1_shows_the_whole_text_fitted_to_the_window_and_scrolls_to_its_end():
    app = ClientApp("ws://127.0.0.1:9/", "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await until(pilot, lambda: shown(app, HelpScreen))
        await pilot.pause()
        text = app.screen.query_one(HelpText)
        width = text.scrollable_content_region.width
        assert all(strip.cell_length == width for strip in text._lines)
        words = " ".join(strip.text for strip in text._lines).split()
        assert words[:4] == ["The", "lobby", "↑", "↓"]  # lobby_help's first line
        assert visible(app)[0].strip() == text._lines[0].text.strip()
        last = next(s.text.rstrip() for s in reversed(text._lines) if s.text.strip())
        assert last not in visible(app)
        await pilot.press("end")
        await pilot.pause()
        assert last in visible(app)
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: text._lines[0].cell_length == 96)
        assert text.virtual_size.height == len(help_lines(lobby_help(app.where), 96))


def test_the_zygote_lays_out_every_first_help_at_the_usual_widths():
    help_lines.cache_clear()
    texts = help_texts("ssh")
    warm(texts)
    assert help_lines.cache_info().currsize == len(texts) * len(USUAL_WIDTHS)
    before = help_lines.cache_info().hits
    help_lines(texts[1], USUAL_WIDTHS[0])
    assert help_lines.cache_info().hits == before + 1


def test_headings_are_drawn_bold_in_the_terminal_s_own_colour():
    """Play-test 2026-12-05 #5: Rich's headings are magenta (3:1 on black in the browser);
    every heading of every game's help is bold or underlined, in no colour of its own."""
    for text in help_texts("ssh")[1:]:  # each game's rules
        headings = [line.split(" ", 1)[1] for line in text.splitlines() if line[:3] == "## "]
        assert headings, text[:80]
        strips = help_lines(text, USUAL_WIDTHS[0])
        for heading in headings:
            (strip,) = [s for s in strips if s.text.strip() == heading]
            styles = [seg.style for seg in strip if seg.text.strip() and seg.style]
            assert styles and all(s.color is None and (s.bold or s.underline) for s in styles)
