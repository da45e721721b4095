"""Play in a browser (issue 17): the page in headless Chromium, the game server in-process.

Each `Browser` is one player's browser, with no cookies of another (a browser is
kept between tests, its cookies cleared: tests/server/browser.py `take`). What the
page's terminal shows is read from xterm.js's rows; keys are typed into its textarea.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pathlib
import re
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.http11 import Response

from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.doors.web.identity import COOKIE

from .browser import WAIT, Browser, Page, available, give_back, take
from .sshgate import gates
from .sshterm import keys_for
from .wsclient import Client

pytestmark = [
    pytest.mark.skipif(
        not available() and not os.environ.get("CI"),
        reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
    ),
    # One worker runs the Chromium tests one after another (scripts/test: --dist
    # loadgroup): browsers at once would starve the suite's timing-bound tests.
    pytest.mark.xdist_group("chromium"),
]

MakeGate = Callable[..., Awaitable[WebGate]]
CODE = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}\b")
# Answers when the document's title changes.
# Waits for the page's title to differ from `arguments[0]`, the title last read: a change
# between that read and this script is seen at once (it waited out the script timeout).
TITLE_CHANGE_JS = """
const done = arguments[arguments.length - 1];
if (document.title !== arguments[0]) { done(true); return; }
const title = document.querySelector('title');
new MutationObserver(() => done(true)).observe(title, {childList: true, characterData: true,
                                                       subtree: true});
"""


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[MakeGate]:
    """`await web(**settings)`: a dev server with the browser door on free ports."""
    async for make in gates(tmp_path, lambda server, s: WebGate(server, WebSettings(port=0, **s))):
        yield make


# The tests that also run in Firefox (the others read Chromium's console or need one
# browser only): the page's play, keys and F1, its reload, its fit, its cookie.
BOTH_BROWSERS = pytest.mark.parametrize("browser", ["chromium", "firefox"], indirect=True)


@pytest.fixture
async def browser(request: pytest.FixtureRequest) -> AsyncIterator[Callable[[], Awaitable[Page]]]:
    """`await browser()`: a page in a new profile of the test's browser (Chromium unless
    the test is parametrized); all closed afterwards."""
    kind = getattr(request, "param", "chromium")
    if not available(kind) and not os.environ.get("CI"):
        pytest.skip(f"needs Debian's {kind} (.ci/run installs it)")
    opened: list[Browser] = []

    async def make() -> Page:
        b = await asyncio.to_thread(take, kind)
        opened.append(b)
        return Page(b)

    yield make
    await asyncio.gather(*(asyncio.to_thread(give_back, b) for b in opened))


def url_of(gate: WebGate) -> str:
    return f"http://127.0.0.1:{gate.port}/"


async def token_of(page: Page) -> str:
    """The page's identity token, as the browser keeps it (Selenium sees HttpOnly cookies)."""
    cookie = await page.call(page.driver.get_cookie, COOKIE)
    assert cookie is not None, "no identity cookie"
    return str(cookie["value"])


async def seat_of(gate: WebGate, page: Page) -> tuple[str | None, int | None]:
    """Where the page's identity sits, as the server knows it."""
    store, hub = gate.server.store, gate.server.hub
    assert store is not None and hub is not None
    found = store.find_identity(await token_of(page))
    identity = hub.identities.get(found[0]) if found else None
    if identity is None:
        return None, None
    return (identity.room.id if identity.room else None), identity.seat


async def lobby(gate: WebGate, page: Page) -> str:
    await page.open(url_of(gate))
    return await page.wait_text("Rooms")


async def create_room(page: Page, bots: int) -> None:
    """Create a Modern Art room by keys (the defaults: 4 seats) and add `bots` bots."""
    await page.send("c")
    await page.wait_text("Create a room")
    await page.send("\x13")  # ctrl+s creates
    await page.wait_text("You host")
    await page.send("b" * bots)
    await page.wait(lambda t: t.count("(H)") + t.count("(R)") >= bots, f"{bots} bots")


