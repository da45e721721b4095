"""A player's finished games in the browser (issue 28): `/records` and `/record/ROOM.json`
of the browser door, through real HTTP requests on 127.0.0.1, with and without the
page's cookie. Only games that are over; a locked room's only to its players."""

from __future__ import annotations

import asyncio
import json
import pathlib
import urllib.error
import urllib.request
from collections.abc import AsyncIterator

import pytest

from modernart.engine.records import load_record, replay
from modernart.server.web.gate import WebGate, WebSettings
from modernart.server.web.identity import COOKIE

from .finishedgames import played
from .pageclient import PageClient
from .sshgate import MakeGate, gates


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
