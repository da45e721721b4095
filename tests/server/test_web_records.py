"""A player's finished games in the browser (issue 28): `/records` and `/record/ROOM.json`
of the browser door, through real HTTP requests on 127.0.0.1, with and without the
page's cookie. Only games that are over; a locked room's only to its players."""

from __future__ import annotations

import asyncio
import datetime
import json
import pathlib
import re
import urllib.error
import urllib.request
from collections.abc import AsyncIterator

import pytest

from modernart.engine.records import load_record, replay
from modernart.server.doors.web.gate import WebGate, WebSettings
from modernart.server.doors.web.identity import COOKIE

from .finishedgames import played
from .pageclient import PageClient
from .sshgate import MakeGate, gates
from .test_web import browser as browser  # the fixture: Chromium
from .test_web import lobby, token_of
from .wsclient import Client, autoplay


@pytest.fixture
async def web(tmp_path: pathlib.Path) -> AsyncIterator[MakeGate]:
    async for make in gates(tmp_path, lambda server, s: WebGate(server, WebSettings(port=0, **s))):
        yield make


def _get(url: str, cookie: str | None, method: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, method=method)
    if cookie is not None:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def get(
    gate: WebGate, path: str, token: str | None = None, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    cookie = f"{COOKIE}={token}" if token is not None else None
    url = f"http://127.0.0.1:{gate.port}{path}"
    return await asyncio.to_thread(_get, url, cookie, method)


async def test_a_finished_game_downloads_with_the_page_s_cookie_only(web):
    gate = await web()
    async with played(f"ws://127.0.0.1:{gate.server.port}/") as games:
        ann, cy = games.ann.token, games.cy.token
        public = f"/record/{games.public}.json"

        # No cookie, or one this server does not know: nothing, not even a public game.
        for token in (None, "not-a-token"):
            for path in ("/records", public):
                status, _, body = await get(gate, path, token)
                assert status == 403 and b"open the game's page" in body, (path, token)
                assert games.public.encode() not in body

        status, headers, body = await get(gate, "/records", ann)
        assert status == 200 and headers["Content-Type"] == "application/json"
        assert headers["Cache-Control"] == "no-store"
        listed = json.loads(body)["games"]
        assert [g["room"] for g in listed] == [games.public, games.locked]  # newest first
        assert listed[0]["url"] == public and listed[0]["outcome"] == "finished"

        status, headers, body = await get(gate, public, ann)
        assert status == 200
        assert headers["Content-Disposition"] == (
            f'attachment; filename="modernart-{games.public}.json"'
        )
        assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
        record = load_record(body.decode())
        assert replay(record)["finished"] and record.extra["room"] == games.public
        status, headers, body = await get(gate, public, ann, "HEAD")
        assert status == 200 and body == b"" and "attachment" in headers["Content-Disposition"]
        status, _, _ = await get(gate, f"/record/{games.locked}.json", ann)
        assert status == 200  # Ann played it

        refusals = [
            (ann, f"/record/{games.running}.json", 403, b"once the game is over"),
            (ann, "/record/nosuch.json", 404, b"no game"),
            (ann, "/record/..%2f..%2fetc%2fpasswd.json", 404, b"not found"),
            (ann, f"/record/{games.public}", 404, b"not found"),
            (cy, f"/record/{games.locked}.json", 403, b"locked"),  # a stranger's locked game
        ]
        for token, path, code, why in refusals:
            status, _, body = await get(gate, path, token)
            assert status == code and why in body, path
            assert b'"actions"' not in body
        status, _, body = await get(gate, "/records", cy)
        assert status == 200 and json.loads(body) == {"games": []}
        assert (await get(gate, public, cy))[0] == 200  # a public game is anyone's to see


async def test_the_cookie_a_page_was_given_is_the_one_that_counts(web):
    gate = await web()
    page = await PageClient.open(gate.port)
    await page.wait_text("Rooms")
    assert page.cookie is not None
    token = page.cookie.split("=", 1)[1]
    status, _, body = await get(gate, "/records", token)
    assert status == 200 and json.loads(body) == {"games": []}  # a new player: none yet
    (session,) = gate.terminals.sessions
    assert session.records is not None and "Your finished games" in session.records
    assert str(gate.server.data_dir) not in session.records
    await page.ws.close()


LINKS_JS = """
const done = arguments[arguments.length - 1];
const list = document.getElementById('records-list');
const links = () => Array.from(list.querySelectorAll('a')).map(
  a => [a.getAttribute('href'), a.getAttribute('download'), a.textContent]);
if (links().length) { done(links()); return; }
const observer = new MutationObserver(() => {
  if (links().length) { observer.disconnect(); done(links()); }
});
observer.observe(list, {childList: true});
setTimeout(() => { observer.disconnect(); done(null); }, 25000);
"""
FETCH_JS = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then(async answer => done(
  [answer.status, answer.headers.get('content-disposition'), await answer.text()]));
"""


async def test_the_page_lists_your_finished_games_and_downloads_one(web, browser):
    gate = await web()
    async with played(f"ws://127.0.0.1:{gate.server.port}/") as games:
        page = await browser()
        await lobby(gate, page)  # a new identity's cookie first; then Ann's (as a code would)
        cookie = {"name": COOKIE, "value": games.ann.token, "path": "/", "httpOnly": True}
        await page.call(page.driver.add_cookie, cookie)
        await page.call(page.driver.refresh)
        await page.wait_text("Rooms")
        await page.run("document.getElementById('records-button').click()")
        links = await page.call(page.driver.execute_async_script, LINKS_JS)
        assert links is not None, "no finished games listed"
        assert [href for href, _, _ in links] == [
            f"/record/{games.public}.json",
            f"/record/{games.locked}.json",
        ]
        assert links[0][1] == f"modernart-{games.public}.json" and games.public in links[0][2]
        status, disposition, body = await page.call(
            page.driver.execute_async_script, FETCH_JS, links[0][0]
        )
        assert status == 200 and disposition.startswith("attachment")
        assert replay(load_record(body))["finished"]
        assert await page.run("return document.getElementById('records').hidden") is False


STATUS_JS = "return document.getElementById('records-status').textContent"
# Answers once the terminal has the keys again (its textarea has the focus).
TERMINAL_FOCUSED_JS = """
const done = arguments[arguments.length - 1];
const focused = () => document.activeElement.classList.contains('xterm-helper-textarea');
if (focused()) { done(true); return; }
document.addEventListener('focusin', () => { if (focused()) done(true); });
setTimeout(() => done(focused()), 5000);
"""


async def test_the_open_list_shows_a_game_that_ends_meanwhile_with_an_iso_date(web, browser):
    """Play-test 2026-12-03 (evening) #5: the list, opened during the game, kept saying
    "No finished games yet" after it; its dates were the US locale's."""
    gate = await web()
    page = await browser()
    await lobby(gate, page)
    await page.run("document.getElementById('records-button').click()")
    status = await page.call(
        page.driver.execute_async_script,
        """const done = arguments[arguments.length - 1];
        const status = document.getElementById('records-status');
        const ready = () => status.textContent.startsWith('No finished games');
        if (ready()) { done(status.textContent); return; }
        new MutationObserver(() => { if (ready()) done(status.textContent); })
          .observe(status, {childList: true, characterData: true, subtree: true});""",
    )
    assert status.startswith("No finished games yet")

    # This browser's identity plays a game to its end (from a client of its own: the
    # page's session is replaced, the page and its open list stay).
    player = await Client.hello(f"ws://127.0.0.1:{gate.server.port}/", "Ann", await token_of(page))
    try:
        await player.send("create", seats=3, options={"shout_window_ms": 100})
        room = (await player.expect("joined"))["room"]
        for _ in range(2):
            await player.send("add_bot", level="random")
        await player.send("start")
        await player.next_update()
        await autoplay(player, seed=4)
    finally:
        await player.close()

    links = await page.call(page.driver.execute_async_script, LINKS_JS)
    assert links is not None, "the open list never showed the game that ended"
    ((href, _, text),) = links
    assert href == f"/record/{room}.json"
    assert (await page.run(STATUS_JS)).startswith("Download a game's record")
    status, _, body = await page.call(page.driver.execute_async_script, FETCH_JS, "/records")
    finished = json.loads(body)["games"][0]["finished"]
    offset = await page.run(
        "return new Date(arguments[0] * 1000).getTimezoneOffset()", finished
    )  # minutes west of UTC, in the browser's time zone
    local = datetime.datetime.fromtimestamp(finished, datetime.UTC)
    local -= datetime.timedelta(minutes=offset)
    assert text == f"Modern Art, {local:%Y-%m-%d %H:%M} ({room})"
    assert re.search(r", \d{4}-\d\d-\d\d \d\d:\d\d \(", text)

    # A download link clicked gives the keys back to the game (finding #6: Ctrl+Q did
    # nothing once a link had the focus). The download itself is not wanted here.
    await page.run(
        "window.addEventListener('click', e => e.preventDefault(), true);"
        "document.querySelector('#records-list a').click()"
    )
    assert await page.call(page.driver.execute_async_script, TERMINAL_FOCUSED_JS)