async def play_until_a_card(gate: WebGate, page: Page) -> tuple[str, int]:
    """Type this page's decisions until it has played a card; (room, seat).

    The bound is on the game standing still, not on the whole stretch: the bots'
    turns before ours take longer on a loaded machine, a stalled game never ends."""
    sent: tuple[int, str] = (-1, "")
    moved, loop = -1, asyncio.get_running_loop()
    game: Any = None
    room: Any = None
    try:
        async with asyncio.timeout(WAIT) as bound:
            while True:
                room_id, seat = await seat_of(gate, page)
                room = gate.server.hub.rooms.get(room_id) if room_id else None  # type: ignore[union-attr]
                game = room.game if room is not None else None
                if game is not None and seat is not None:
                    if any(a.get("type") == "play" and a.get("seat") == seat for a in game.actions):
                        return room_id, seat  # type: ignore[return-value]
                    if len(game.actions) != moved:
                        moved = len(game.actions)
                        bound.reschedule(loop.time() + WAIT)
                    text = await page.text()
                    mark = (len(game.actions), text)
                    if "Enter: continue" in text and mark != sent:
                        # A round's summary over the table takes the keys: close it first.
                        sent = mark
                        await page.send(Keys.ESCAPE)
                    elif not game.finished and seat in game.to_act() and mark != sent:
                        sent = mark
                        await page.send(keys_for(game, seat))
                await page.next_change()
    except TimeoutError:
        waits = f"{game.to_act()} to act, {game.actions[-3:]}" if game is not None else "no game"
        if room is not None:  # the server's side of it: its clock, who it holds connected
            deadline = room.deadline()
            left = None if deadline is None else round(deadline - loop.time(), 1)
            conns = [s is not None and s.conn is not None for s in room.seats]
            waits += f"; clock {left} s left, paused {room.paused}, connected {conns}"
        shown = await page.text()
        raise AssertionError(f"the game stood still {WAIT} s ({waits}):\n{shown}") from None


# ------------------------------------------------------------------ playing


@BOTH_BROWSERS
async def test_the_page_shows_the_lobby_and_plays_a_card_against_bots(web, browser):
    gate = await web()
    page = await browser()
    text = await lobby(gate, page)
    assert "lobby" in text
    await page.send(Keys.F1)  # the game's help, not the browser's
    await page.wait_text("Escape closes")
    await page.send(Keys.ESCAPE)
    await page.wait(lambda t: "Escape closes" not in t, "help closed")
    await create_room(page, 3)
    await page.send("s")
    _, seat = await play_until_a_card(gate, page)
    assert seat == 0
    shown = await page.wait_text("Your hand")
    assert "Value board" in shown or "Value" in shown


@BOTH_BROWSERS
async def test_a_second_browser_is_a_second_player_and_a_reload_keeps_the_seat(web, browser):
    gate = await web()
    ann, bob = await browser(), await browser()
    await lobby(gate, ann)
    await create_room(ann, 1)
    await lobby(gate, bob)
    await bob.wait_text("waiting")
    await bob.send("j")
    await bob.wait_text("Waiting room: 3/4 seated")  # bob sits at the waiting table
    ann_seat, bob_seat = await seat_of(gate, ann), await seat_of(gate, bob)
    assert ann_seat[0] is not None and ann_seat[0] == bob_seat[0]
    assert {ann_seat[1], bob_seat[1]} == {0, 2}
    assert await token_of(ann) != await token_of(bob)

    await ann.send("b")
    await ann.wait_text("Waiting room: 4/4 seated")
    await ann.send("s")  # the host starts: a game of two browsers and two bots
    await ann.wait_text("Your hand")
    token = await token_of(ann)
    await ann.call(ann.driver.refresh)
    await ann.wait_text("Your hand")  # the reloaded page is back at its seat
    assert await token_of(ann) == token
    assert await seat_of(gate, ann) == ann_seat
    identity = gate.server.hub.identities[gate.server.store.find_identity(token)[0]]
    assert identity.conn is not None and len(gate.terminals.by_key) == 2


async def test_a_reloaded_page_watches_again_the_room_it_watched(web, browser):
    """Issue 16: a spectator's reload lands in the watched game, not in the lobby."""
    gate = await web()
    bob = await Client.hello(f"ws://127.0.0.1:{gate.server.port}/", "Bob")
    await bob.send("create", seats=3, name="T", options={"bot_delay_ms": 10_000})
    room = (await bob.expect("joined"))["room"]
    for _ in range(2):
        await bob.send("add_bot")
    await bob.expect("room", timeout=WAIT)
    await bob.send("start")
    await bob.expect("update")
    page = await browser()
    await lobby(gate, page)
    await page.wait_text("playing")
    await page.send("w")
    await page.wait_text("· watching")
    await page.call(page.driver.refresh)
    await page.wait_text("· watching")  # no key pressed: the same table again
    store, hub = gate.server.store, gate.server.hub
    identity = hub.identities[store.find_identity(await token_of(page))[0]]
    assert identity.watching == room and identity.seat is None


# ------------------------------------------------------------ the page's guards


async def http_get(url: str) -> tuple[int, dict[str, str], bytes]:
    def get() -> tuple[int, dict[str, str], bytes]:
        try:
            with urllib.request.urlopen(url, timeout=WAIT) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    return await asyncio.to_thread(get)


async def test_the_page_has_a_strict_csp_and_loads_nothing_from_another_host(web, browser):
    gate = await web()
    status, headers, body = await http_get(url_of(gate))
    assert status == 200 and b'<main id="terminal"' in body
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    page = await browser()
    await lobby(gate, page)
    origin = url_of(gate).rstrip("/")
    loaded = await page.run("return performance.getEntriesByType('resource').map(e => e.name)")
    assert loaded and all(name.startswith(origin + "/") for name in loaded), loaded
    # The terminal drew with the policy in force: xterm.js's styles carry the nonce.
    violations = [e for e in await page.console() if "Content Security Policy" in e["message"]]
    assert violations == []
    status, headers, _ = await http_get(origin + "/static/xterm.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert (await http_get(origin + "/static/../app.py"))[0] == 404
    assert (await http_get(origin + "/elsewhere"))[0] == 404


async def test_a_page_from_another_origin_cannot_open_a_session(web, browser, caplog):
    gate = await web()
    target = f"ws://127.0.0.1:{gate.port}/ws"
    foreign = (
        "<!doctype html><title>elsewhere</title><script>"
        f"const ws = new WebSocket({target!r}, ['modernart.v1']);"
        "ws.onopen = () => { document.title = 'opened'; };"
        "ws.onclose = () => { if (document.title !== 'opened') document.title = 'refused'; };"
        "</script>"
    ).encode()

    def answer(connection: Any, request: Any) -> Response:
        headers = Headers({"Content-Type": "text/html", "Content-Length": str(len(foreign))})
        return Response(200, "OK", headers, foreign)

    async with serve(lambda ws: None, "127.0.0.1", 0, process_request=answer) as other:
        port = other.sockets[0].getsockname()[1]
        page = await browser()
        with caplog.at_level(logging.INFO, logger="modernart.server.doors.web"):
            await page.open(f"http://127.0.0.1:{port}/")
            async with asyncio.timeout(WAIT):
                while (title := await page.run("return document.title")) == "elsewhere":
                    await page.call(page.driver.execute_async_script, TITLE_CHANGE_JS, title)
    assert title == "refused"
    assert f"origin 'http://127.0.0.1:{port}'" in caplog.text
    assert not gate.terminals.sessions and not gate.keys.tokens
    # Without a browser: a forged Origin, or none, gets 403 before any identity is made.
    for headers in ({"Origin": "http://evil.example"}, {}):
        with pytest.raises(InvalidStatus) as refused:
            async with connect(target, additional_headers=headers, origin=None):
                pass
        assert refused.value.response.status_code == 403
    assert gate.server.hub is not None and not gate.server.hub.identities


@BOTH_BROWSERS
async def test_the_token_never_reaches_the_page_its_script_or_its_url(web, browser):
    gate = await web()
    page = await browser()
    await lobby(gate, page)
    token = await token_of(page)
    cookie = await page.call(page.driver.get_cookie, COOKIE)
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
    seen = await page.run(
        "return [document.cookie, location.href, document.documentElement.outerHTML,"
        " JSON.stringify(localStorage), JSON.stringify(sessionStorage),"
        " performance.getEntriesByType('resource').map(e => e.name).join(' ')].join('\\n')"
    )
    assert token not in seen and COOKIE not in seen
    assert token not in await page.text()


# ------------------------------------------------------- another device


@BOTH_BROWSERS
async def test_a_code_from_the_lobby_takes_the_identity_to_another_browser(web, browser):
    gate = await web()
    ann, phone = await browser(), await browser()
    await lobby(gate, ann)
    await ann.send("k")
    shown = await ann.wait(lambda t: CODE.search(t) is not None, "a hand-off code")
    code = CODE.search(shown).group(0)  # type: ignore[union-attr]
    await lobby(gate, phone)
    assert await token_of(phone) != await token_of(ann)

    async def enter(page: Page, code: str) -> None:
        def type_code() -> None:
            field = page.driver.find_element(By.ID, "claim-code")
            field.send_keys(code.lower() + Keys.ENTER)  # as typed: lower case, a dash

        # The box keeps a code until it is claimed (issue 28): typed anew, as a person would.
        await page.run("document.getElementById('claim-code').value = ''")
        await page.call(type_code)

    async def notice() -> str:
        return str(await phone.run("return document.getElementById('claim-status').textContent"))

    async def enter_and_read(code: str) -> str:
        await phone.run("document.getElementById('claim-status').textContent = ''")
        await enter(phone, code)
        await phone.wait_text("Rooms")
        async with asyncio.timeout(WAIT):
            while not (said := await notice()):
                await phone.next_change()
        return said

    assert "wrong" in await enter_and_read("0000-0000")
    assert await enter_and_read(code) == "This browser now plays that identity."
    # The same identity, with a token of its own (issue 33); the other browser stops,
    # saying which device took over.
    store = gate.server.store
    phone_token, ann_token = await token_of(phone), await token_of(ann)
    assert phone_token != ann_token
    assert store.find_identity(phone_token)[0] == store.find_identity(ann_token)[0]
    await ann.wait(
        lambda shown: "from another device (browser)" in " ".join(shown.split()), "the note"
    )
    assert "wrong" in await enter_and_read(code)  # once only


async def test_a_code_typed_in_the_terminal_moves_the_browser_on_its_next_visit(web, browser):
    """`i` in the page's own lobby: the session plays the claimed identity at once, and
    the next handshake (a reload) sets the browser's cookie to it."""
    gate = await web()
    ann = await Client.hello(f"ws://127.0.0.1:{gate.server.port}/", "Ann")
    await ann.send("create", seats=3, name="T")
    room = (await ann.expect("joined"))["room"]
    code = (await ann.expect_reply(await ann.send("handoff")))["code"]
    page = await browser()
    await lobby(gate, page)
    own = await token_of(page)
    await page.send("i")
    await page.wait_text("Play an identity from another device")
    await page.send(code + "\r")
    await page.wait_text("Waiting room")
    assert await token_of(page) == own  # the cookie changes on the next handshake only
    await page.call(page.driver.refresh)
    await page.wait_text("Waiting room")
    moved = await token_of(page)  # a device of its own (issue 33)
    assert moved != ann.token and gate.server.store.find_identity(moved)[0] == ann.you
    assert await seat_of(gate, page) == (room, 0)
    assert gate.keys.moved == {}


# ------------------------------------------------------------------- fit


@BOTH_BROWSERS
async def test_the_terminal_fills_the_window_and_shrinks_its_font_before_80x24(web, browser):
    gate = await web()
    page = await browser()
    await lobby(gate, page)

    async def fit() -> list[int]:
        """What the page's last fit chose: [how many fits so far, cols, rows, font px,
        the window's inner width and height it fitted]."""
        return [int(v) for v in (await page.run("return document.body.dataset.fit")).split()]

    async def fitted(width: int, height: int) -> tuple[int, int, int]:
        """The page's size and font once it has fitted a window of that size, and the
        session has that size too."""
        before = (await fit())[0]
        await page.call(page.driver.set_window_size, width, height)
        inner = await page.run("return [innerWidth, innerHeight]")
        async with asyncio.timeout(WAIT):
            while True:
                count, cols, rows, font, *fitted_window = await fit()
                (session,) = gate.terminals.sessions
                if (
                    count > before
                    and fitted_window == inner
                    and (session.cols, session.rows) == (cols, rows)
                ):
                    return cols, rows, font
                await page.next_change()

    big_cols, big_rows, big_font = await fitted(1400, 900)
    assert big_cols > 80 and big_rows > 24  # a large window: more cells at the normal font
    for width, height in ((640, 420), (560, 700)):  # too short, too narrow for 80×24 at it
        cols, rows, font = await fitted(width, height)
        assert cols >= 80 and rows >= 24  # still the whole table …
        assert font < big_font  # … in a smaller font
        # … and no smaller than needed: one px of font more would not fit 80×24 (a cell
        # grows by about (font + 1) / font, and a browser rounds its height up a pixel).
        assert min(cols / 80, rows / 24) < (font + 2) / font
    await page.wait_text("Rooms")
